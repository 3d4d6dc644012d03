package tui

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// canvasText is the canvas as the lines of text it shows.
func canvasText(c *canvas) []string {
	var out []string
	for y := 0; y < c.h; y++ {
		var b strings.Builder
		for _, cl := range c.cells[y*c.w : (y+1)*c.w] {
			b.WriteString(cl.s)
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// termLines is what a terminal fed the writer's bytes shows.
func termLines(t *emulator.Terminal) []string {
	text := t.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}

// Frames written one after another leave a terminal showing exactly the
// last canvas, whatever changed between them (wide characters, clusters,
// styles), and the cursor where it was asked.
func TestRender_FramesReproduceTheCanvas(t *testing.T) {
	const w, h = 30, 8
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "b", " ", "漢", "👍🏽", "⚠️", "🇫🇷", "e\u0301", "1️⃣", "👨‍👩‍👧", "─", "│"}
	term := emulator.New(w, h, emulator.Options{})
	term.Write([]byte(enterModes))
	var sw screenWriter
	for frame := 0; frame < 200; frame++ {
		c := newCanvas(w, h)
		if frame > 0 {
			// Change a few rows of the last frame only, so diffs are partial.
			copy(c.cells, sw.prev.cells)
		}
		for n := rng.Intn(4); n >= 0; n-- {
			y := rng.Intn(h)
			x := rng.Intn(w)
			var s strings.Builder
			for k := rng.Intn(8); k >= 0; k-- {
				s.WriteString(pieces[rng.Intn(len(pieces))])
			}
			c.text(x, y, s.String(), w-x, cellStyle{fg: pal(uint8(rng.Intn(3))), attrs: rng.Intn(2)})
		}
		cur := hostCursor{x: rng.Intn(w), y: rng.Intn(h), visible: rng.Intn(2) == 0}
		want := canvasText(c)
		term.Write(sw.frame(c, cur, nil, nil))
		got := termLines(term)
		for y := range want {
			if y >= len(got) || got[y] != want[y] {
				t.Fatalf("frame %d row %d: terminal shows %q, canvas %q", frame, y, got[min(y, len(got)-1)], want[y])
			}
		}
		if cs := term.CursorState(); cs.Visible != cur.visible || cur.visible && (cs.Col != cur.x || cs.Row != cur.y) {
			t.Fatalf("frame %d: cursor %+v, want %+v", frame, cs, cur)
		}
	}
	// Nothing changed: nothing is written.
	c := newCanvas(w, h)
	copy(c.cells, sw.prev.cells)
	if b := sw.frame(c, sw.cursor, nil, nil); b != nil {
		t.Fatalf("an unchanged frame wrote %q", b)
	}
}

// Emoji clusters in a pane take the columns the pane's emulator gave them,
// so the frame's right border stays in its column on every row.
func TestRender_EmojiKeepTheBorder(t *testing.T) {
	lines := []string{"👍🏽 skin", "1️⃣ keycap", "👨‍👩‍👧‍👦 family", "🇫🇷 flag", "⚠️ warn ℹ️ info", "e\u0301 combining", "漢字 wide"}
	pane := emulator.New(28, 18, emulator.Options{})
	pane.Write([]byte(strings.Join(lines, "\r\n")))
	f := &protocol.ScreenFrame{PaneID: "w1:p2", Cols: 28, Rows: 18, Full: true}
	for y, row := range pane.Rows(nil) {
		l := protocol.ScreenLine{Y: y}
		for _, r := range row.Runs {
			l.Runs = append(l.Runs, protocol.ScreenRun{X: r.Col, W: r.Width, Text: r.Text})
		}
		f.Lines = append(f.Lines, l)
	}
	m, _ := viewModel(t)
	m.screens["w1:p2"].apply(f)
	outer := emulator.New(m.width, m.height, emulator.Options{})
	var sw screenWriter
	outer.Write(sw.frame(m.canvas(nil), hostCursor{}, nil, nil))
	got := termLines(outer)
	for i, want := range lines {
		row := []rune(got[2+i])
		// The pane's inside starts at column 55; its right border is at 83.
		col := 0
		var b strings.Builder
		rest := string(row)
		for rest != "" && col < 83 {
			var cl string
			var w int
			cl, rest, w = emulator.NextCell(rest)
			if col >= 55 {
				b.WriteString(cl)
			}
			col += w
		}
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("row %d inside the pane = %q, want %q first", i, b.String(), want)
		}
		if !strings.HasPrefix(rest, "│") || col != 83 {
			t.Errorf("row %d: the right border is not at column 83: %q", i, got[2+i])
		}
	}
}
