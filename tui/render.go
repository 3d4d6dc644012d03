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
	row    canvas // frameRows' row being redrawn
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
	f := frameWrite{w: w}
	if full {
		f.hide()
		b.WriteString("\x1b[0m\x1b[H\x1b[2J")
	}
	for y := 0; y < c.h; y++ {
		var old []cell
		if !full {
			old = w.prev.cells[y*c.w : (y+1)*c.w]
		}
		f.row(c.cells[y*c.w:(y+1)*c.w], old, y)
	}
	w.prev = c
	return f.end(start, cur, extra, over)
}

// end finishes a frame begun at start in the writer's buffer: the style
// reset, extra, over and the cursor; nil when nothing was written.
func (f *frameWrite) end(start int, cur hostCursor, extra, over []byte) []byte {
	b := &f.w.buf
	if f.styled {
		b.WriteString("\x1b[0m")
	}
	b.Write(extra)
	if len(over) > 0 {
		f.hide()
		b.Write(over)
	}
	f.w.placeCursor(cur, f.hidden)
	if b.Len() == start {
		return nil
	}
	b.WriteString("\x1b[?2026l")
	return b.Bytes()
}

// frameWrite is one frame being written: whether the cursor is hidden
// yet and the style last set.
type frameWrite struct {
	w      *screenWriter
	hidden bool
	styled bool
	st     cellStyle
}

// hide hides the terminal's cursor while the frame moves it.
func (f *frameWrite) hide() {
	if !f.hidden && f.w.cursor.visible {
		f.w.buf.WriteString("\x1b[?25l")
		f.w.cursor.visible = false
	}
	f.hidden = true
}

// row writes the spans of row y that differ from old (nil: all of it).
func (f *frameWrite) row(row, old []cell, y int) {
	full := old == nil
	x := 0
	for x < len(row) {
		if !full && sameCell(&row[x], &old[x]) {
			x++
			continue
		}
		// A changed span starts here (at the first half of a wide cell).
		if row[x].s == "" && x > 0 {
			x--
		}
		f.hide()
		moveTo(&f.w.buf, x, y)
		same := 0
		for x < len(row) && same <= gap {
			if !full && sameCell(&row[x], &old[x]) {
				same++
			} else {
				same = 0
			}
			if row[x].s != "" { // the second half of a wide cell is written with it
				f.cell(row, x, y)
			}
			x++
		}
	}
}

// cell writes row[x], its style first when it differs.
func (f *frameWrite) cell(row []cell, x, y int) {
	b := &f.w.buf
	cl := &row[x]
	if !f.styled || cl.st != f.st {
		b.WriteString(sgr(cl.st))
		f.st, f.styled = cl.st, true
	}
	wide := x+1 < len(row) && row[x+1].s == ""
	if len(cl.s) <= 1 || !wide && isSingleRune(cl.s) {
		b.WriteString(cl.s)
		return
	}
	// A cluster the outer terminal may measure differently: blank its
	// cells first, then put the cursor back where the grid says the next
	// cell is, whatever it did.
	n := 1
	if wide {
		n = 2
	}
	b.WriteString("  "[:n])
	moveTo(b, x, y)
	b.WriteString(cl.s)
	moveTo(b, x+n, y)
}

// placeCursor puts the terminal's cursor where cur says, in its shape;
// moved: the frame moved it.
func (w *screenWriter) placeCursor(cur hostCursor, moved bool) {
	b := &w.buf
	if cur.visible {
		if cur.shape != w.shape {
			b.WriteString("\x1b[" + strconv.Itoa(cur.shape) + " q")
			w.shape = cur.shape
		}
		if moved || !w.cursor.visible || cur.x != w.cursor.x || cur.y != w.cursor.y {
			moveTo(b, cur.x, cur.y)
		}
		if !w.cursor.visible {
			b.WriteString("\x1b[?25h")
		}
	} else if w.cursor.visible {
		b.WriteString("\x1b[?25l")
	}
	w.cursor = hostCursor{x: cur.x, y: cur.y, visible: cur.visible}
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
