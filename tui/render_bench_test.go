package tui

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkDrawKey is the client's work for a keystroke's echo at the
// tests' terminal size (120×36, two panes): the pane's row changes, and
// the whole canvas is drawn and diffed against the last frame.
func BenchmarkDrawKey(b *testing.B) {
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
	text := "$ "
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		text += "a"
		if len(text) > 40 {
			text = "$ "
		}
		m.screens["w1:p2"].apply(&protocol.ScreenFrame{Cols: 45, Rows: 33, Cursor: protocol.ScreenCursor{X: len(text), Y: 1, Visible: true}, Lines: []protocol.ScreenLine{
			{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: len(text), Text: text}}},
		}})
		m.draw()
	}
}
