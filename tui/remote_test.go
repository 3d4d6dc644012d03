package tui

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

const remoteFrame = `{"event":"screen.frame","data":{"pane_id":"w1:p1","terminal_id":"t1","seq":1,"cols":40,"rows":5,"full":true,"cursor":{"x":0,"y":0,"visible":true},"lines":[{"y":0,"runs":[{"x":0,"w":12,"t":"remote hello"}]}]}}`

// remoteHarness is the fleet model whose DialMachine reaches remote, a
// fake of build's own server, and a loop that runs the model's commands
// as Bubble Tea would.
type remoteHarness struct {
	t      *testing.T
	m      *model
	local  *fleetServer
	remote *fleetServer
	dials  atomic.Int32
	msgs   chan tea.Msg
}

func newRemoteHarness(t *testing.T) *remoteHarness {
	h := &remoteHarness{t: t, local: &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot},
		remote: &fleetServer{frame: remoteFrame}, msgs: make(chan tea.Msg, 1024)}
	h.m = fleetModel(t, h.local)
	h.m.link.send = func(msg tea.Msg) { h.msgs <- msg }
	h.m.link.dialMachine = func(machine string) (net.Conn, error) {
		if machine != "build" {
			t.Errorf("dialled machine %q", machine)
		}
		h.dials.Add(1)
		a, b := net.Pipe()
		go h.remote.serve(b)
		t.Cleanup(func() { a.Close(); b.Close() })
		return a, nil
	}
	return h
}

// run runs a command off the loop; its messages come back to the loop.
func (h *remoteHarness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				h.run(c)
			}
		default:
			h.msgs <- msg
		}
	}()
}

// send gives the model a message and runs what it asks.
func (h *remoteHarness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// until pumps messages until cond holds.
func (h *remoteHarness) until(why string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-time.After(time.Millisecond): // cond may be a fake server's, not a message's
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", why)
		}
	}
}

func (h *remoteHarness) choose(label string) {
	h.t.Helper()
	y, _ := sideRow(h.t, h.m, label)
	h.send(mouseMsg{X: 4, Y: y, Action: mousePress, Button: tea.MouseLeft})
}

func (h *remoteHarness) shows(s string) bool { return strings.Contains(ansi.Strip(render(h.m)), s) }

func TestRemote_ChosenWorkspaceStreamsItsPaneAndTakesInput(t *testing.T) {
	h := newRemoteHarness(t)
	h.choose("1 api")
	h.until("the remote pane's frame drawn", func() bool { return h.shows("remote hello") })
	subs := h.remote.requests("screen.subscribe")
	var p protocol.ScreenSubscribeParams
	if len(subs) != 1 || json.Unmarshal(subs[0].Params, &p) != nil || len(p.PaneIDs) != 1 || p.PaneIDs[0] != "w1:p1" {
		t.Fatalf("screen.subscribe on build = %+v", subs)
	}
	g := h.m.geometry()
	if hc := h.m.paneCursor(); hc != (hostCursor{x: g.area.X + 1, y: g.area.Y + 1, visible: true}) {
		t.Fatalf("cursor %+v: not the remote pane's (0,0)", hc)
	}
	h.send(keyRunes("x"))
	h.until("the key written to the remote pane", func() bool { return len(h.remote.requests("pane.send_text")) == 1 })
	if got := sentText(t, h.remote.requests("pane.send_text")[0]); got != "w1:p1=x" {
		t.Fatalf("pane.send_text on build = %q", got)
	}
	if n := len(h.local.requests("pane.send_text")); n != 0 {
		t.Fatalf("%d writes went to the local server", n)
	}
}

func TestRemote_LostLinkDimsReconnectsAndKeepsTheSelection(t *testing.T) {
	h := newRemoteHarness(t)
	h.choose("1 api")
	h.until("the remote pane's frame drawn", func() bool { return h.shows("remote hello") })
	h.remote.drop()
	h.until("the link reconnecting", func() bool { return h.m.remote.link != nil && h.m.remote.link.state == remoteReconnecting })
	if h.m.fleet.selected != "build/w1" {
		t.Fatalf("selection moved to %q", h.m.fleet.selected)
	}
	if !h.shows("reconnecting") || !h.shows("remote hello") {
		t.Fatalf("the lost pane is not kept with its mark:\n%s", ansi.Strip(render(h.m)))
	}
	c := h.m.canvas(nil)
	g := h.m.geometry()
	if cl := c.cells[(g.area.Y+1)*c.w+g.area.X+1]; cl.s != "r" || cl.st.fg != h.m.theme.dim.fg {
		t.Fatalf("the lost pane's first cell = %+v, want a dimmed r", cl)
	}
	if hc := h.m.paneCursor(); hc.visible {
		t.Fatalf("a cursor %+v on a lost pane", hc)
	}
	h.send(keyRunes("y"))
	if !strings.Contains(h.m.toast.text, "reconnecting") {
		t.Fatalf("toast = %q", h.m.toast.text)
	}
	h.until("a redial and the link live again", func() bool { return h.dials.Load() == 4 && h.m.remote.link.state == remoteLive })
	if h.m.fleet.selected != "build/w1" {
		t.Fatalf("selection moved to %q", h.m.fleet.selected)
	}
	if n := len(h.remote.requests("pane.send_text")); n != 0 {
		t.Fatalf("%d writes reached the remote while it was lost", n)
	}
}

func TestRemote_OfflineMachineIsNotDialled(t *testing.T) {
	h := newRemoteHarness(t)
	h.m.link.dialMachine = func(machine string) (net.Conn, error) {
		h.dials.Add(1)
		return nil, net.ErrClosed
	}
	h.choose("1 train") // gpu: offline by the server's link
	if h.m.remote.link != nil || h.dials.Load() != 0 {
		t.Fatalf("a link to an offline machine: %+v", h.m.remote.link)
	}
	if !h.shows("gpu is offline: ssh: connection refused") {
		t.Fatalf("the pane area does not say why:\n%s", ansi.Strip(render(h.m)))
	}
}

func TestRemote_BackoffDoublesFromOneToThirtySeconds(t *testing.T) {
	d, got := remoteFirstRetry, []time.Duration{remoteFirstRetry}
	for range 7 {
		d = nextBackoff(d)
		got = append(got, d)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i := range want {
		if got[i] != want[i]*time.Second {
			t.Fatalf("backoff %v, want %v s", got, want)
		}
	}
}

func TestRemote_PaneBindingsDoNotActOnTheHiddenLocalSession(t *testing.T) {
	h := newRemoteHarness(t)
	h.choose("1 api")
	h.until("the remote pane's frame drawn", func() bool { return h.shows("remote hello") })
	h.send(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}) // the prefix, then close pane
	h.send(keyRunes("x"))
	if h.m.mode == modeConfirm || len(h.local.requests("pane.close")) != 0 {
		t.Fatal("close pane went to the local session's hidden pane")
	}
	if !strings.Contains(h.m.toast.text, "close_pane works on local workspaces") {
		t.Fatalf("toast = %q", h.m.toast.text)
	}
	if h.m.fleet.selected != "build/w1" {
		t.Fatalf("selection moved to %q", h.m.fleet.selected)
	}
}

// fakeRemoteHost is the client as the remote view sees it: the machine
// chosen, a dialer that fails (counting its dials), and the toasts.
type fakeRemoteHost struct {
	fm       *fleetMachine
	selected string
	dials    int
	toasts   []string
}

func (h *fakeRemoteHost) chosenRemote() (*fleetMachine, string) { return h.fm, h.selected }
func (h *fakeRemoteHost) dialMachine() func(string) (net.Conn, error) {
	return func(machine string) (net.Conn, error) {
		h.dials++
		return nil, errors.New("ssh: " + machine + " unreachable")
	}
}
func (h *fakeRemoteHost) sender() func(tea.Msg) { return nil }
func (h *fakeRemoteHost) paneArea() protocol.Rect {
	return protocol.Rect{X: 20, Y: 1, Width: 40, Height: 10}
}
func (h *fakeRemoteHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}
func (h *fakeRemoteHost) fail(error) {}

// The remote view on its own: an offline machine is not dialled, refuses
// keys with a toast and says why in the pane area; an online one is
// dialled, and a failed dial marks the link reconnecting with a doubled
// backoff; a dial answered for a link since replaced is dropped.
func TestRemoteView_OnItsOwn(t *testing.T) {
	snap := &protocol.SessionSnapshot{Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: "gpu/w1", Label: "train"}},
		Panes: []protocol.PaneInfo{{PaneID: "gpu/w1:p1", WorkspaceID: "gpu/w1"}}}
	h := &fakeRemoteHost{fm: &fleetMachine{ID: "gpu", Label: "gpu", State: "offline", Error: "no route", Snap: snap}, selected: "gpu/w1"}
	v := &remoteView{host: h}
	if v.sync() != nil || v.link != nil || h.dials != 0 {
		t.Fatal("an offline machine was dialled")
	}
	v.input(keyRunes("x"))
	if len(h.toasts) != 1 || h.toasts[0] != "gpu is offline: input not sent" {
		t.Fatalf("toasts %q", h.toasts)
	}
	if v.title() != "gpu · train" {
		t.Fatalf("title %q", v.title())
	}
	th := newTheme(config.Default(), true)
	c := newCanvas(60, 11)
	g := geometry{w: 60, h: 11, area: h.paneArea()}
	v.draw(c, g, th)
	if out := ansi.Strip(c.String()); !strings.Contains(out, "gpu · train") || !strings.Contains(out, "gpu is offline: no route") {
		t.Fatalf("drawn:\n%s", out)
	}

	h.fm.State = machineOnline
	dial := v.sync()
	if v.link == nil || v.link.state != remoteConnecting || dial == nil {
		t.Fatalf("online: link %+v", v.link)
	}
	msg := dial().(remoteDialedMsg)
	if h.dials != 1 || msg.err == nil {
		t.Fatalf("dials %d err %v", h.dials, msg.err)
	}
	if cmd, ok := v.update(msg); !ok || cmd == nil || v.link.state != remoteReconnecting || v.link.backoff != 2*remoteFirstRetry {
		t.Fatalf("failed dial: link %+v", v.link)
	}
	if v.cursor(g, true).visible {
		t.Fatal("a cursor for a link that is down")
	}
	if _, ok := v.update(remoteRedialMsg{gen: v.gen + 1}); !ok || h.dials != 1 {
		t.Fatal("a redial of another link dialled")
	}
	v.input(keyRunes("x"))
	if h.toasts[len(h.toasts)-1] != "gpu is reconnecting: input not sent" {
		t.Fatalf("toasts %q", h.toasts)
	}
}
