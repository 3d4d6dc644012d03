package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// reflowContent is output with long soft-wrapped lines, styles, links, wide
// characters and combining marks, ending with a prompt.
func reflowContent() string {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "%d: ", i)
		switch i % 5 {
		case 0:
			b.WriteString(strings.Repeat("abcdefghij", 1+i%4))
		case 1:
			fmt.Fprintf(&b, "\x1b[1;3%dmbold %d\x1b[0m plain \x1b[48;5;%dmbg\x1b[0m %s", i%8, i, i, strings.Repeat("x", i))
		case 2:
			b.WriteString(strings.Repeat("世界e\u0301 ", 1+i%7))
		case 3:
			fmt.Fprintf(&b, "\x1b]8;id=%d;https://example.com/%d\x1b\\%s\x1b]8;;\x1b\\ tail", i, i, strings.Repeat("link", i%9))
		case 4:
			b.WriteString("\U0001F468\u200D\U0001F469 \U0001F44D\U0001F3FD " + strings.Repeat("z", 25))
		}
		b.WriteString("\r\n")
	}
	b.WriteString("$ ")
	return b.String()
}

func recent(term *Terminal, src Source, ansi bool) string {
	return term.Read(ReadOptions{Source: src, ANSI: ansi, Lines: MaxRecentLines}).Text
}

// joinRuns undoes what rendering rows one by one does to an unwrapped ANSI
// line where a soft wrap falls: a hyperlink is closed and opened again, a
// style reset and set again.
func joinRuns(s string) string {
	var b strings.Builder
	open, sgr := "", ""
	for len(s) > 0 {
		if strings.HasPrefix(s, "\x1b]8;") {
			end := strings.Index(s, "\x1b\\")
			seq := s[:end+2]
			s = s[end+2:]
			if seq == "\x1b]8;;\x1b\\" && strings.HasPrefix(s, "\x1b]8;") && !strings.HasPrefix(s, "\x1b]8;;") {
				continue // closed and reopened
			}
			if seq != open || seq == "\x1b]8;;\x1b\\" {
				b.WriteString(seq)
			}
			open = seq
			continue
		}
		if strings.HasPrefix(s, "\x1b[0m\x1b[0;") {
			rest := s[len("\x1b[0m"):]
			seq := rest[:strings.IndexByte(rest, 'm')+1]
			if seq == sgr {
				s = rest[len(seq):] // reset and set again
				continue
			}
		}
		if strings.HasPrefix(s, "\x1b[0;") {
			sgr = s[:strings.IndexByte(s, 'm')+1]
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
	return b.String()
}

// TestReflowScrollback checks that narrowing and widening re-wraps the
// scrollback: the unwrapped text and ANSI never change, and the rendered
// rows are those of a terminal that had the new width from the start.
func TestReflowScrollback(t *testing.T) {
	content := reflowContent()
	term := New(30, 6, Options{})
	feed(term, content)
	want := map[bool]string{}
	for _, ansi := range []bool{false, true} {
		want[ansi] = recent(term, SourceRecentUnwrapped, ansi)
	}
	for _, cols := range []int{13, 7, 2, 9, 30, 50, 31, 30, 1} {
		term.Resize(cols, 6)
		for _, ansi := range []bool{false, true} {
			got := term.Read(ReadOptions{Source: SourceRecentUnwrapped, ANSI: ansi, Lines: MaxRecentLines})
			if got.Truncated {
				// Only the last rows: compare from the first whole line.
				if g := got.Text[strings.IndexByte(got.Text, '\n'):]; !strings.HasSuffix(joinRuns(want[ansi]), joinRuns(g)) {
					t.Fatalf("cols %d ansi=%v: unwrapped text changed\n got %q\nwant %q", cols, ansi, g, want[ansi])
				}
			} else if got := got.Text; joinRuns(got) != joinRuns(want[ansi]) {
				t.Fatalf("cols %d ansi=%v: unwrapped text changed\n got %q\nwant %q", cols, ansi, got, want[ansi])
			}
		}
		if cols == 1 {
			continue // wide characters lose their width at one column (for good)
		}
		fresh := New(cols, 6, Options{})
		feed(fresh, content)
		for _, ansi := range []bool{false, true} {
			if got, exp := recent(term, SourceRecent, ansi), recent(fresh, SourceRecent, ansi); got != exp {
				t.Fatalf("cols %d ansi=%v: rows differ from a terminal of that width\n got %q\nwant %q", cols, ansi, got, exp)
			}
		}
		if gx, gy, _ := term.Cursor(); true {
			fx, fy, _ := fresh.Cursor()
			if gx != fx || gy != fy {
				t.Fatalf("cols %d: cursor (%d,%d), want (%d,%d)", cols, gx, gy, fx, fy)
			}
		}
		// Wrap flags: every row but the last of a logical line is full.
		for i := 0; i < term.sb.len(); i++ {
			r := term.sb.at(i)
			cells := term.sb.decode(nil, r, maxDecodedCells, func(style, string) uint16 { return 0 })
			if len(cells) > cols {
				t.Fatalf("cols %d: scrollback line %d has %d cells", cols, i, len(cells))
			}
			if r.wrapped && len(cells) < cols-1 {
				t.Fatalf("cols %d: wrapped scrollback line %d has only %d cells", cols, i, len(cells))
			}
		}
	}
}

// TestReflowLongLineFromScrollback: a line that scrolled mostly into
// scrollback comes back whole when the terminal is widened, and the cursor
// stays on the line below it.
func TestReflowLongLineFromScrollback(t *testing.T) {
	term := New(10, 4, Options{})
	long := strings.Repeat("0123456789", 7) + "END"
	feed(term, "first\r\n"+long+"\r\n$ ")
	checkScreen(t, term, []string{"0123456789", "0123456789", "END", "$"})
	checkCursor(t, term, 2, 3)
	term.Resize(80, 4)
	checkScreen(t, term, []string{"first", long, "$"})
	checkCursor(t, term, 2, 2)
	if term.sb.len() != 0 {
		t.Fatalf("scrollback has %d lines", term.sb.len())
	}
	term.Resize(10, 4)
	checkScreen(t, term, []string{"0123456789", "0123456789", "END", "$"})
	checkCursor(t, term, 2, 3)
	if got := recent(term, SourceRecentUnwrapped, false); got != "first\n"+long+"\n$" {
		t.Fatalf("unwrapped = %q", got)
	}
	// Widening with the cursor on the last row pulls history back so that
	// it stays there.
	term = New(10, 4, Options{})
	for i := 0; i < 10; i++ {
		feed(term, fmt.Sprintf("line %d\r\n", i))
	}
	feed(term, long+"\r\n$ ")
	term.Resize(40, 4)
	checkScreen(t, term, []string{"line 9", long[:40], long[40:], "$"})
	checkCursor(t, term, 2, 3)
}

// TestResizeHeightKeepsScrollback: a height-only resize does not re-encode
// the scrollback.
func TestResizeHeightKeepsScrollback(t *testing.T) {
	term := New(10, 5, Options{})
	feed(term, reflowContent()+"\x1b[1;1H")
	before := make([]sbLine, term.sb.len())
	for i := range before {
		before[i] = *term.sb.at(i)
	}
	term.Resize(10, 9)
	term.Resize(10, 7)
	if term.sb.len() != len(before) {
		t.Fatalf("scrollback has %d lines, want %d", term.sb.len(), len(before))
	}
	for i := range before {
		r := term.sb.at(i)
		if r.blk != before[i].blk || r.off != before[i].off || r.n != before[i].n {
			t.Fatalf("line %d was re-encoded", i)
		}
	}
}

// TestReflowScrollbackLimit: narrowing adds lines (each with its overhead);
// the oldest are dropped to stay within the byte limit.
func TestReflowScrollbackLimit(t *testing.T) {
	const limit = 4000
	term := New(40, 3, Options{ScrollbackLimitBytes: limit})
	for i := 0; i < 100; i++ {
		feed(term, fmt.Sprintf("%03d %s\r\n", i, strings.Repeat("y", 30)))
	}
	n := term.sb.len()
	term.Resize(10, 3)
	if term.sb.bytes > limit {
		t.Fatalf("scrollback takes %d bytes, limit %d", term.sb.bytes, limit)
	}
	if term.sb.len() <= n {
		t.Fatalf("scrollback has %d lines after narrowing, had %d", term.sb.len(), n)
	}
	got := recent(term, SourceRecentUnwrapped, false)
	if !strings.HasSuffix(got, "099 "+strings.Repeat("y", 30)) {
		t.Fatalf("newest line lost: %q", got[max(len(got)-80, 0):])
	}
	// The oldest logical line kept may have lost its first rows, never a
	// newer one.
	lines := strings.Split(strings.TrimSpace(got), "\n")
	for i, l := range lines[1:] {
		if len(l) != 34 {
			t.Fatalf("line %d = %q", i+1, l)
		}
	}
}

// BenchmarkReflowScrollback resizes a terminal with 10 000 lines of 120
// columns in scrollback between 120 and 80 columns.
func BenchmarkReflowScrollback(b *testing.B) {
	term := New(120, 40, Options{})
	line := strings.Repeat("0123456789 \x1b[1mbold\x1b[0m ", 7)[:120] + "\r\n"
	for i := 0; i < 10000; i++ {
		term.WriteString(line)
	}
	if term.sb.len() < 9900 {
		b.Fatalf("scrollback has %d lines", term.sb.len())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			term.Resize(80, 40)
		} else {
			term.Resize(120, 40)
		}
	}
}
