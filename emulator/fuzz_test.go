package emulator

import (
	"testing"
)

// FuzzWrite feeds random bytes interleaved with random resizes and checks
// nothing panics and the cursor stays within bounds.
func FuzzWrite(f *testing.F) {
	seeds := []string{
		"hello\r\nworld",
		"\x1b[?1049h\x1b[2J\x1b[5;5Hx\x1b[?1049l",
		"世界\u0301\x1b[3@\x1b[2P\x1b[5X",
		"\x1b[2;4r\x1b[10L\x1b[10M\x1b[5S\x1b[5T",
		"\x1b[38;2;1;2;3;48;5;9;1;4mX\x1b[0m",
		"\x1b]0;title\x07\x1b]7;file:///tmp\x1b\\",
		"\x1b[?7l" + "abcdefghijklmnopqrstuvwxyz",
		"\x1b(0lqqk\x1b(B\x1b[4h  ins\x1b[4l",
		"\x1b[4:3;58:2::1:2:3;38:5:9mX\x1b[53;21m\x1b[",
		"\x1b]8;id=1;http://x\x1b\\ln\x1b]8;;\x07\x1b]9;4;1;50\x07\x1b]133;A\x07$ ",
		"\U0001F468\u200D\U0001F469\u2764\uFE0F\U0001F1EB\U0001F1F7\U0001F44D\U0001F3FD",
		"\x1b)0\x0eqx\x0fq\x1b[5 q\x1b7\x1b8",
		"0123456789\x1b[1mabcdefghij世界e\u0301\x1b]8;;http://x\x07klmnopqrstuvwxyz\r\n\r\n\r\n\r\n\r\n\r\n$ \x07" +
			"\x1b[31m0123456789abcdefghijklmnopqrstuvwxyz0123456789\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint8(10), uint8(5))
	}
	f.Fuzz(func(t *testing.T, data []byte, c, r uint8) {
		term := New(int(c%40), int(r%20), Options{ScrollbackLimitBytes: 2000, Reply: func([]byte) {}})
		check := func() {
			cols, rows := term.Size()
			x, y, _ := term.Cursor()
			if x < 0 || x >= cols || y < 0 || y >= rows {
				t.Fatalf("cursor (%d,%d) out of %dx%d", x, y, cols, rows)
			}
			if len(term.scr.lines) != rows {
				t.Fatalf("screen has %d lines, want %d", len(term.scr.lines), rows)
			}
			// Scrollback stays within its budget and, reflowed on every
			// width change, within the width.
			if term.sb.bytes > 2000 {
				t.Fatalf("scrollback takes %d bytes", term.sb.bytes)
			}
			for i := 0; i < term.sb.len(); i++ {
				if n := len(term.sb.decode(nil, term.sb.at(i), maxDecodedCells, func(style, string) uint16 { return 0 })); n > cols {
					t.Fatalf("scrollback line %d has %d cells, width %d", i, n, cols)
				}
			}
			for _, l := range term.scr.lines {
				if len(l.cells) != cols {
					t.Fatalf("line has %d cells, want %d", len(l.cells), cols)
				}
				for x, c := range l.cells {
					if c.flags&cellWide != 0 && (x+1 >= cols || l.cells[x+1].flags&cellCont == 0) {
						t.Fatalf("wide cell at %d without continuation", x)
					}
					if c.flags&cellCont != 0 && (x == 0 || l.cells[x-1].flags&cellWide == 0) {
						t.Fatalf("continuation cell at %d without head", x)
					}
				}
				for i := l.hi; i < len(l.cells); i++ {
					if l.cells[i] != (cell{}) {
						t.Fatalf("cell %d beyond hi=%d is %+v", i, l.hi, l.cells[i])
					}
				}
			}
		}
		for i := 0; i < len(data); {
			n := 1 + int(data[i])%37
			end := min(i+n, len(data))
			term.Write(data[i:end])
			check()
			if data[i]%7 == 0 {
				term.Resize(int(data[i]%50)-2, int(data[end-1]%30)-1)
				check()
			}
			i = end
		}
		for _, src := range []Source{SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection} {
			term.Read(ReadOptions{Source: src, ANSI: true})
			term.Read(ReadOptions{Source: src, Lines: 3})
		}
	})
}
