package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// screenLines returns the visible rows (trailing blank rows dropped).
func screenLines(t *Terminal) []string {
	txt := t.Read(ReadOptions{Source: SourceVisible}).Text
	if txt == "" {
		return nil
	}
	return strings.Split(txt, "\n")
}

func feed(t *Terminal, chunks ...string) {
	for _, c := range chunks {
		t.Write([]byte(c))
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func checkScreen(tb testing.TB, term *Terminal, want []string) {
	tb.Helper()
	if got := screenLines(term); !equalLines(got, want) {
		tb.Fatalf("screen mismatch\n got: %q\nwant: %q", got, want)
	}
}

func checkCursor(tb testing.TB, term *Terminal, col, row int) {
	tb.Helper()
	if x, y, _ := term.Cursor(); x != col || y != row {
		tb.Fatalf("cursor = (%d,%d), want (%d,%d)", x, y, col, row)
	}
}

type pos struct{ col, row int }

func TestSequences(t *testing.T) {
	tests := []struct {
		name       string
		cols, rows int
		input      []string
		want       []string
		cursor     pos
	}{
		{
			name: "plain text", cols: 10, rows: 3,
			input:  []string{"hello"},
			want:   []string{"hello"},
			cursor: pos{5, 0},
		},
		{
			name: "crlf", cols: 10, rows: 3,
			input: []string{
				"ab\r\n", // text, CR LF
				"cd",
			},
			want:   []string{"ab", "cd"},
			cursor: pos{2, 1},
		},
		{
			name: "bare LF keeps the column", cols: 10, rows: 3,
			input:  []string{"ab\ncd"},
			want:   []string{"ab", "  cd"},
			cursor: pos{4, 1},
		},
		{
			name: "VT and FF act as LF", cols: 10, rows: 4,
			input:  []string{"a\vb\fc"},
			want:   []string{"a", " b", "  c"},
			cursor: pos{3, 2},
		},
		{
			name: "backspace overwrites", cols: 10, rows: 2,
			input:  []string{"abc\b\bX"},
			want:   []string{"aXc"},
			cursor: pos{2, 0},
		},
		{
			name: "backspace stops at column 0", cols: 10, rows: 2,
			input:  []string{"a\b\b\bX"},
			want:   []string{"X"},
			cursor: pos{1, 0},
		},
		{
			name: "tab stops every 8", cols: 20, rows: 2,
			input:  []string{"a\tb\tc"},
			want:   []string{"a       b       c"},
			cursor: pos{17, 0},
		},
		{
			name: "tab clamps at the last column", cols: 10, rows: 2,
			input:  []string{"\t\t\tx"},
			want:   []string{"         x"},
			cursor: pos{9, 0},
		},
		{
			name: "CUP is 1-based and clamps", cols: 10, rows: 5,
			input: []string{
				"\x1b[3;4H", // CUP row 3 col 4
				"x",
				"\x1b[99;99H", // CUP far away: clamped to bottom-right
				"y",
			},
			want:   []string{"", "", "   x", "", "         y"},
			cursor: pos{9, 4},
		},
		{
			name: "CUP defaults to home", cols: 10, rows: 3,
			input:  []string{"abc\x1b[Hx"}, // CUP without params
			want:   []string{"xbc"},
			cursor: pos{1, 0},
		},
		{
			name: "HVP", cols: 10, rows: 3,
			input:  []string{"\x1b[2;3fz"}, // HVP row 2 col 3
			want:   []string{"", "  z"},
			cursor: pos{3, 1},
		},
		{
			name: "CUU CUD CUF CUB", cols: 10, rows: 5,
			input: []string{
				"\x1b[3;3H", // row 3 col 3
				"\x1b[2A",   // CUU 2 -> row 1
				"a",
				"\x1b[3B", // CUD 3 -> row 4
				"b",
				"\x1b[2C", // CUF 2
				"c",
				"\x1b[5D", // CUB 5
				"d",
			},
			want:   []string{"  a", "", "", "  db  c"},
			cursor: pos{3, 3},
		},
		{
			name: "cursor movement clamps", cols: 5, rows: 3,
			input: []string{
				"\x1b[10A", // CUU past top
				"\x1b[10D", // CUB past left
				"a",
				"\x1b[10B", // CUD past bottom
				"\x1b[10C", // CUF past right
				"b",
			},
			want:   []string{"a", "", "    b"},
			cursor: pos{4, 2},
		},
		{
			name: "CNL and CPL go to column 0", cols: 10, rows: 5,
			input: []string{
				"abc",
				"\x1b[2E", // CNL 2
				"x",
				"\x1b[1F", // CPL 1
				"y",
			},
			want:   []string{"abc", "y", "x"},
			cursor: pos{1, 1},
		},
		{
			name: "CHA and VPA", cols: 10, rows: 5,
			input: []string{
				"abc",
				"\x1b[6G", // CHA col 6
				"x",
				"\x1b[3d", // VPA row 3
				"y",
			},
			want:   []string{"abc  x", "", "      y"},
			cursor: pos{7, 2},
		},
		{
			name: "pending wrap: exactly cols chars stay on the line", cols: 5, rows: 3,
			input:  []string{"abcde"},
			want:   []string{"abcde"},
			cursor: pos{4, 0},
		},
		{
			name: "pending wrap: next printable wraps", cols: 5, rows: 3,
			input:  []string{"abcde", "f"},
			want:   []string{"abcde", "f"},
			cursor: pos{1, 1},
		},
		{
			name: "pending wrap: CR LF after a full line does not add a blank line", cols: 5, rows: 3,
			input:  []string{"abcde\r\nf"},
			want:   []string{"abcde", "f"},
			cursor: pos{1, 1},
		},
		{
			name: "pending wrap is cancelled by cursor movement", cols: 5, rows: 3,
			input: []string{
				"abcde",
				"\x1b[D", // CUB 1 cancels the pending wrap
				"X",
			},
			want:   []string{"abcXe"},
			cursor: pos{4, 0},
		},
		{
			name: "DECAWM off overwrites the last column", cols: 5, rows: 3,
			input: []string{
				"\x1b[?7l", // DECAWM off
				"abcdefg",
			},
			want:   []string{"abcdg"},
			cursor: pos{4, 0},
		},
		{
			name: "scroll at bottom", cols: 5, rows: 2,
			input:  []string{"1\r\n2\r\n3"},
			want:   []string{"2", "3"},
			cursor: pos{1, 1},
		},
		{
			name: "ED 0 from cursor", cols: 5, rows: 3,
			input: []string{
				"aaaaa\r\nbbbbb\r\nccccc",
				"\x1b[2;3H", // row 2 col 3
				"\x1b[J",    // ED 0
			},
			want:   []string{"aaaaa", "bb"},
			cursor: pos{2, 1},
		},
		{
			name: "ED 1 to cursor", cols: 5, rows: 3,
			input: []string{
				"aaaaa\r\nbbbbb\r\nccccc",
				"\x1b[2;3H", // row 2 col 3
				"\x1b[1J",   // ED 1
			},
			want:   []string{"", "   bb", "ccccc"},
			cursor: pos{2, 1},
		},
		{
			name: "ED 2 clears everything, cursor stays", cols: 5, rows: 3,
			input: []string{
				"aaaaa\r\nbbbbb\r\nccccc",
				"\x1b[2;3H", // row 2 col 3
				"\x1b[2J",   // ED 2
			},
			want:   nil,
			cursor: pos{2, 1},
		},
		{
			name: "EL 0, 1, 2", cols: 6, rows: 3,
			input: []string{
				"abcdef\r\nghijkl\r\nmnopqr",
				"\x1b[1;3H\x1b[K",  // EL 0 on row 1 from col 3
				"\x1b[2;3H\x1b[1K", // EL 1 on row 2 up to col 3
				"\x1b[3;3H\x1b[2K", // EL 2 on row 3
			},
			want:   []string{"ab", "   jkl"},
			cursor: pos{2, 2},
		},
		{
			name: "ECH erases without moving", cols: 8, rows: 2,
			input:  []string{"abcdefgh\x1b[1;3H\x1b[3X"}, // ECH 3 at col 3
			want:   []string{"ab   fgh"},
			cursor: pos{2, 0},
		},
		{
			name: "ICH and DCH", cols: 8, rows: 2,
			input: []string{
				"abcdef",
				"\x1b[1;2H\x1b[2@", // ICH 2 at col 2
				"\r\nabcdef",
				"\x1b[2;2H\x1b[2P", // DCH 2 at col 2
			},
			want:   []string{"a  bcdef", "adef"},
			cursor: pos{1, 1},
		},
		{
			name: "IL and DL", cols: 4, rows: 4,
			input: []string{
				"1\r\n2\r\n3\r\n4",
				"\x1b[2;1H\x1b[L", // IL 1 at row 2
			},
			want:   []string{"1", "", "2", "3"},
			cursor: pos{0, 1},
		},
		{
			name: "DL", cols: 4, rows: 4,
			input: []string{
				"1\r\n2\r\n3\r\n4",
				"\x1b[2;1H\x1b[2M", // DL 2 at row 2
			},
			want:   []string{"1", "4"},
			cursor: pos{0, 1},
		},
		{
			name: "scroll region", cols: 4, rows: 4,
			input: []string{
				"1\r\n2\r\n3\r\n4",
				"\x1b[2;3r",    // DECSTBM rows 2..3 (homes the cursor)
				"\x1b[3;1H",    // bottom of the region
				"\nx",          // LF scrolls only the region
				"\x1b[r",       // reset margins
				"\x1b[4;1H\nz", // LF at the bottom scrolls the whole screen
			},
			want:   []string{"3", "x", "4", "z"},
			cursor: pos{1, 3},
		},
		{
			name: "SU and SD", cols: 4, rows: 3,
			input: []string{
				"1\r\n2\r\n3",
				"\x1b[S",  // SU 1
				"\x1b[2T", // SD 2
			},
			want:   []string{"", "", "2"},
			cursor: pos{1, 2},
		},
		{
			name: "reverse index at top scrolls down", cols: 4, rows: 3,
			input:  []string{"1\r\n2\x1b[H\x1bMx"}, // home, RI
			want:   []string{"x", "1", "2"},
			cursor: pos{1, 0},
		},
		{
			name: "DECSC/DECRC", cols: 6, rows: 3,
			input:  []string{"ab\x1b7\x1b[3;5Hx\x1b8c"}, // save at col 2, move, restore
			want:   []string{"abc", "", "    x"},
			cursor: pos{3, 0},
		},
		{
			name: "SGR does not print", cols: 10, rows: 2,
			input:  []string{"\x1b[1;31ma\x1b[0mb\x1b[38;2;1;2;3mc\x1b[48;5;200md"},
			want:   []string{"abcd"},
			cursor: pos{4, 0},
		},
		{
			name: "unknown sequences are ignored", cols: 10, rows: 2,
			input:  []string{"a\x1b[?1234hb\x1bP1$r\x1b\\c\x1b]52;c;Zm9v\x07d"},
			want:   []string{"abcd"},
			cursor: pos{4, 0},
		},
		{
			name: "utf8 split across chunks", cols: 10, rows: 2,
			input:  []string{"h\xc3", "\xa9llo \xe2\x82", "\xac"},
			want:   []string{"héllo €"},
			cursor: pos{7, 0},
		},
		{
			name: "DEC line drawing", cols: 10, rows: 2,
			input:  []string{"\x1b(0lqk\x1b(Bx"}, // G0 = DEC graphics, then ASCII
			want:   []string{"┌─┐x"},
			cursor: pos{4, 0},
		},
		{
			name: "REP repeats the last char", cols: 10, rows: 2,
			input:  []string{"a\x1b[3b"},
			want:   []string{"aaaa"},
			cursor: pos{4, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			term := New(tc.cols, tc.rows, Options{})
			feed(term, tc.input...)
			checkScreen(t, term, tc.want)
			checkCursor(t, term, tc.cursor.col, tc.cursor.row)
		})
	}
}

func TestWideAndCombining(t *testing.T) {
	term := New(10, 3, Options{})
	feed(term, "a世b")
	checkScreen(t, term, []string{"a世b"})
	checkCursor(t, term, 4, 0)

	// Combining acute accent attaches to the previous cell.
	feed(term, "\r\ne\u0301x")
	checkScreen(t, term, []string{"a世b", "e\u0301x"})
	checkCursor(t, term, 2, 1)

	// Overwriting half of a wide char clears the other half.
	feed(term, "\x1b[1;3HZ") // col 3 is the continuation cell of 世
	checkScreen(t, term, []string{"a Zb", "e\u0301x"})

	// A wide char that does not fit in the last column wraps.
	term = New(5, 3, Options{})
	feed(term, "abcd世")
	checkScreen(t, term, []string{"abcd", "世"})
	checkCursor(t, term, 2, 1)
	if got := term.Read(ReadOptions{Source: SourceRecentUnwrapped}).Text; got != "abcd世" {
		t.Fatalf("unwrapped = %q", got)
	}

	// Wide chars fill exactly: pending wrap applies to them too.
	term = New(4, 3, Options{})
	feed(term, "世界")
	checkCursor(t, term, 3, 0)
	feed(term, "x")
	checkScreen(t, term, []string{"世界", "x"})

	// Emoji are wide.
	term = New(10, 2, Options{})
	feed(term, "😀!")
	checkCursor(t, term, 3, 0)
}

func TestSoftWrapAndUnwrapped(t *testing.T) {
	term := New(5, 4, Options{})
	feed(term, "abcdefghij", "kl\r\n", "xy")
	checkScreen(t, term, []string{"abcde", "fghij", "kl", "xy"})
	if !term.primary.lines[0].wrapped || !term.primary.lines[1].wrapped || term.primary.lines[2].wrapped {
		t.Fatal("soft-wrap flags wrong")
	}
	got := term.Read(ReadOptions{Source: SourceRecentUnwrapped})
	if got.Text != "abcdefghijkl\nxy" {
		t.Fatalf("recent_unwrapped = %q", got.Text)
	}
	got = term.Read(ReadOptions{Source: SourceRecent})
	if got.Text != "abcde\nfghij\nkl\nxy" {
		t.Fatalf("recent = %q", got.Text)
	}
	// The flag survives the trip to scrollback.
	feed(term, "\r\n1\r\n2\r\n3")
	if term.sb.len() != 3 || !term.sb.at(0).wrapped || term.sb.at(2).wrapped {
		t.Fatalf("scrollback wrap flags wrong: len=%d", term.sb.len())
	}
	got = term.Read(ReadOptions{Source: SourceRecentUnwrapped})
	if got.Text != "abcdefghijkl\nxy\n1\n2\n3" {
		t.Fatalf("recent_unwrapped with scrollback = %q", got.Text)
	}
	// An explicit CRLF at the exact end of a line is not a soft wrap.
	term = New(5, 3, Options{})
	feed(term, "abcde\r\nf")
	if term.primary.lines[0].wrapped {
		t.Fatal("hard newline flagged as soft wrap")
	}
}

func TestScrollbackBoundedByBytes(t *testing.T) {
	// Each line "line-NNNNN" encodes as 10 bytes, plus the overhead.
	per := 10 + lineOverheadBytes
	limit := per * 50
	term := New(20, 5, Options{ScrollbackLimitBytes: limit})
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(term, "line-%05d\r\n", i)
	}
	n := term.sb.len()
	if n == 0 || n > 50 {
		t.Fatalf("scrollback has %d lines, want 1..50", n)
	}
	if term.sb.bytes > limit {
		t.Fatalf("scrollback uses %d bytes > limit %d", term.sb.bytes, limit)
	}
	all := term.Read(ReadOptions{Source: SourceRecent, Lines: 1000}).Text
	if strings.Contains(all, "line-00000") || strings.Contains(all, "line-09000") {
		t.Fatal("oldest lines were not dropped")
	}
	if !strings.Contains(all, "line-09999") || !strings.Contains(all, "line-09960") {
		t.Fatalf("newest lines missing:\n%s", all)
	}
	// Lines are in order and contiguous.
	rows := strings.Split(all, "\n")
	for i := 1; i < len(rows); i++ {
		var a, b int
		fmt.Sscanf(rows[i-1], "line-%d", &a)
		fmt.Sscanf(rows[i], "line-%d", &b)
		if b != a+1 {
			t.Fatalf("rows not contiguous at %d: %q then %q", i, rows[i-1], rows[i])
		}
	}
	_, max, vp := term.ScrollInfo()
	if max != uint64(n) || vp != 5 {
		t.Fatalf("ScrollInfo max=%d vp=%d", max, vp)
	}
}

func TestScrollbackVariableLengths(t *testing.T) {
	// Exercise the arena ring with lines of varied length.
	term := New(50, 3, Options{ScrollbackLimitBytes: 4000})
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(term, "%d:%s\r\n", i, strings.Repeat("x", i%45))
	}
	txt := term.Read(ReadOptions{Source: SourceRecent, Lines: 1000}).Text
	rows := strings.Split(txt, "\n")
	last := -1
	for _, r := range rows {
		var n int
		var xs string
		if _, err := fmt.Sscanf(r, "%d:%s", &n, &xs); err != nil && !strings.HasSuffix(r, ":") {
			t.Fatalf("bad row %q", r)
		}
		if r != fmt.Sprintf("%d:%s", n, strings.Repeat("x", n%45)) {
			t.Fatalf("corrupted row %q", r)
		}
		if last >= 0 && n != last+1 {
			t.Fatalf("non contiguous %d after %d", n, last)
		}
		last = n
	}
	if last != 2999 {
		t.Fatalf("last row %d", last)
	}
	if term.sb.bytes > 4000 {
		t.Fatalf("bytes %d", term.sb.bytes)
	}
}

func TestScrollbackDisabled(t *testing.T) {
	term := New(10, 2, Options{ScrollbackLimitBytes: -1})
	feed(term, "1\r\n2\r\n3\r\n4")
	if term.sb.len() != 0 {
		t.Fatal("scrollback should be disabled")
	}
	checkScreen(t, term, []string{"3", "4"})
}

func TestAltScreen1049(t *testing.T) {
	term := New(10, 3, Options{})
	feed(term, "$ vim\r\n", "ab")
	feed(term, "\x1b[?1049h") // save cursor, switch to alt, clear
	if !term.Modes().AltScreen {
		t.Fatal("alt screen not active")
	}
	checkScreen(t, term, nil)
	feed(term, "\x1b[2;2HALT")
	checkScreen(t, term, []string{"", " ALT"})
	// Scrolling on the alternate screen does not feed scrollback.
	feed(term, "\r\n\n\n\n\n")
	if term.sb.len() != 0 {
		t.Fatal("alt screen wrote to scrollback")
	}
	if got := term.Read(ReadOptions{Source: SourceRecent}).Text; got != "" {
		t.Fatalf("recent on alt = %q", got)
	}
	feed(term, "\x1b[?1049l") // back to primary, restore cursor
	if term.Modes().AltScreen {
		t.Fatal("alt screen still active")
	}
	checkScreen(t, term, []string{"$ vim", "ab"})
	checkCursor(t, term, 2, 1)
}

func TestAltScreen47And1047(t *testing.T) {
	for _, mode := range []string{"47", "1047"} {
		term := New(10, 3, Options{})
		feed(term, "main")
		feed(term, "\x1b[?"+mode+"h", "\x1b[Halt")
		checkScreen(t, term, []string{"alt"})
		feed(term, "\x1b[?"+mode+"l")
		checkScreen(t, term, []string{"main"})
	}
}

func TestResize(t *testing.T) {
	term := New(10, 5, Options{})
	feed(term, "1\r\n2\r\n3\r\n4\r\n5")
	term.Resize(10, 3) // shrink: top two lines go to scrollback
	checkScreen(t, term, []string{"3", "4", "5"})
	checkCursor(t, term, 1, 2)
	if term.sb.len() != 2 {
		t.Fatalf("scrollback = %d lines, want 2", term.sb.len())
	}
	term.Resize(10, 5) // grow: lines come back from scrollback
	checkScreen(t, term, []string{"1", "2", "3", "4", "5"})
	checkCursor(t, term, 1, 4)
	if term.sb.len() != 0 {
		t.Fatalf("scrollback = %d lines, want 0", term.sb.len())
	}
	term.Resize(3, 5) // narrow
	feed(term, "\x1b[1;1Habcdef")
	checkScreen(t, term, []string{"abc", "def", "3", "4", "5"})
	term.Resize(6, 5) // wider: the soft-wrapped line is reflowed
	checkScreen(t, term, []string{"abcdef", "3", "4", "5"})

	// A fresh shell with the prompt on row 1 keeps it when shrinking.
	term = New(10, 10, Options{})
	feed(term, "$ ")
	term.Resize(10, 4)
	checkScreen(t, term, []string{"$"})
	checkCursor(t, term, 2, 0)
	if term.sb.len() != 0 {
		t.Fatal("blank rows went to scrollback")
	}

	// Clamping and no panics on tiny sizes, also with wide chars.
	for _, sz := range [][2]int{{0, 0}, {-5, 3}, {1, 1}, {2, 1}, {1, 7}, {200, 1}} {
		term.Resize(sz[0], sz[1])
		feed(term, "世界 x\r\n\x1b[99;99Hyz\x1b[?1049h世\x1b[?1049l")
		c, r := term.Size()
		if c < 1 || r < 1 {
			t.Fatalf("size %dx%d", c, r)
		}
		x, y, _ := term.Cursor()
		if x < 0 || x >= c || y < 0 || y >= r {
			t.Fatalf("cursor (%d,%d) out of %dx%d", x, y, c, r)
		}
	}
	// Resize while on the alternate screen.
	term = New(10, 5, Options{})
	feed(term, "a\r\nb\x1b[?1049hALT")
	term.Resize(4, 2)
	term.Resize(12, 8)
	feed(term, "\x1b[?1049l")
	checkScreen(t, term, []string{"a", "b"})
}

func TestReplies(t *testing.T) {
	var got []string
	term := New(10, 5, Options{Reply: func(b []byte) { got = append(got, string(b)) }})
	feed(term, "\x1b[c")   // DA1
	feed(term, "\x1b[0c")  // DA1 with explicit 0
	feed(term, "\x1b[>c")  // DA2
	feed(term, "\x1b[5n")  // DSR status
	feed(term, "ab\r\ncd") // cursor now at row 2 col 3 (1-based)
	feed(term, "\x1b[6n")  // CPR
	feed(term, "\x1b[?2004h\x1b[?2004$p")
	want := []string{"\x1b[?62;22c", "\x1b[?62;22c", "\x1b[>1;10;0c", "\x1b[0n", "\x1b[2;3R", "\x1b[?2004;1$y"}
	if !equalLines(got, want) {
		t.Fatalf("replies %q, want %q", got, want)
	}
	// A nil Reply is fine.
	New(5, 5, Options{}).Write([]byte("\x1b[6n\x1b[c"))
}

func TestModes(t *testing.T) {
	term := New(10, 5, Options{})
	m := term.Modes()
	if !m.AutoWrap || !m.CursorVisible || m.AppCursor || m.BracketedPaste {
		t.Fatalf("default modes %+v", m)
	}
	feed(term, "\x1b[?1h\x1b[?25l\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?1004h\x1b[?2026h\x1b[?7l")
	m = term.Modes()
	if !m.AppCursor || m.CursorVisible || !m.BracketedPaste || !m.MouseNormal || !m.MouseSGR ||
		!m.FocusEvents || !m.SyncOutput || m.AutoWrap {
		t.Fatalf("modes after set %+v", m)
	}
	if _, _, vis := term.Cursor(); vis {
		t.Fatal("cursor should be hidden")
	}
	feed(term, "\x1b[?1003h") // any-event replaces normal tracking
	m = term.Modes()
	if !m.MouseAny || m.MouseNormal {
		t.Fatalf("mouse modes %+v", m)
	}
	feed(term, "\x1b[?1;2004;1003;1006;1004;2026l\x1b[?7;25h") // several at once
	m = term.Modes()
	if m.AppCursor || !m.CursorVisible || m.BracketedPaste || m.MouseAny || m.MouseSGR ||
		m.FocusEvents || m.SyncOutput || !m.AutoWrap {
		t.Fatalf("modes after reset %+v", m)
	}
}

func TestOSC(t *testing.T) {
	var titles []string
	term := New(10, 2, Options{OnTitle: func(s string) { titles = append(titles, s) }})
	feed(term, "\x1b]0;hello\x07")
	if term.Title() != "hello" {
		t.Fatalf("title %q", term.Title())
	}
	feed(term, "\x1b]2;a;b\x1b\\") // ST-terminated, title with a semicolon
	if term.Title() != "a;b" {
		t.Fatalf("title %q", term.Title())
	}
	feed(term, "\x1b]7;file://host/home/u\x07")
	if term.Cwd() != "file://host/home/u" {
		t.Fatalf("cwd %q", term.Cwd())
	}
	if !equalLines(titles, []string{"hello", "a;b"}) {
		t.Fatalf("OnTitle %q", titles)
	}
	feed(term, "x")
	checkScreen(t, term, []string{"x"})
}

func TestBell(t *testing.T) {
	rang := 0
	term := New(10, 2, Options{OnBell: func() { rang++ }})
	feed(term, "a\x07b\x07")
	if term.Bells() != 2 || rang != 2 {
		t.Fatalf("bells=%d callback=%d", term.Bells(), rang)
	}
	checkScreen(t, term, []string{"ab"})
}

func TestRevision(t *testing.T) {
	term := New(10, 2, Options{})
	r0 := term.Revision()
	feed(term, "hello world, several chars")
	r1 := term.Revision()
	if r1 != r0+1 {
		t.Fatalf("revision %d -> %d, want +1 per Write", r0, r1)
	}
	feed(term, "")
	if term.Revision() != r1 {
		t.Fatal("empty write bumped the revision")
	}
	feed(term, "\x1b[") // incomplete sequence: nothing changed yet
	if term.Revision() != r1 {
		t.Fatal("incomplete sequence bumped the revision")
	}
	feed(term, "H")
	if term.Revision() != r1+1 {
		t.Fatal("completed sequence did not bump the revision")
	}
	term.Resize(20, 5)
	if term.Revision() != r1+2 {
		t.Fatal("resize did not bump the revision")
	}
	if got := term.Read(ReadOptions{}).Revision; got != term.Revision() {
		t.Fatalf("Read revision %d", got)
	}
}

func TestRIS(t *testing.T) {
	term := New(10, 2, Options{})
	feed(term, "\x1b]2;t\x07\x1b[31mabc\r\n1\r\n2\x1b[?1049h")
	feed(term, "\x1bc") // RIS
	checkScreen(t, term, nil)
	checkCursor(t, term, 0, 0)
	if term.Modes().AltScreen || term.sb.len() != 0 || term.Title() != "" || term.penID != 0 {
		t.Fatal("RIS did not reset state")
	}
}

func TestStyleInterning(t *testing.T) {
	term := New(10, 2, Options{})
	feed(term, "\x1b[1;31ma\x1b[0mb\x1b[1;31mc")
	l := term.primary.lines[0]
	if l.cells[0].style == 0 || l.cells[0].style != l.cells[2].style || l.cells[1].style != 0 {
		t.Fatalf("styles %d %d %d", l.cells[0].style, l.cells[1].style, l.cells[2].style)
	}
	if len(term.styles.list) != 2 {
		t.Fatalf("style table has %d entries, want 2", len(term.styles.list))
	}
}

func TestStyleTableCompaction(t *testing.T) {
	term := New(10, 2, Options{ScrollbackLimitBytes: -1})
	// 70k distinct truecolor styles, each overwriting the same cell:
	// the table must compact instead of overflowing.
	for i := 0; i < 70000; i++ {
		fmt.Fprintf(term, "\x1b[38;2;%d;%d;%dmx\b", i>>16, (i>>8)&0xff, i&0xff)
	}
	if len(term.styles.list) > maxStyles {
		t.Fatal("style table overflow")
	}
	got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	i := 69999
	want := fmt.Sprintf("\x1b[0;38;2;%d;%d;%dmx\x1b[0m", i>>16, (i>>8)&0xff, i&0xff)
	if got != want {
		t.Fatalf("after compaction got %q want %q", got, want)
	}
}

func TestMoreSequences(t *testing.T) {
	tests := []struct {
		name       string
		cols, rows int
		input      []string
		want       []string
		cursor     pos
	}{
		{
			name: "insert mode shifts right", cols: 8, rows: 2,
			input: []string{
				"abcdef\r",
				"\x1b[4h", // IRM on
				"XY",
				"\x1b[4l", // IRM off
				"Z",
			},
			want:   []string{"XYZbcdef"},
			cursor: pos{3, 0},
		},
		{
			name: "ICH splitting a wide char clears it", cols: 6, rows: 2,
			input: []string{
				"a世b",
				"\x1b[1;3H\x1b[@", // ICH 1 on the continuation cell of 世
			},
			want:   []string{"a   b"},
			cursor: pos{2, 0},
		},
		{
			name: "DCH moves a wide char as a whole", cols: 6, rows: 2,
			input: []string{
				"ab世c",
				"\x1b[1;1H\x1b[2P", // DCH 2
			},
			want:   []string{"世c"},
			cursor: pos{0, 0},
		},
		{
			name: "tab stops: TBC and HTS", cols: 30, rows: 2,
			input: []string{
				"\x1b[3g",        // clear all tab stops
				"\x1b[1;5H\x1bH", // HTS at column 5
				"\r\tx",
				"\tY", // no more stops: go to the last column
			},
			want:   []string{"    x                        Y"},
			cursor: pos{29, 0},
		},
		{
			name: "CHT and CBT", cols: 30, rows: 2,
			input:  []string{"\x1b[2Ix\x1b[2Zy"}, // CHT 2 -> col 16, CBT 2 -> col 8
			want:   []string{"        y       x"},
			cursor: pos{9, 0},
		},
		{
			name: "origin mode makes CUP relative to the margins", cols: 5, rows: 5,
			input: []string{
				"\x1b[2;4r", // DECSTBM rows 2..4
				"\x1b[?6h",  // DECOM on: cursor to the region's home
				"\x1b[2;2Hx",
				"\x1b[9;1Hy", // clamped to the region's bottom
			},
			want:   []string{"", "", " x", "y"},
			cursor: pos{1, 3},
		},
		{
			name: "ECH with a pen background", cols: 5, rows: 2,
			input:  []string{"abcde\x1b[44m\x1b[1;2H\x1b[2X\x1b[0m"}, // ECH with blue bg
			want:   []string{"a  de"},
			cursor: pos{1, 0},
		},
		{
			name: "C1 bytes and NUL are ignored", cols: 10, rows: 2,
			input:  []string{"a\x00b\x85c"},
			want:   []string{"abc"},
			cursor: pos{3, 0},
		},
		{
			name: "CAN aborts a sequence", cols: 10, rows: 2,
			input:  []string{"a\x1b[3\x18b"},
			want:   []string{"ab"},
			cursor: pos{2, 0},
		},
		{
			name: "DECALN fills the screen", cols: 3, rows: 2,
			input:  []string{"\x1b#8"},
			want:   []string{"EEE", "EEE"},
			cursor: pos{0, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			term := New(tc.cols, tc.rows, Options{})
			feed(term, tc.input...)
			checkScreen(t, term, tc.want)
			checkCursor(t, term, tc.cursor.col, tc.cursor.row)
		})
	}
}

func TestReflow(t *testing.T) {
	term := New(10, 3, Options{})
	feed(term, "0123456789abcde\r\n$ ")
	checkScreen(t, term, []string{"0123456789", "abcde", "$"})
	checkCursor(t, term, 2, 2)

	term.Resize(5, 3) // narrower: 15 chars take 3 rows, one row goes to scrollback
	checkScreen(t, term, []string{"56789", "abcde", "$"})
	checkCursor(t, term, 2, 2)
	if got := term.Read(ReadOptions{Source: SourceRecentUnwrapped}).Text; got != "0123456789abcde\n$" {
		t.Fatalf("unwrapped after reflow = %q", got)
	}

	term.Resize(20, 3) // wider: the line that started in scrollback comes back whole
	checkScreen(t, term, []string{"0123456789abcde", "$"})
	checkCursor(t, term, 2, 1)

	// Wide characters are never split; the cursor follows its character.
	term = New(6, 3, Options{})
	feed(term, "ab世界cd\x1b[1;5H") // cursor on 界 (row 1, col 5)
	term.Resize(5, 3)
	checkScreen(t, term, []string{"ab世", "界cd"})
	checkCursor(t, term, 0, 1)
	if got := term.Read(ReadOptions{Source: SourceRecentUnwrapped}).Text; got != "ab世界cd" {
		t.Fatalf("unwrapped = %q", got)
	}
	term.Resize(1, 3)
	term.Resize(8, 3)
	if got := term.Read(ReadOptions{Source: SourceRecentUnwrapped}).Text; !strings.HasSuffix(got, "cd") {
		t.Fatalf("after 1-col round trip = %q", got)
	}

	// Combining marks move with their character.
	term = New(4, 3, Options{})
	feed(term, "abce\u0301f")
	term.Resize(8, 3)
	checkScreen(t, term, []string{"abce\u0301f"})
}

func TestReflowPendingWrap(t *testing.T) {
	term := New(5, 3, Options{})
	feed(term, "abcde") // pending wrap at the last column
	term.Resize(10, 3)
	checkCursor(t, term, 5, 0)
	feed(term, "f")
	checkScreen(t, term, []string{"abcdef"})

	term = New(10, 3, Options{})
	feed(term, "abcde")
	term.Resize(5, 3) // the cursor after "abcde" becomes a pending wrap
	checkCursor(t, term, 4, 0)
	feed(term, "f")
	checkScreen(t, term, []string{"abcde", "f"})
}
