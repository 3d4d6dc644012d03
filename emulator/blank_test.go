package emulator

import (
	"fmt"
	"os"
	"testing"
)

// TestMain checks, once every test and fuzz seed of the package has run,
// that no write reached the blank rows every screen shares: a write that
// missed its line.own would show there, and on every other pane's screen.
func TestMain(m *testing.M) {
	code := m.Run()
	for i, c := range blankCells {
		if c != (cell{}) {
			fmt.Fprintf(os.Stderr, "blankCells[%d] = %+v: a line was written without own\n", i, c)
			code = 1
			break
		}
	}
	os.Exit(code)
}

// A new terminal's blank rows take no cells of their own; a row gets its
// own when something is written to it, and only that row.
func TestBlankRowsShareTheirCells(t *testing.T) {
	term := New(200, 50, Options{})
	for y, l := range term.primary.lines {
		if !l.shared() {
			t.Fatalf("row %d of a new terminal has cells of its own", y)
		}
	}
	term.Write([]byte("$ hello\r\nworld\x1b[H\x1b[41m\x1b[K\x1b[m\x1b[4H\x1b[K"))
	for y, l := range term.primary.lines {
		if want := y == 0 || y == 1; l.shared() == want {
			t.Errorf("row %d: shared = %v after writing rows 0 and 1 only", y, l.shared())
		}
	}
	if got := term.primary.lines[2].cells[199]; got != (cell{}) {
		t.Errorf("an untouched row reads %+v, want a blank cell", got)
	}
}

// Every kind of write lands on a row that has its own cells, however the
// row was made (new screen, grown screen, reflow, alternate screen).
func TestWritesNeverReachSharedCells(t *testing.T) {
	term := New(20, 5, Options{})
	steps := []string{
		"\x1b[5@x", "\x1b[3P", "e\u0301", "\x1b[44m\x1b[2K", "\x1b#8", "\x1b[?1049h", "漢字", "\x1b[4h\x1b[2;2Hz",
		"\x1b[?1049l", "\x1b[L", "\x1b[M", "\x1b[S", "\x1b[T",
	}
	for i, s := range steps {
		term.Resize(20+i, 5+i%3)
		term.Write([]byte(s))
	}
	for i, c := range blankCells[:64] {
		if c != (cell{}) {
			t.Fatalf("blankCells[%d] = %+v after %q", i, c, steps)
		}
	}
}
