package tui

import (
	"bytes"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// drawModel is the benchmarks' client: 120×36, two panes side by side,
// each screen 45×33 with a prompt, drawn once.
func drawModel() *model {
	m := newModel(&link{}, defaultKeymap(), false)
	m.term = &fakeTerm{}
	m.width, m.height = 120, 36
	m.snap, m.haveSnap = twoPanes(), true
	m.snap.Layouts[0].Area = protocol.Rect{X: 26, Y: 1, Width: 94, Height: 35}
	m.snap.Layouts[0].Panes[0].Rect = protocol.Rect{X: 0, Y: 0, Width: 47, Height: 35}
	m.snap.Layouts[0].Panes[1].Rect = protocol.Rect{X: 47, Y: 0, Width: 47, Height: 35}
	for _, id := range []string{"w1:p1", "w1:p2"} {
		m.screens[id] = &paneScreen{}
		m.screens[id].apply(&protocol.ScreenFrame{Cols: 45, Rows: 33, Full: true, Cursor: protocol.ScreenCursor{X: 2, Y: 1, Visible: true}, Lines: []protocol.ScreenLine{
			{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: 4, Text: "$ ab"}}},
		}})
	}
	m.draw()
	return m
}

// TestDrawRows_SameAsWholeDraw feeds frames through Update as the screen
// stream does and checks that a frame changing rows is drawn by those rows
// alone (the canvas kept is not swapped for a new one), that the canvas
// kept is the whole draw's cell for cell, and that the bytes written are
// the whole draw's byte for byte; frames that change more, or come while
// something is drawn over the panes, are drawn whole.
func TestDrawRows_SameAsWholeDraw(t *testing.T) {
	m := drawModel()
	term := m.term.(*fakeTerm)
	var whole screenWriter
	whole.frame(m.canvas(nil), m.hostCursor(), nil, nil)
	red := &protocol.ScreenStyle{Fg: "1", Attrs: 1}
	row := func(y int, runs ...protocol.ScreenRun) protocol.ScreenLine {
		return protocol.ScreenLine{Y: y, Runs: runs}
	}
	steps := []struct {
		name  string
		f     protocol.ScreenFrame
		setup func()
		rows  bool // drawn by its rows
	}{
		{"echo", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: 5, Y: 1, Visible: true},
			Lines: []protocol.ScreenLine{row(1, protocol.ScreenRun{W: 5, Text: "$ abc"})}}, nil, true},
		{"wide and styled", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: 0, Y: 3, Visible: true},
			Lines: []protocol.ScreenLine{row(2, protocol.ScreenRun{X: 1, W: 4, Text: "日本", Style: red}, protocol.ScreenRun{X: 40, W: 5, Text: "edge!"}), row(3)}}, nil, true},
		{"shorter row", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: 1, Y: 2, Visible: true},
			Lines: []protocol.ScreenLine{row(2, protocol.ScreenRun{W: 1, Text: "x"})}}, nil, true},
		{"the other pane", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: 9, Y: 9, Visible: true},
			Lines: []protocol.ScreenLine{row(32, protocol.ScreenRun{W: 6, Text: "bottom"}), row(0, protocol.ScreenRun{X: 44, W: 1, Text: "r"})}}, nil, true},
		{"a pane not drawn", protocol.ScreenFrame{PaneID: "w9:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(1, protocol.ScreenRun{W: 1, Text: "z"})}},
			func() { m.screens["w9:p1"] = &paneScreen{cols: 45, rows: 33, lines: make([][]protocol.ScreenRun, 33)} }, true},
		{"hidden cursor", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33}, nil, true},
		{"scrolled back", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, ViewOffset: 3, History: 10,
			Lines: []protocol.ScreenLine{row(0, protocol.ScreenRun{W: 3, Text: "old"})}}, nil, false},
		{"whole screen", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Full: true, ViewOffset: 3, History: 10,
			Lines: []protocol.ScreenLine{row(5, protocol.ScreenRun{W: 3, Text: "new"})}}, nil, false},
		{"resized", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 44, Rows: 33, ViewOffset: 3, History: 10}, nil, false},
		{"a toast over the bar", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(4, protocol.ScreenRun{W: 2, Text: "hi"})}},
			func() { m.toast.text = "saved" }, false},
		{"help over the panes", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(5, protocol.ScreenRun{W: 2, Text: "ho"})}},
			func() { m.toast.text, m.mode = "", modeHelp }, false},
		{"back to the panes", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(6, protocol.ScreenRun{W: 2, Text: "hu"})}},
			func() { // the key that closes help, then its drain, which draws it all
				m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
				if m.mode != modeTerminal {
					t.Fatalf("mode %v after esc in help", m.mode)
				}
				m.Update(drainMsg{})
				whole.frame(m.canvas(nil), m.hostCursor(), nil, nil)
			}, true},
		{"a burst, then its drain", protocol.ScreenFrame{}, func() {
			for _, f := range []protocol.ScreenFrame{
				{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(7, protocol.ScreenRun{W: 4, Text: "left"}), row(8, protocol.ScreenRun{W: 1, Text: "l"})}},
				{PaneID: "w1:p2", Cols: 44, Rows: 33, ViewOffset: 3, History: 10, Cursor: protocol.ScreenCursor{X: 1, Y: 8, Visible: true}, Lines: []protocol.ScreenLine{row(7, protocol.ScreenRun{X: 2, W: 5, Text: "right"})}},
				{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(8, protocol.ScreenRun{W: 3, Text: "l2", Style: red}), row(40)}},
			} {
				m.Update(frameMsg{f: &f})
			}
			if !m.drainQueued {
				t.Fatal("a frame with more behind it asked for no drain")
			}
		}, true},
		{"behind a zoomed pane", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(-1), row(2, protocol.ScreenRun{W: 6, Text: "hidden"})}},
			func() {
				m.snap.Layouts[0].Zoomed = true
				m.rows.all() // as the snapshot that zoomed it
				m.Update(drainMsg{})
				whole.frame(m.canvas(nil), m.hostCursor(), nil, nil)
			}, true},
		{"the zoomed pane", protocol.ScreenFrame{PaneID: "w1:p2", Cols: 44, Rows: 33, ViewOffset: 3, History: 10,
			Lines: []protocol.ScreenLine{row(32, protocol.ScreenRun{X: 30, W: 13, Text: "zoomed bottom"})}}, nil, true},
		{"unzoomed", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Lines: []protocol.ScreenLine{row(6, protocol.ScreenRun{W: 2, Text: "hu"})}},
			func() {
				m.snap.Layouts[0].Zoomed = false
				m.rows.all()
				m.Update(drainMsg{})
				whole.frame(m.canvas(nil), m.hostCursor(), nil, nil)
			}, true},
		{"echo again", protocol.ScreenFrame{PaneID: "w1:p1", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: 3, Y: 6, Visible: true},
			Lines: []protocol.ScreenLine{row(6, protocol.ScreenRun{W: 3, Text: "hum"})}}, nil, true},
	}
	for _, st := range steps {
		if st.setup != nil {
			st.setup()
		}
		term.drawn = nil
		kept := m.sw.prev
		if f := st.f; f.PaneID != "" {
			m.Update(frameMsg{f: &f, last: true})
		} else {
			m.Update(drainMsg{})
		}
		if rows := m.sw.prev == kept; rows != st.rows {
			t.Errorf("%s: drawn by its rows = %v, want %v", st.name, rows, st.rows)
		}
		want := m.canvas(nil)
		for i := range want.cells {
			if !sameCell(&want.cells[i], &m.sw.prev.cells[i]) {
				t.Fatalf("%s: cell (%d, %d) is %+v, the whole draw's %+v", st.name, i%want.w, i/want.w, m.sw.prev.cells[i], want.cells[i])
			}
		}
		if wb := whole.frame(want, m.hostCursor(), nil, nil); !bytes.Equal(term.drawn, wb) {
			t.Fatalf("%s: wrote %q, the whole draw %q", st.name, term.drawn, wb)
		}
	}
}

// BenchmarkDrawEcho is the client's work for a keystroke's echo as it
// comes: a frame changing one row of the focused pane, through Update to
// the bytes written.
func BenchmarkDrawEcho(b *testing.B) {
	m := drawModel()
	text := "$ "
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		text += "a"
		if len(text) > 40 {
			text = "$ "
		}
		m.Update(frameMsg{last: true, f: &protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: len(text), Y: 1, Visible: true}, Lines: []protocol.ScreenLine{
			{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: len(text), Text: text}}},
		}}})
	}
}

// BenchmarkDrawScroll is a pane scrolling under output: a frame changing
// every row of the focused pane, drawn by its drain.
func BenchmarkDrawScroll(b *testing.B) {
	m := drawModel()
	lines := make([]protocol.ScreenLine, 33)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for y := range lines {
			lines[y] = protocol.ScreenLine{Y: y, Runs: []protocol.ScreenRun{{W: 12, Text: "line " + strconv.Itoa(i+y)}}}
		}
		m.Update(frameMsg{f: &protocol.ScreenFrame{PaneID: "w1:p2", Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{Y: 32, Visible: true}, Lines: lines}})
		m.Update(drainMsg{})
	}
}
