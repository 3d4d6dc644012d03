package tui

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// Hostile labels, titles and agent names arrive in a snapshot; the frame
// the client draws must carry none of their escape sequences (only the
// client's own SGR and cursor sequences, which begin "\x1b[").
func TestHostileStringsNeverReachTheTerminal(t *testing.T) {
	evil := "x\x1b]52;c;aGVsbG8=\x07\x1bP+q\x1b\\\u009b2J\ty"
	snap := twoPanes()
	snap.Workspaces[0].Label = evil
	snap.Tabs[0].Label = evil
	snap.Panes[1].Label = &evil
	snap.Panes[1].Title = &evil
	snap.Panes[0].Agent = &evil
	snap.Agents[0].Agent = &evil
	snap.Panes[0].Tokens = map[string]string{"n": evil}
	m := newModel(&link{}, defaultKeymap(), true)
	m.term = &fakeTerm{}
	m.width, m.height = 84, 21
	m.watched = []string{"w1:p1", "w1:p2"} // already streaming: no call goes out
	m.applySnapshot(snap, protocol.AgentViewList{})
	m.toast.show("workspace " + evil + " not found")
	m.Update(titleMsg{title: evil})
	view := render(m)
	for _, bad := range []string{"\x1b]", "\x1bP", "\x07", "\u009b", "\t", "\x1b\\"} {
		if strings.Contains(view, bad) {
			t.Errorf("the frame carries %q", bad)
		}
	}
	if strings.Contains(m.customTitle, "\x1b") || strings.Contains(m.session.windowTitle(m.customTitle, m.ui.WindowTitle), "\x1b") {
		t.Errorf("window title carries ESC: %q", m.session.windowTitle(m.customTitle, m.ui.WindowTitle))
	}
	if *m.snap.Panes[1].Label != protocol.Printable(evil) || m.snap.Panes[0].Tokens["n"] != protocol.Printable(evil) {
		t.Error("snapshot strings were not cleaned")
	}
}
