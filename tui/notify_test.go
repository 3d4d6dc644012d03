package tui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeNotifyHost is the client as the notifier sees it: [ui.toast], an
// environment, and what it sent the outer terminal and the tab bar.
type fakeNotifyHost struct {
	cfg    config.Toast
	sound  config.Sound
	env    map[string]string
	outer  []byte
	seq    int
	toasts []string
	snap   protocol.SessionSnapshot
}

func (h *fakeNotifyHost) toastConfig() config.Toast           { return h.cfg }
func (h *fakeNotifyHost) soundConfig() config.Sound           { return h.sound }
func (h *fakeNotifyHost) getenv(k string) string              { return h.env[k] }
func (h *fakeNotifyHost) context() context.Context            { return context.Background() }
func (h *fakeNotifyHost) toOuter(b []byte)                    { h.outer = append(h.outer, b...) }
func (h *fakeNotifyHost) nextToast() int                      { h.seq++; return h.seq }
func (h *fakeNotifyHost) snapshot() *protocol.SessionSnapshot { return &h.snap }
func (h *fakeNotifyHost) workspaceLabel(id string) string     { return "ws " + id }
func (h *fakeNotifyHost) tabLabel(id string) string           { return "tab " + id }
func (h *fakeNotifyHost) paneInfo(id string) (protocol.PaneInfo, bool) {
	for _, p := range h.snap.Panes {
		if p.PaneID == id {
			return p, true
		}
	}
	return protocol.PaneInfo{}, false
}
func (h *fakeNotifyHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}

// The notifier on its own: herdr delivery shows a corner toast, drawn in
// its corner, that only its own expiry hides; terminal delivery asks the
// outer terminal; a failing system notifier is reported once; sounds
// follow [ui.sound], the agents' switches and HERDR_DISABLE_SOUND, and a
// relative sound path starts at the config's folder.
func TestNotifier_OnItsOwn(t *testing.T) {
	h := &fakeNotifyHost{cfg: config.Toast{Delivery: config.ToastHerdr, HerdrPosition: "top-left"}, env: map[string]string{}}
	nf := &notifier{tones: &toneFiles{}, host: h}
	if nf.notify(notice{title: "impl finished", body: "proj · 1"}) == nil || nf.corner == nil || nf.corner.text != "impl finished: proj · 1" {
		t.Fatalf("corner %+v", nf.corner)
	}
	c := newCanvas(40, 10)
	nf.drawCorner(c, 40, 10, newTheme(config.Default(), true))
	if row := ansi.Strip(strings.Split(c.String(), "\n")[2]); !strings.HasPrefix(row, "   impl finished") {
		t.Fatalf("top-left corner row %q", row)
	}
	nf.expire(cornerExpired{seq: h.seq + 1})
	if nf.corner == nil {
		t.Fatal("another toast's expiry hid this one")
	}
	nf.expire(cornerExpired{seq: h.seq})
	if nf.corner != nil {
		t.Fatal("its expiry did not hide it")
	}

	nf.notify(notice{title: "x", delivery: config.ToastTerminal})
	if !strings.Contains(string(h.outer), "\x1b]9;x") || nf.corner != nil {
		t.Fatalf("terminal delivery sent %q", h.outer)
	}
	for range 2 {
		nf.systemFailed(systemDone{prog: "notify-send", err: errors.New("not found")})
	}
	if len(h.toasts) != 1 || !strings.Contains(h.toasts[0], "notify-send: not found") {
		t.Fatalf("toasts %q", h.toasts)
	}

	h.sound = config.Sound{Enabled: true, Path: "ding.mp3", Agents: map[string]string{"open_code": "off"}}
	nf.configDir = "/home/me/.config/herdr"
	if !nf.soundOn("done", "claude") || nf.soundOn("done", "opencode") || nf.soundOn("bell", "") {
		t.Fatal("sound switches")
	}
	if got := nf.soundFile("request"); got != filepath.Join(nf.configDir, "ding.mp3") {
		t.Fatalf("sound file %q", got)
	}
	h.env["HERDR_DISABLE_SOUND"] = "1"
	if nf.playSound("done", "claude") != nil {
		t.Fatal("HERDR_DISABLE_SOUND played a sound")
	}
}

// The agents' watch on its own: the first snapshot notifies nothing; an
// agent that became blocked in another tab becomes the attention target
// and notifies once its status held (here at once: no delay); one in the
// focused tab is only the attention target; a status that changed back
// before its delay notifies nothing.
func TestNotifier_AgentsThatNeedThePerson(t *testing.T) {
	h := &fakeNotifyHost{cfg: config.Toast{Delivery: config.ToastHerdr}, env: map[string]string{"HERDR_DISABLE_SOUND": "1"}}
	h.snap = twoPanes()
	h.snap.Panes = append(h.snap.Panes, protocol.PaneInfo{PaneID: "w1:p3", WorkspaceID: "w1", TabID: "w1:t2", AgentStatus: protocol.StatusWorking, Agent: protocol.Ptr("codex")})
	nf := &notifier{tones: &toneFiles{}, host: h}
	if cmds := nf.agentChanges(); len(cmds) != 0 || nf.attention != "" {
		t.Fatalf("the first snapshot notified: %d, attention %q", len(cmds), nf.attention)
	}
	h.snap.Panes[2].AgentStatus = protocol.StatusBlocked
	cmds := nf.agentChanges()
	if len(cmds) != 1 || nf.attention != "w1:p3" {
		t.Fatalf("blocked in another tab: %d cmds, attention %q", len(cmds), nf.attention)
	}
	due := cmds[0]().(agentDue)
	nf.agentWasDue(due)
	if nf.corner == nil || nf.corner.text != "codex needs attention: ws w1 · tab w1:t2" {
		t.Fatalf("corner %+v", nf.corner)
	}
	nf.corner = nil
	h.snap.Panes[0].AgentStatus = protocol.StatusDone // w1:p1, in the focused tab
	if cmds := nf.agentChanges(); len(cmds) != 0 || nf.attention != "w1:p1" {
		t.Fatalf("done in the focused tab: %d cmds, attention %q", len(cmds), nf.attention)
	}
	h.snap.Panes[2].AgentStatus = protocol.StatusWorking
	nf.agentWasDue(due)
	if nf.corner != nil {
		t.Fatal("a status that did not hold notified")
	}
}
