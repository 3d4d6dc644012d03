package emulator

import (
	"strings"
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
		// kitty graphics: transmit+display, chunks, put, query, delete, cut APCs
		"\x1b_Ga=T,f=24,s=8,v=32,i=1;" + strings.Repeat("AAAA", 192) + "\x1b\\x\r\n\n\n",
		"\x1b_Ga=t,f=32,s=2,v=2,i=2,m=1;AAAAAA\x1b\\\x1b_Gm=1;AAAAAA\x1b\\\x1b_Gm=0;AAAA\x1b\\\x1b[3;3H\x1b_Ga=p,i=2,p=1,c=30,r=12\x1b\\",
		"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b_Ga=d,d=A\x1b\\\x1b_Gnot\x1b[1m\x1b_Ga=T\x18\x1b_\x1b\\",
		"\x1b[2;3r\x1b_Ga=T,f=24,s=1,v=1,i=3,c=2,r=9;AAAA\x1b\\\x1bM\x1bD\x1b[?1049h\x1b_Ga=p,i=3\x1b\\\x1b[?1049l\x1b[2J\x1bc",
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint8(10), uint8(5))
	}
	f.Fuzz(func(t *testing.T, data []byte, c, r uint8) {
		term := New(int(c%40), int(r%20), Options{ScrollbackLimitBytes: 2000, Reply: func([]byte) {}, KittyGraphics: true})
		check := func() {
			cols, rows := term.Size()
			x, y, _ := term.Cursor()
			if x < 0 || x >= cols || y < 0 || y >= rows {
				t.Fatalf("cursor (%d,%d) out of %dx%d", x, y, cols, rows)
			}
			if len(term.scr.lines) != rows {
				t.Fatalf("screen has %d lines, want %d", len(term.scr.lines), rows)
			}
			checkBlankRecords(t, "fuzz", term) // no write reached a row shared as blank
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
			if k := term.kitty; k != nil && (len(k.places) > kittyMaxPlacements || len(k.images) > kittyMaxImages || k.imageBytes > kittyMaxStoreBytes) {
				t.Fatalf("graphics over their limits: %d placements, %d images of %d bytes", len(k.places), len(k.images), k.imageBytes)
			}
			for _, p := range term.KittyPlacements(nil) {
				if p.Row >= rows || p.Row+p.Rows <= 0 || p.Cols < 1 || p.Rows < 1 {
					t.Fatalf("placement %+v off the %dx%d screen", p, cols, rows)
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
				if bad := plainViolation(l); bad >= 0 {
					t.Fatalf("cell %d under plain=%d is %+v", bad, l.plain, l.cells[bad])
				}
				for i := int(l.hi); i < len(l.cells); i++ {
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
