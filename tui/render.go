package tui

import (
	"bytes"
	"strconv"
	"unsafe"
)

// The client draws the outer terminal itself instead of through Bubble
// Tea's renderer, which repaints on a fixed-rate ticker (wakeups while
// nothing changes), measures text by its own width rule (so a cluster it
// thinks narrower than the emulator did pushes or crops a line) and cannot
// place the host cursor. Here a frame is drawn only after a message changed
// something, only the cells that differ from the last frame are written,
// and the terminal's cursor is put where the focused pane's cursor is.

// hostCursor is where the outer terminal's cursor goes after a frame.
type hostCursor struct {
	x, y    int
	visible bool
	shape   int // DECSCUSR parameter; 0 is the terminal's default
}

// screenWriter keeps what the outer terminal shows and turns a new canvas
// into the bytes that change it.
type screenWriter struct {
	prev   *canvas // nil: the terminal's content is unknown (redraw all)
	cursor hostCursor
	shape  int // the DECSCUSR shape last set
	buf    bytes.Buffer
}

// gap is how many unchanged cells a changed span may bridge before the
// writer moves the cursor instead of rewriting them.
const gap = 6

// frame returns the bytes that make the terminal show c with the cursor at
// cur, or nil when nothing changed. extra (OSC 52, BEL, title) is written
// inside the same frame, and over after it: bytes that move the cursor
// (kitty graphics placements over the cells, graphics.go). The writer
// keeps c (the caller must not change it until the next frame); the bytes
// are valid until then too.
func (w *screenWriter) frame(c *canvas, cur hostCursor, extra, over []byte) []byte {
	b := &w.buf
	b.Reset()
	full := w.prev == nil || w.prev.w != c.w || w.prev.h != c.h
	b.WriteString("\x1b[?2026h")
	start := b.Len()
	hidden := false
	hide := func() {
		if !hidden && w.cursor.visible {
			b.WriteString("\x1b[?25l")
			w.cursor.visible = false
		}
		hidden = true
	}
	if full {
		hide()
		b.WriteString("\x1b[0m\x1b[H\x1b[2J")
	}
	cur0 := cellStyle{}
	styled := false
	for y := 0; y < c.h; y++ {
		row := c.cells[y*c.w : (y+1)*c.w]
		var old []cell
		if !full {
			old = w.prev.cells[y*c.w : (y+1)*c.w]
		}
		x := 0
		for x < c.w {
			if !full && sameCell(&row[x], &old[x]) {
				x++
				continue
			}
			// A changed span starts here (at the first half of a wide cell).
			if row[x].s == "" && x > 0 {
				x--
			}
			hide()
			moveTo(b, x, y)
			same := 0
			for x < c.w && same <= gap {
				if !full && sameCell(&row[x], &old[x]) {
					same++
				} else {
					same = 0
				}
				cl := row[x]
				if cl.s == "" { // second half of a wide cell: written with it
					x++
					continue
				}
				if !styled || cl.st != cur0 {
					b.WriteString(sgr(cl.st))
					cur0, styled = cl.st, true
				}
				wide := x+1 < c.w && row[x+1].s == ""
				if len(cl.s) > 1 && (wide || !isSingleRune(cl.s)) {
					// A cluster the outer terminal may measure differently:
					// blank its cells first, then put the cursor back where
					// the grid says the next cell is, whatever it did.
					n := 1
					if wide {
						n = 2
					}
					b.WriteString("  "[:n])
					moveTo(b, x, y)
					b.WriteString(cl.s)
					moveTo(b, x+n, y)
				} else {
					b.WriteString(cl.s)
				}
				x++
			}
		}
	}
	if styled {
		b.WriteString("\x1b[0m")
	}
	b.Write(extra)
	if len(over) > 0 {
		hide()
		b.Write(over)
	}
	if cur.visible {
		if cur.shape != w.shape {
			b.WriteString("\x1b[" + strconv.Itoa(cur.shape) + " q")
			w.shape = cur.shape
		}
		if hidden || !w.cursor.visible || cur.x != w.cursor.x || cur.y != w.cursor.y {
			moveTo(b, cur.x, cur.y)
		}
		if !w.cursor.visible {
			b.WriteString("\x1b[?25h")
		}
	} else if w.cursor.visible {
		b.WriteString("\x1b[?25l")
	}
	w.cursor = hostCursor{x: cur.x, y: cur.y, visible: cur.visible}
	w.prev = c
	if b.Len() == start {
		return nil
	}
	b.WriteString("\x1b[?2026l")
	return b.Bytes()
}

// sameCell is row[x] == old[x] for the diff, which compares every cell of
// every frame: the text of most cells is the same string (a blank, a
// border), so equal pointers settle it without a call to compare bytes.
func sameCell(a, b *cell) bool {
	if a.st != b.st || len(a.s) != len(b.s) {
		return false
	}
	return unsafe.StringData(a.s) == unsafe.StringData(b.s) || a.s == b.s
}

// isSingleRune reports whether s is one UTF-8 encoded rune.
func isSingleRune(s string) bool {
	for i := range s {
		if i > 0 {
			return false
		}
	}
	return true
}

// moveTo writes a cursor position (CUP) for 0-based (x, y).
func moveTo(b *bytes.Buffer, x, y int) {
	b.WriteString("\x1b[")
	b.WriteString(strconv.Itoa(y + 1))
	b.WriteByte(';')
	b.WriteString(strconv.Itoa(x + 1))
	b.WriteByte('H')
}
