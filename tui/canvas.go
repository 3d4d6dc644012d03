package tui

import (
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/emulator"
)

// cellStyle is a cell's rendition: two colours and protocol.Screen*
// attribute bits. It is compared for every cell of every frame, so it
// holds no strings.
type cellStyle struct {
	fg, bg color
	attrs  int
	under  uint8 // underline style (SGR 4:N), 0 for plain or none
	ul     color // underline colour (SGR 58)
}

// color is a colour: 0 is the terminal's default, colorPalette|i a palette
// index, colorRGB|0xrrggbb a true colour.
type color uint32

const (
	colorPalette color = 1 << 24
	colorRGB     color = 2 << 24
)

// pal is palette colour i.
func pal(i uint8) color { return colorPalette | color(i) }

// parseColor reads a wire colour ("" default, "0"–"255", "#rrggbb");
// anything else is the default.
func parseColor(s string) color {
	switch {
	case s == "":
		return 0
	case s[0] == '#' && len(s) == 7:
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err != nil {
			return 0
		}
		return colorRGB | color(v)
	default:
		v, err := strconv.ParseUint(s, 10, 8)
		if err != nil {
			return 0
		}
		return pal(uint8(v))
	}
}

// cell is one screen cell; s == "" marks the second half of a wide character.
type cell struct {
	s  string
	st cellStyle
}

// canvas is the frame the view draws into before it is serialised.
type canvas struct {
	w, h  int
	cells []cell
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: max(w, 0), h: max(h, 0)}
	c.cells = make([]cell, c.w*c.h)
	for i := range c.cells {
		c.cells[i].s = " "
	}
	return c
}

// reset blanks c for a w×h frame, or returns a new canvas when c is nil or
// of another size.
func (c *canvas) reset(w, h int) *canvas {
	if c == nil || c.w != w || c.h != h {
		return newCanvas(w, h)
	}
	// Blank the first row, then copy it: a bulk move, not a store per cell.
	row := c.cells[:w]
	for i := range row {
		row[i] = cell{s: " "}
	}
	for i := w; i < len(c.cells); i += w {
		copy(c.cells[i:i+w], row)
	}
	return c
}

func (c *canvas) in(x, y int) bool { return x >= 0 && y >= 0 && x < c.w && y < c.h }

// set writes a character of width cw (1 or 2) at (x, y).
func (c *canvas) set(x, y int, s string, cw int, st cellStyle) {
	if !c.in(x, y) {
		return
	}
	if cw == 2 && !c.in(x+1, y) {
		s, cw = " ", 1
	}
	i := y*c.w + x
	if c.cells[i].s == "" && x > 0 {
		c.cells[i-1] = cell{s: " ", st: c.cells[i-1].st} // broke a wide char
	}
	c.cells[i] = cell{s: s, st: st}
	if cw == 2 {
		c.cells[i+1] = cell{s: "", st: st}
		if x+2 < c.w && c.cells[i+2].s == "" {
			c.cells[i+2].s = " "
		}
	} else if x+1 < c.w && c.cells[i+1].s == "" {
		c.cells[i+1].s = " "
	}
}

// text writes s from (x, y), at most maxW columns; it returns the columns
// used. Text is split into cells and measured by the emulator's rule
// (emulator.NextCell), so what a pane's terminal put in one cell takes one
// cell here, of the same width.
func (c *canvas) text(x, y int, s string, maxW int, st cellStyle) int {
	col := 0
	for s != "" {
		var cl string
		var cw int
		cl, s, cw = emulator.NextCell(s)
		if col+cw > maxW {
			break
		}
		c.set(x+col, y, cl, cw, st)
		col += cw
	}
	return col
}

// textWidth is the number of columns text takes on the canvas.
func textWidth(s string) int {
	n := 0
	for s != "" {
		var w int
		_, s, w = emulator.NextCell(s)
		n += w
	}
	return n
}

// fill paints a rectangle with one character.
func (c *canvas) fill(x, y, w, h int, s string, st cellStyle) {
	for j := y; j < y+h; j++ {
		for i := x; i < x+w; i++ {
			c.set(i, j, s, 1, st)
		}
	}
}

// restyle changes the style of a cell, keeping its character.
func (c *canvas) restyle(x, y int, f func(cellStyle) cellStyle) {
	if c.in(x, y) {
		i := y*c.w + x
		c.cells[i].st = f(c.cells[i].st)
	}
}

// String serialises the canvas as lines with SGR sequences, written only
// where the style changes.
func (c *canvas) String() string {
	var b strings.Builder
	b.Grow(c.w * c.h * 2)
	for y := 0; y < c.h; y++ {
		cur := cellStyle{}
		for _, cl := range c.cells[y*c.w : (y+1)*c.w] {
			if cl.st != cur {
				b.WriteString(sgr(cl.st))
				cur = cl.st
			}
			b.WriteString(cl.s)
		}
		if cur != (cellStyle{}) {
			b.WriteString("\x1b[0m")
		}
		if y+1 < c.h {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// sgr is the sequence that sets exactly st.
func sgr(st cellStyle) string {
	b := []byte("\x1b[0")
	codes := [...]struct {
		bit  int
		code string
	}{{1, "1"}, {2, "2"}, {4, "3"}, {8, "4"}, {16, "5"}, {32, "7"}, {64, "8"}, {128, "9"}}
	for _, a := range codes {
		if st.attrs&a.bit != 0 && !(a.bit == 8 && st.under > 1) {
			b = append(b, ';')
			b = append(b, a.code...)
		}
	}
	if st.under > 1 { // double, curly, dotted, dashed
		b = append(b, ";4:"...)
		b = strconv.AppendUint(b, uint64(st.under), 10)
	}
	b = appendColor(b, st.fg, "38")
	b = appendColor(b, st.bg, "48")
	b = appendColor(b, st.ul, "58")
	return string(append(b, 'm'))
}

func appendColor(b []byte, c color, kind string) []byte {
	switch c &^ 0xffffff {
	case colorRGB:
		v := uint64(c & 0xffffff)
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";2;"...)
		b = strconv.AppendUint(b, v>>16&0xff, 10)
		b = append(b, ';')
		b = strconv.AppendUint(b, v>>8&0xff, 10)
		b = append(b, ';')
		return strconv.AppendUint(b, v&0xff, 10)
	case colorPalette:
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";5;"...)
		return strconv.AppendUint(b, uint64(c&0xff), 10)
	}
	return b
}
