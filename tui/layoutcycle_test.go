package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// build applies steps to a tab holding panes[0] alone, with the server's
// own tree, and returns each pane's rectangle in a 120×40 tab.
func build(t *testing.T, panes []string, steps []layoutStep) map[string]layout.Rect {
	t.Helper()
	root := layout.NewLeaf(panes[0])
	for _, s := range steps {
		if !root.Split(s.target, s.pane, layout.Direction(s.split), s.ratio) {
			t.Fatalf("step %+v: target not placed yet", s)
		}
	}
	rects, _ := root.Compute(layout.Rect{W: 120, H: 40})
	out := map[string]layout.Rect{}
	for _, r := range rects {
		out[r.ID] = r.Rect
	}
	if len(out) != len(panes) {
		t.Fatalf("%d panes placed, want %d", len(out), len(panes))
	}
	return out
}

// TestLayoutSteps: each of tmux's five layouts, built by the server's
// split rules from the steps, has the shape tmux gives it.
func TestLayoutSteps(t *testing.T) {
	p := []string{"a", "b", "c", "d"}
	r := func(x, y, w, h int) layout.Rect { return layout.Rect{X: x, Y: y, W: w, H: h} }
	want := map[string]map[string]layout.Rect{
		"even-horizontal": {"a": r(0, 0, 30, 40), "b": r(30, 0, 30, 40), "c": r(60, 0, 30, 40), "d": r(90, 0, 30, 40)},
		"even-vertical":   {"a": r(0, 0, 120, 10), "b": r(0, 10, 120, 10), "c": r(0, 20, 120, 10), "d": r(0, 30, 120, 10)},
		"main-horizontal": {"a": r(0, 0, 120, 24), "b": r(0, 24, 40, 16), "c": r(40, 24, 40, 16), "d": r(80, 24, 40, 16)},
		"main-vertical":   {"a": r(0, 0, 72, 40), "b": r(72, 0, 48, 13), "c": r(72, 13, 48, 14), "d": r(72, 27, 48, 13)},
		"tiled":           {"a": r(0, 0, 60, 20), "b": r(60, 0, 60, 20), "c": r(0, 20, 60, 20), "d": r(60, 20, 60, 20)},
	}
	for _, name := range layoutNames {
		got := build(t, p, layoutSteps(name, p))
		for id, w := range want[name] {
			if got[id] != w {
				t.Errorf("%s: %s at %+v, want %+v", name, id, got[id], w)
			}
		}
	}
	// Five panes tiled: three columns, the second row wider.
	got := build(t, []string{"a", "b", "c", "d", "e"}, layoutSteps("tiled", []string{"a", "b", "c", "d", "e"}))
	if got["a"].W != 40 || got["c"].X != 80 || got["d"].Y != 20 || got["d"].W != 60 || got["e"].X != 60 {
		t.Errorf("five tiled: %+v", got)
	}
	if s := layoutSteps("tiled", []string{"a"}); s != nil {
		t.Errorf("one pane: steps %+v, want none", s)
	}
}

// fakeMover is the server as the layout cycle sees it: pane.move answers
// with the pane's new id (moving renames it) and the parking tab's id.
type fakeMover struct {
	calls  []string
	moved  int
	failAt int // the pane.move that fails (1 is the first); 0: none
}

func (f *fakeMover) call(method string, params, out any) error {
	b, _ := json.Marshal(params)
	f.calls = append(f.calls, method+" "+string(b))
	if method != "pane.move" {
		return nil
	}
	var p protocol.PaneMoveParams
	_ = protocol.Unmarshal(b, &p)
	f.moved++
	if f.moved == f.failAt {
		return &protocol.Error{Code: "pane_not_found", Message: "pane gone"}
	}
	res := protocol.PaneMove{MoveResult: protocol.PaneMoveResult{Pane: protocol.PaneInfo{PaneID: fmt.Sprintf("%s.%d", p.PaneID, f.moved)}}}
	if p.Destination.Type == "new_tab" {
		res.MoveResult.CreatedTab = &protocol.TabInfo{TabID: "w1:t9"}
	}
	b, _ = json.Marshal(res)
	return protocol.Unmarshal(b, out)
}

// TestArrange: the panes park in one new tab, come back beside the pane
// the layout says under the ids the server gave them, and the focus goes
// back to the pane that had it.
func TestArrange(t *testing.T) {
	f := &fakeMover{}
	panes := []string{"p1", "p2", "p3"}
	if err := arrange(f, "w1:t1", panes, "p2", layoutSteps("even-vertical", panes)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`pane.move {"pane_id":"p2","destination":{"type":"new_tab"}}`,
		`pane.move {"pane_id":"p3","destination":{"type":"tab","tab_id":"w1:t9","split":"down"}}`,
		`pane.move {"pane_id":"p2.1","destination":{"type":"tab","tab_id":"w1:t1","split":"down","ratio":0.3333333333333333,"target_pane_id":"p1"}}`,
		`pane.move {"pane_id":"p3.2","destination":{"type":"tab","tab_id":"w1:t1","split":"down","ratio":0.5,"target_pane_id":"p2.1.3"}}`,
		`pane.focus {"pane_id":"p2.1.3"}`,
	}
	if strings.Join(f.calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(f.calls, "\n"), strings.Join(want, "\n"))
	}
}

// TestNextLayout_Cycles: prefix Space arranges the focused tab in tmux's
// layouts in turn, says which in a toast, and refuses a tab of one pane.
func TestNextLayout_Cycles(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	for i, name := range []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled", "even-horizontal"} {
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlB})
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		if cmd == nil {
			t.Fatalf("press %d: no command (toast %q)", i, m.toast.text)
		}
		msg, ok := cmd().(layoutDone)
		if !ok || msg.name != name || msg.err != nil {
			t.Fatalf("press %d: %#v, want %s", i, msg, name)
		}
		m.Update(msg)
		if m.toast.text != "layout "+name || m.arranging {
			t.Errorf("press %d: toast %q arranging %v", i, m.toast.text, m.arranging)
		}
	}
	if n := len(f.requests("pane.move")); n != 12 {
		t.Errorf("%d pane.move for six layouts of two panes, want 12", n)
	}
	snap := twoPanes()
	snap.Layouts[0].Panes = snap.Layouts[0].Panes[1:]
	m.applySnapshot(snap, protocol.AgentViewList{})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlB})
	m.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	if !strings.Contains(m.toast.text, "nothing to arrange") {
		t.Errorf("one pane: toast %q", m.toast.text)
	}
}

// TestArrange_FailureUnparks: when a move fails, the panes still parked
// come back into the tab, and the error says which pane and why.
func TestArrange_FailureUnparks(t *testing.T) {
	f := &fakeMover{failAt: 4} // parks p2, p3, places p2, fails placing p3
	panes := []string{"p1", "p2", "p3"}
	err := arrange(f, "w1:t1", panes, "p1", layoutSteps("even-horizontal", panes))
	if err == nil || !strings.Contains(err.Error(), "place pane p3.2: pane_not_found: pane gone") {
		t.Fatalf("err %v", err)
	}
	last := f.calls[len(f.calls)-1]
	if len(f.calls) != 5 || last != `pane.move {"pane_id":"p3.2","destination":{"type":"tab","tab_id":"w1:t1","split":"down"}}` {
		t.Errorf("after the failure: %s", strings.Join(f.calls, "\n"))
	}
}
