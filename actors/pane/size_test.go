package pane

import (
	"testing"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// TestResize_ClampedToTheLargestTerminal: whatever size reaches a pane
// (a tab's arrangement, a popup's), its terminal is at most
// protocol.MaxTerminalCols × MaxTerminalRows.
func TestResize_ClampedToTheLargestTerminal(t *testing.T) {
	p := &Pane{term: emulator.New(80, 24, emulator.Options{})}
	if !p.resize(&Resize{Cols: 4096, Rows: 4096, Rev: 1}) {
		t.Fatal("a larger size changed nothing")
	}
	if cols, rows := p.term.Size(); cols != protocol.MaxTerminalCols || rows != protocol.MaxTerminalRows {
		t.Fatalf("size %d×%d, want %d×%d", cols, rows, protocol.MaxTerminalCols, protocol.MaxTerminalRows)
	}
	if p.resize(&Resize{Cols: 5000, Rows: 600, Rev: 2}) {
		t.Error("a size clamped to the current one resized again")
	}
}
