package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// closeTabKeys presses prefix X (close tab) and runs what the model hands
// back, as Bubble Tea would: the check of what runs, then its answer.
func closeTabKeys(t *testing.T, m *model) {
	t.Helper()
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	_, cmd := m.Update(keyRunes("X"))
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			return
		}
		_, cmd = m.Update(msg)
	}
}

// Closing the last tab of a workspace asks first even though only shells
// run there (Herdr 0.9.2); n keeps it, y closes it. A tab that is not its
// workspace's last closes at once, and confirm_close = false asks nothing.
func TestLastTab_CloseAsksFirst(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	closeTabKeys(t, m)
	if m.mode != modeConfirm {
		t.Fatalf("closing w1's only tab: mode %v, want a question", m.mode)
	}
	if q := m.confirm.text(); q != " close the last tab of proj and the workspace with it? y/n " {
		t.Fatalf("question %q", q)
	}
	if !strings.Contains(render(m), "close the last tab of proj") {
		t.Fatal("the question is not drawn")
	}
	m.Update(keyRunes("n"))
	if m.mode != modeTerminal || len(f.requests("tab.close")) != 0 {
		t.Fatalf("after n: mode %v, %d tab.close sent; want none", m.mode, len(f.requests("tab.close")))
	}
	closeTabKeys(t, m)
	m.Update(keyRunes("y"))
	waitFor(t, "tab.close", func() bool { return len(f.requests("tab.close")) == 1 })
	var p protocol.TabTarget
	if err := json.Unmarshal(f.requests("tab.close")[0].Params, &p); err != nil || p.TabID != "w1:t1" {
		t.Fatalf("tab.close params %+v, %v", p, err)
	}

	// A second tab in w1: closing one of two asks nothing (only shells run).
	m.snap.Workspaces[0].TabCount = 2
	m.snap.Tabs = append(m.snap.Tabs, protocol.TabInfo{TabID: "w1:t2", WorkspaceID: "w1", Number: 2, Label: "2"})
	closeTabKeys(t, m)
	if m.mode == modeConfirm {
		t.Fatalf("closing one of two tabs asked %q", m.confirm.text())
	}
	waitFor(t, "a second tab.close", func() bool { return len(f.requests("tab.close")) == 2 })

	m.snap.Workspaces[0].TabCount = 1
	m.confirmClose = false
	closeTabKeys(t, m)
	if m.mode == modeConfirm {
		t.Fatal("confirm_close = false still asked")
	}
	waitFor(t, "a third tab.close", func() bool { return len(f.requests("tab.close")) == 3 })
}

// The question names what a close would end as well.
func TestLastTab_QuestionNamesBusyPrograms(t *testing.T) {
	if got := lastTabQuestion(" close the last tab of api and the workspace with it", []string{"vim", "make"}); got != " close the last tab of api and the workspace with it, ending vim, make? y/n " {
		t.Fatalf("%q", got)
	}
}
