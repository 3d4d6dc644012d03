package emulator

import (
	"reflect"
	"strings"
	"testing"
)

// viewText renders Rows as plain strings, runs placed at their columns and
// trailing blanks dropped.
func viewText(term *Terminal) []string {
	var out []string
	for _, r := range term.Rows(nil) {
		var b []rune
		for _, run := range r.Runs {
			for len(b) < run.Col {
				b = append(b, ' ')
			}
			b = append(b, []rune(run.Text)...)
		}
		out = append(out, strings.TrimRight(string(b), " "))
	}
	return out
}

func wantRows(t *testing.T, term *Terminal, want ...string) {
	t.Helper()
	if got := viewText(term); !reflect.DeepEqual(got, want) {
		t.Fatalf("rows = %q, want %q", got, want)
	}
}

func wantOffset(t *testing.T, term *Terminal, want int) {
	t.Helper()
	if got := term.ViewOffset(); got != want {
		t.Fatalf("ViewOffset = %d, want %d", got, want)
	}
	off, _, _ := term.ScrollInfo()
	if off != uint64(want) {
		t.Fatalf("ScrollInfo offset = %d, want %d", off, want)
	}
}

// numbered returns a 10×3 terminal that printed lines 1..8: 1–5 are in
// scrollback, 6–8 on screen.
func numbered(t *testing.T) *Terminal {
	t.Helper()
	term := New(10, 3, Options{})
	term.WriteString("1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8")
	if term.ScrollbackLines() != 5 {
		t.Fatalf("scrollback = %d lines, want 5", term.ScrollbackLines())
	}
	return term
}

func TestView_ScrollAndClamp(t *testing.T) {
	term := numbered(t)
	wantOffset(t, term, 0)
	wantRows(t, term, "6", "7", "8")
	if !term.CursorState().Visible {
		t.Fatal("cursor hidden at the bottom")
	}

	if !term.ScrollView(2) {
		t.Fatal("ScrollView(2) reported no change")
	}
	wantOffset(t, term, 2)
	wantRows(t, term, "4", "5", "6")
	if term.CursorState().Visible {
		t.Fatal("cursor visible while scrolled back")
	}
	if off, max, rows := term.ScrollInfo(); off != 2 || max != 5 || rows != 3 {
		t.Fatalf("ScrollInfo = %d, %d, %d; want 2, 5, 3", off, max, rows)
	}

	term.ScrollView(100) // clamped to the oldest line
	wantOffset(t, term, 5)
	wantRows(t, term, "1", "2", "3")
	if term.ScrollView(1) {
		t.Fatal("ScrollView past the top reported a change")
	}

	term.ScrollView(-1)
	wantOffset(t, term, 4)
	wantRows(t, term, "2", "3", "4")

	term.ScrollView(-100) // clamped to the live screen
	wantOffset(t, term, 0)
	wantRows(t, term, "6", "7", "8")
	if !term.CursorState().Visible {
		t.Fatal("cursor still hidden back at the bottom")
	}
	if term.ScrollView(-1) {
		t.Fatal("ScrollView below the bottom reported a change")
	}
}

func TestView_ResetView(t *testing.T) {
	term := numbered(t)
	if term.ResetView() {
		t.Fatal("ResetView at the bottom reported a change")
	}
	term.ScrollView(3)
	wantRows(t, term, "3", "4", "5")
	if !term.ResetView() {
		t.Fatal("ResetView reported no change")
	}
	wantOffset(t, term, 0)
	wantRows(t, term, "6", "7", "8")
}

// New output keeps a scrolled-back view on the same lines.
func TestView_OutputKeepsLines(t *testing.T) {
	term := numbered(t)
	term.ScrollView(2)
	term.WriteString("\r\n9\r\n10")
	wantOffset(t, term, 4)
	wantRows(t, term, "4", "5", "6")
	// Output that does not scroll leaves the offset alone.
	term.WriteString("\x1b[1;1Hxx\x1b[3;3H")
	wantOffset(t, term, 4)
	wantRows(t, term, "4", "5", "6")
	// A view reaching into the screen shows the live rows below history.
	term.ScrollView(-3)
	wantRows(t, term, "7", "xx", "9")
	// At the bottom the view follows the output.
	term.ResetView()
	term.WriteString("\r\n11")
	wantOffset(t, term, 0)
	wantRows(t, term, "9", "10", "11")
}

// Dropping the oldest lines clamps the offset.
func TestView_EvictionClamps(t *testing.T) {
	// One-character lines cost 1+48 bytes: three fit in 150.
	term := New(10, 2, Options{ScrollbackLimitBytes: 150})
	term.WriteString("a\r\nb\r\nc\r\nd\r\ne")
	if term.ScrollbackLines() != 3 {
		t.Fatalf("scrollback = %d lines, want 3", term.ScrollbackLines())
	}
	term.ScrollView(3)
	wantRows(t, term, "a", "b")
	term.WriteString("\r\nf") // d is pushed, a dropped
	wantOffset(t, term, 3)
	wantRows(t, term, "b", "c")
	if term.ScrollbackLines() != 3 {
		t.Fatalf("scrollback = %d lines, want 3", term.ScrollbackLines())
	}
}

func TestView_NoScrollback(t *testing.T) {
	term := New(10, 2, Options{ScrollbackLimitBytes: -1})
	term.WriteString("a\r\nb\r\nc")
	if term.ScrollView(5) {
		t.Fatal("ScrollView without scrollback reported a change")
	}
	wantOffset(t, term, 0)
	wantRows(t, term, "b", "c")
}

func TestView_AltScreenHasNoHistory(t *testing.T) {
	term := numbered(t)
	term.ScrollView(2)
	term.WriteString("\x1b[?1049h")
	wantOffset(t, term, 0)
	if term.ScrollView(2) {
		t.Fatal("ScrollView on the alternate screen reported a change")
	}
	if _, max, _ := term.ScrollInfo(); max != 0 {
		t.Fatalf("alternate screen max offset = %d, want 0", max)
	}
	term.WriteString("\x1b[Halt")
	wantRows(t, term, "alt", "", "")
	term.WriteString("\x1b[?1049l")
	wantOffset(t, term, 0) // entering the alternate screen reset the view
	wantRows(t, term, "6", "7", "8")
}

func TestView_ClearScrollbackResets(t *testing.T) {
	term := numbered(t)
	term.ScrollView(4)
	term.WriteString("\x1b[3J")
	wantOffset(t, term, 0)
	wantRows(t, term, "6", "7", "8")
	term.WriteString("\r\n9\r\n10")
	wantOffset(t, term, 0)

	term.ScrollView(1)
	term.WriteString("\x1bc") // RIS
	wantOffset(t, term, 0)
}

// Reads keep reading the live screen while the view is scrolled back.
func TestView_ReadStaysLive(t *testing.T) {
	term := numbered(t)
	term.ScrollView(3)
	res := term.Read(ReadOptions{Source: SourceVisible})
	if res.Text != "6\n7\n8" {
		t.Fatalf("visible read = %q", res.Text)
	}
}

func TestView_HistoryKeepsStyles(t *testing.T) {
	term := New(10, 2, Options{})
	term.WriteString("\x1b[31mred\x1b[0m plain\r\n\r\nx")
	term.ScrollView(1)
	rows := term.Rows(nil)
	if len(rows) != 2 || len(rows[0].Runs) != 2 {
		t.Fatalf("rows = %+v", rows)
	}
	red, plain := rows[0].Runs[0], rows[0].Runs[1]
	if red.Text != "red" || red.Style.Fg != IndexedColor(1) {
		t.Fatalf("first run = %+v, want red in colour 1", red)
	}
	if plain.Col != 3 || plain.Text != " plain" || plain.Style != (Style{}) {
		t.Fatalf("second run = %+v", plain)
	}
	wantRows(t, term, "red plain", "")
}

// History lines wider than the screen (written before a narrowing resize)
// are cut at the screen's width, never in the middle of a wide character.
func TestView_WideHistoryCut(t *testing.T) {
	term := New(4, 1, Options{})
	term.viewTestPush("ab世")  // 4 columns: fits
	term.viewTestPush("abc世") // 5 columns: the wide character is cut
	term.ScrollView(1)
	wantRows(t, term, "abc")
	term.ScrollView(1)
	wantRows(t, term, "ab世")
}

// viewTestPush pushes a line of text into scrollback directly, so that it
// can be wider than the screen.
func (t *Terminal) viewTestPush(s string) {
	l := newLine(16, 0)
	x := 0
	for _, r := range s {
		if r >= 0x1100 {
			l.cells[x] = cell{ch: r, flags: cellWide}
			l.cells[x+1] = cell{flags: cellCont}
			x += 2
			continue
		}
		l.cells[x] = cell{ch: r}
		x++
	}
	l.touch(x)
	t.sbPush(l)
}
