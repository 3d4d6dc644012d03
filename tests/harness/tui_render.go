package harness

import (
	"github.com/herdr-go/herdr/emulator"
)

// Cursor is where the client left its terminal's cursor.
func (c *TUI) Cursor() emulator.CursorSnapshot {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Term.CursorState()
}

// CellsTo is the number of columns s takes up to byte offset i, measured
// as the emulator measures.
func CellsTo(s string, i int) int {
	col, rest := 0, s[:i]
	for rest != "" {
		var w int
		_, rest, w = emulator.NextCell(rest)
		col += w
	}
	return col
}
