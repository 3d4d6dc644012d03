package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeNavHost is the client as the picker and the close question see it:
// a snapshot, the workspaces focused, the requests sent, and a server
// telling what runs in each pane.
type fakeNavHost struct {
	snap    protocol.SessionSnapshot
	focused []string
	sent    []string
	confirm bool
	busy    map[string]string // pane → its foreground program
}

func (h *fakeNavHost) snapshot() *protocol.SessionSnapshot { return &h.snap }
func (h *fakeNavHost) focusWorkspace(id string)            { h.focused = append(h.focused, id) }
func (h *fakeNavHost) statusIcon(protocol.AgentStatus) (string, cellStyle) {
	return "●", cellStyle{}
}
func (h *fakeNavHost) confirmClose() bool { return h.confirm }
func (h *fakeNavHost) lastTabOf(id string) (string, bool) {
	s := session{snap: h.snap}
	return s.lastTabOf(id)
}
func (h *fakeNavHost) panesOf(tab, ws string) []string {
	s := session{snap: h.snap}
	return s.panesOf(tab, ws)
}
func (h *fakeNavHost) send(method string, params any) { h.sent = append(h.sent, method) }
func (h *fakeNavHost) rpc() rpcFunc {
	return func(_ string, params, out any) error {
		id := *params.(protocol.PaneProcessInfoParams).PaneID
		shell, fg := uint32(10), uint32(10)
		pi := protocol.PaneProcessInfo{ShellPID: &shell, ForegroundProcessGroupID: &fg}
		if name := h.busy[id]; name != "" {
			fg = 20
			pi.ForegroundProcesses = []protocol.PaneProcessInfoProcess{{PID: 20, Name: name}}
		}
		out.(*protocol.PaneProcessInfoResult).ProcessInfo = pi
		return nil
	}
}

// The workspace picker on its own: it opens on the focused workspace,
// moves around the ends, focuses what Enter or a number picks, and draws
// the workspaces with the selected one marked.
func TestWorkspacePicker_OnItsOwn(t *testing.T) {
	h := &fakeNavHost{snap: twoPanes()}
	md := modeTerminal
	p := &workspacePicker{host: h, mode: &md}
	p.open()
	if md != modePicker || p.sel != 0 {
		t.Fatalf("open: mode %v sel %d", md, p.sel)
	}
	p.key(keyRunes("k"))
	if p.sel != 1 {
		t.Fatalf("k from the first: sel %d", p.sel)
	}
	c := newCanvas(60, 10)
	p.draw(c, 60, 10, newTheme(config.Default(), true))
	if out := ansi.Strip(c.String()); !strings.Contains(out, "1 ● proj") || !strings.Contains(out, "2 ● other") {
		t.Fatalf("picker:\n%s", out)
	}
	p.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	p.open()
	p.key(keyRunes("1"))
	if md != modeTerminal || strings.Join(h.focused, ",") != "w2,w1" {
		t.Fatalf("mode %v focused %v", md, h.focused)
	}
}

// The close question on its own: with confirm_close off a close goes at
// once; with it on, panes running only their shell close without asking,
// and a busy one asks, names its program, and closes on y only.
func TestCloseConfirm_OnItsOwn(t *testing.T) {
	h := &fakeNavHost{busy: map[string]string{"w1:p2": "vim"}}
	md := modeTerminal
	cc := &closeConfirm{host: h, mode: &md}
	req := closeReq{what: "tab", method: "tab.close"}
	if cc.ask(req, []string{"w1:p1", "w1:p2"}) != nil || len(h.sent) != 1 {
		t.Fatalf("confirm_close off: sent %v", h.sent)
	}
	h.confirm = true
	cc.checked(cc.ask(req, []string{"w1:p1"})().(closeCheckedMsg))
	if len(h.sent) != 2 || md != modeTerminal {
		t.Fatalf("a shell pane: sent %v mode %v", h.sent, md)
	}
	cc.checked(cc.ask(req, []string{"w1:p1", "w1:p2"})().(closeCheckedMsg))
	if md != modeConfirm || cc.text() != " close tab running vim? y/n " || len(h.sent) != 2 {
		t.Fatalf("busy: mode %v text %q sent %v", md, cc.text(), h.sent)
	}
	cc.key(keyRunes("n"))
	if md != modeTerminal || len(h.sent) != 2 {
		t.Fatalf("n: mode %v sent %v", md, h.sent)
	}
	cc.checked(cc.ask(req, []string{"w1:p2"})().(closeCheckedMsg))
	cc.key(keyRunes("y"))
	if md != modeTerminal || len(h.sent) != 3 || h.sent[2] != "tab.close" {
		t.Fatalf("y: mode %v sent %v", md, h.sent)
	}
	// A workspace's last tab is asked about whatever runs in it.
	h.snap, h.busy = twoPanes(), nil
	cc.checked(cc.askTab("w1:t1")().(closeCheckedMsg))
	if md != modeConfirm || !strings.Contains(cc.text(), "last tab of proj") || len(h.sent) != 3 {
		t.Fatalf("last tab: mode %v text %q sent %v", md, cc.text(), h.sent)
	}
}
