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

// A new screen's rows share one blank record; a write gives a row a
// record of its own, and only that row; a restored screen's blank rows
// share it again.
func TestBlankRowsShareOneRecord(t *testing.T) {
	term := New(200, 50, Options{})
	for y, l := range term.primary.lines {
		if l != &term.primary.blank {
			t.Fatalf("row %d of a new terminal has a record of its own", y)
		}
	}
	term.Write([]byte("$ hello\r\nworld\x1b[H\x1b[41m\x1b[K\x1b[m\x1b[4H\x1b[K\x1b[5;3H\x1b[44m\x1b[J\x1b[m"))
	for y, l := range term.primary.lines {
		if want := y != 2; (l == &term.primary.blank) == want {
			t.Errorf("row %d: shares the blank record = %v after writing all rows but 2 (an erase of row 3, of 4- in a colour)", y, !want)
		}
	}
	checkBlankRecords(t, "after writes", term)
	term.Write([]byte("\x1b[2J"))
	snap, err := term.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Restore(snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for y, l := range back.primary.lines {
		if l != &back.primary.blank {
			t.Errorf("row %d of a cleared screen, restored, has a record of its own", y)
		}
	}
	read := ReadOptions{Source: SourceVisible}
	if a, b := term.Read(read), back.Read(read); a != b {
		t.Errorf("restored reads %+v, want %+v", b, a)
	}
}

// checkBlankRecords fails unless the blank record of each of term's
// screens reads as a blank row through blankCells, at the screen's width.
func checkBlankRecords(t *testing.T, step string, term *Terminal) {
	t.Helper()
	for _, s := range []*screen{term.primary, term.alt} {
		if s == nil {
			continue
		}
		b := &s.blank
		if !blankRecord(b) || !b.shared() || len(b.cells) != term.cols {
			t.Fatalf("%s: the blank record was written: hi %d, wrapped %v, comb %v, shares blankCells %v, %d cells of %d",
				step, b.hi, b.wrapped, b.comb, b.shared(), len(b.cells), term.cols)
		}
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
		checkBlankRecords(t, s, term)
	}
	for i, c := range blankCells[:64] {
		if c != (cell{}) {
			t.Fatalf("blankCells[%d] = %+v after %q", i, c, steps)
		}
	}
}
