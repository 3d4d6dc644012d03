package emulator

import (
	"math/rand"
	"strings"
	"testing"
)

// plainViolation returns the first cell of l's plain prefix that is not
// printable ASCII in the default style, or -1.
func plainViolation(l *line) int {
	if int(l.plain) > len(l.cells) {
		return len(l.cells)
	}
	for k, c := range l.cells[:l.plain] {
		if c.style != 0 || c.flags != 0 || c.ch < 0x20 || c.ch >= 0x7f {
			return k
		}
	}
	return -1
}

// forgetPlain zeroes every line's plain prefix, so the next push to
// scrollback checks every cell.
func forgetPlain(t *Terminal) {
	for _, s := range []*screen{t.primary, t.alt} {
		if s != nil {
			for _, l := range s.lines {
				l.plain = 0
			}
		}
	}
}

// allText is the whole copy-mode text of t.
func allText(t *Terminal) string {
	return t.ReadText(TextPoint{}, TextPoint{Row: t.TextRows() - 1, Col: 1 << 20})
}

// TestPlainPrefixHolds writes a random mix of plain text and everything
// that can overwrite, shift or blank it (styles, wide characters,
// combining marks, erase, insert and delete, insert mode, resizes) and
// checks after every write that no line's plain prefix vouches for a cell
// it must not, and that the text, scrollback included, reads as in a
// terminal fed the same bytes whose lines never keep a plain prefix
// (pushPlain trusts the prefix without checking).
func TestPlainPrefixHolds(t *testing.T) {
	pieces := []string{
		"hello world ", "abcdefghijklmnopqrstuvwxyz0123456789", "\r\n", "\r", "\n",
		"\x1b[1;31m", "\x1b[0m", "\x1b[m", "世界", "e\u0301", "\x1b[3G", "\x1b[5;7H", "\x1b[H",
		"\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[2@", "\x1b[3P", "\x1b[4X", "\x1b[2b",
		"\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h", "\x1b(0q\x1b(B", "\t", "\x08", "\x1b[L",
		"\x1b[M", "\x1b[2S", "\x1b[T", "\x1bM", "\x1b[?1049h", "\x1b[?1049l", "\x1b[44m  \x1b[0m",
		"\x1b[2;5r", "\x1b[r", "\x1b#8",
	}
	rng := rand.New(rand.NewSource(50))
	term := New(23, 7, Options{})
	ref := New(23, 7, Options{})
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := rng.Intn(6); k >= 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		term.WriteString(b.String())
		forgetPlain(ref)
		ref.WriteString(b.String())
		if rng.Intn(500) == 0 {
			c, r := 10+rng.Intn(30), 3+rng.Intn(8)
			term.Resize(c, r)
			ref.Resize(c, r)
		}
		for _, s := range []*screen{term.primary, term.alt} {
			if s == nil {
				continue
			}
			for y, l := range s.lines {
				if bad := plainViolation(l); bad >= 0 {
					t.Fatalf("write %d (%q): row %d cell %d under plain=%d is %+v", i, b.String(), y, bad, l.plain, l.cells[bad])
				}
			}
		}
		if i%1000 == 999 {
			if got, want := allText(term), allText(ref); got != want {
				t.Fatalf("after write %d the text reads\n%s\nwant\n%s", i, got, want)
			}
		}
	}
	if term.ScrollbackLines() == 0 {
		t.Fatal("nothing reached scrollback: the test checks nothing of pushPlain")
	}
}

// TestPrintablePrefix checks the word-at-a-time scan against a byte loop
// for every byte value at every position of words of several lengths.
func TestPrintablePrefix(t *testing.T) {
	want := func(b []byte) int {
		for i, c := range b {
			if c < 0x20 || c >= 0x7f {
				return i
			}
		}
		return len(b)
	}
	for _, size := range []int{0, 1, 7, 8, 9, 16, 23} {
		for pos := 0; pos < size; pos++ {
			for v := 0; v < 256; v++ {
				b := []byte(strings.Repeat("a~ Z", 6)[:size])
				b[pos] = byte(v)
				if got, w := printablePrefix(b), want(b); got != w {
					t.Fatalf("printablePrefix(%q) = %d, want %d", b, got, w)
				}
			}
		}
	}
}
