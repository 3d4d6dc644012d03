package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// TestNextLayout_Cycles: prefix Space arranges the focused tab in tmux's
// layouts in turn, says which in a toast, and refuses a tab of one pane.
func TestNextLayout_Cycles(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	for i, name := range []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled", "even-horizontal"} {
		m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
		_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
		if cmd == nil {
			t.Fatalf("press %d: no command (toast %q)", i, m.toast.text)
		}
		msg, ok := cmd().(layoutDone)
		if !ok || msg.name != name || msg.err != nil {
			t.Fatalf("press %d: %#v, want %s", i, msg, name)
		}
		m.Update(msg)
		if m.toast.text != "layout "+name || m.tmux.arranging {
			t.Errorf("press %d: toast %q arranging %v", i, m.toast.text, m.tmux.arranging)
		}
	}
	sel := f.requests("layout.select")
	if len(sel) != 6 {
		t.Fatalf("%d layout.select for six presses, want 6", len(sel))
	}
	for i, r := range sel {
		if want := fmt.Sprintf(`"layout":%q`, protocol.LayoutPresets[i%5]); !strings.Contains(string(r.Params), want) || !strings.Contains(string(r.Params), `"tab_id":`) {
			t.Errorf("press %d asked %s, want %s of its tab", i, r.Params, want)
		}
	}
	if n := len(f.requests("pane.move")); n != 0 {
		t.Errorf("%d pane.move: the cycle is one layout.select each", n)
	}
	snap := twoPanes()
	snap.Layouts[0].Panes = snap.Layouts[0].Panes[1:]
	m.applySnapshot(snap, protocol.AgentViewList{})
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	if !strings.Contains(m.toast.text, "nothing to arrange") {
		t.Errorf("one pane: toast %q", m.toast.text)
	}
}
