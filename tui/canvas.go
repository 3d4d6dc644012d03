package tui

import (
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
)

// cellStyle is a cell's rendition: colours as on the wire ("" default,
// "0"–"255" palette, "#rrggbb") and protocol.Screen* attribute bits.
type cellStyle struct {
	fg, bg string
	attrs  int
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

// combine attaches a zero-width mark to the cell at (x, y).
func (c *canvas) combine(x, y int, r rune) {
	if c.in(x, y) && c.cells[y*c.w+x].s != "" {
		c.cells[y*c.w+x].s += string(r)
	}
}

// text writes s from (x, y), at most maxW columns; it returns the columns used.
func (c *canvas) text(x, y int, s string, maxW int, st cellStyle) int {
	col := 0
	for _, r := range s {
		cw := runewidth.RuneWidth(r)
		if cw == 0 {
			c.combine(x+col-1, y, r)
			continue
		}
		if col+cw > maxW {
			break
		}
		c.set(x+col, y, string(r), cw, st)
		col += cw
	}
	return col
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
		if st.attrs&a.bit != 0 {
			b = append(b, ';')
			b = append(b, a.code...)
		}
	}
	b = appendColor(b, st.fg, "38")
	b = appendColor(b, st.bg, "48")
	return string(append(b, 'm'))
}

func appendColor(b []byte, c, kind string) []byte {
	switch {
	case c == "":
		return b
	case c[0] == '#' && len(c) == 7:
		v, err := strconv.ParseUint(c[1:], 16, 32)
		if err != nil {
			return b
		}
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";2;"...)
		b = strconv.AppendUint(b, v>>16&0xff, 10)
		b = append(b, ';')
		b = strconv.AppendUint(b, v>>8&0xff, 10)
		b = append(b, ';')
		return strconv.AppendUint(b, v&0xff, 10)
	default:
		if _, err := strconv.Atoi(c); err != nil {
			return b
		}
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";5;"...)
		return append(b, c...)
	}
}
