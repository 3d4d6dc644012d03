package cli

import (
	"sort"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// canvas turns screen.frame rows into the ANSI bytes of a terminal.frame:
// a Width × Height view of the pane's screen from its top-left corner
// (cropped, or padded with blank cells). It keeps the rows it was sent so
// that a new canvas size can be repainted in full.
type canvas struct {
	width, height int
	rows          map[int]protocol.ScreenLine
	cursor        protocol.ScreenCursor
}

func newCanvas(width, height int) *canvas {
	return &canvas{width: width, height: height, rows: map[int]protocol.ScreenLine{}}
}

// apply takes a screen frame and returns the bytes that bring a terminal
// showing the previous state up to date, and whether they repaint it all.
func (cv *canvas) apply(f *protocol.ScreenFrame) ([]byte, bool) {
	if f.Full {
		cv.rows = map[int]protocol.ScreenLine{}
	}
	for _, l := range f.Lines {
		if l.Y >= f.Rows {
			continue
		}
		cv.rows[l.Y] = l
	}
	for y := range cv.rows {
		if y >= f.Rows { // the pane got shorter
			delete(cv.rows, y)
		}
	}
	cv.cursor = f.Cursor
	if f.Full {
		return cv.repaint(), true
	}
	var b strings.Builder
	for _, l := range f.Lines {
		cv.row(&b, l)
	}
	cv.finish(&b)
	return []byte(b.String()), false
}

// resize changes the view's size and returns a full repaint.
func (cv *canvas) resize(width, height int) []byte {
	cv.width, cv.height = width, height
	return cv.repaint()
}

func (cv *canvas) repaint() []byte {
	var b strings.Builder
	b.WriteString("\x1b[0m\x1b[H\x1b[2J")
	ys := make([]int, 0, len(cv.rows))
	for y := range cv.rows {
		ys = append(ys, y)
	}
	sort.Ints(ys)
	for _, y := range ys {
		cv.row(&b, cv.rows[y])
	}
	cv.finish(&b)
	return []byte(b.String())
}

// row clears one row and draws its runs, cut at the view's right edge.
func (cv *canvas) row(b *strings.Builder, l protocol.ScreenLine) {
	if l.Y >= cv.height {
		return
	}
	b.WriteString("\x1b[" + strconv.Itoa(l.Y+1) + ";1H\x1b[0m\x1b[2K")
	for _, r := range l.Runs {
		if r.X >= cv.width {
			break
		}
		text := r.Text
		if r.X+r.W > cv.width {
			text = cutColumns(text, r.W, cv.width-r.X)
		}
		b.WriteString("\x1b[" + strconv.Itoa(l.Y+1) + ";" + strconv.Itoa(r.X+1) + "H")
		b.WriteString(sgr(r.Style))
		b.WriteString(text)
		b.WriteString("\x1b[0m")
	}
}

// finish places the cursor, hidden when the program hid it or it is
// outside the view.
func (cv *canvas) finish(b *strings.Builder) {
	c := cv.cursor
	if !c.Visible || c.X >= cv.width || c.Y >= cv.height {
		b.WriteString("\x1b[?25l")
		return
	}
	b.WriteString("\x1b[" + strconv.Itoa(c.Y+1) + ";" + strconv.Itoa(c.X+1) + "H\x1b[?25h")
}

// cutColumns keeps the first cols columns of a run that covers width
// columns; a run's cells are all one width (wide runs are 2 per rune).
func cutColumns(text string, width, cols int) string {
	runes := []rune(text)
	if len(runes) == 0 || cols <= 0 {
		return ""
	}
	per := width / len(runes)
	if per < 1 {
		per = 1
	}
	n := cols / per
	if n > len(runes) {
		n = len(runes)
	}
	return string(runes[:n])
}

// sgr is the select-graphic-rendition sequence of a run's style.
func sgr(s *protocol.ScreenStyle) string {
	if s == nil {
		return ""
	}
	var p []string
	for bit, code := range map[int]string{protocol.ScreenBold: "1", protocol.ScreenDim: "2", protocol.ScreenItalic: "3", protocol.ScreenUnderline: "4", protocol.ScreenBlink: "5", protocol.ScreenInverse: "7", protocol.ScreenHidden: "8", protocol.ScreenStrike: "9"} {
		if s.Attrs&bit != 0 {
			p = append(p, code)
		}
	}
	sort.Strings(p) // map order is random; the bytes should not be
	if s.Under > 1 && s.Attrs&protocol.ScreenUnderline != 0 {
		p = append(p, "4:"+strconv.Itoa(s.Under))
	}
	p = append(p, color(s.Fg, "3", "9", "38")...)
	p = append(p, color(s.Bg, "4", "10", "48")...)
	if s.UnderColor != "" {
		p = append(p, color(s.UnderColor, "", "", "58")...)
	}
	if len(p) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(p, ";") + "m"
}

// color renders "" / "0"–"255" / "#rrggbb" as SGR parameters.
func color(c, base, bright, ext string) []string {
	if c == "" {
		return nil
	}
	if strings.HasPrefix(c, "#") && len(c) == 7 {
		r, err1 := strconv.ParseUint(c[1:3], 16, 8)
		g, err2 := strconv.ParseUint(c[3:5], 16, 8)
		bl, err3 := strconv.ParseUint(c[5:7], 16, 8)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil
		}
		return []string{ext, "2", strconv.FormatUint(r, 10), strconv.FormatUint(g, 10), strconv.FormatUint(bl, 10)}
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 || n > 255 {
		return nil
	}
	switch {
	case n < 8 && base != "":
		return []string{base + strconv.Itoa(n)}
	case n < 16 && bright != "":
		return []string{bright + strconv.Itoa(n-8)}
	}
	return []string{ext, "5", strconv.Itoa(n)}
}
