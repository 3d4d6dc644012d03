package emulator

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// copyTerm is a terminal of cols×rows fed s (LF as CRLF).
func copyTerm(t testing.TB, cols, rows int, s string) *Terminal {
	t.Helper()
	term := New(cols, rows, Options{ScrollbackLimitBytes: 1 << 26})
	term.WriteString(strings.ReplaceAll(s, "\n", "\r\n"))
	return term
}

func pt(row, col int) TextPoint { return TextPoint{Row: row, Col: col} }

func TestTextRowsSpanHistoryAndScreen(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	term := copyTerm(t, 20, 4, b.String())
	// 10 lines and the empty last row: 7 went to history.
	if got := term.ScrollbackLines(); got != 7 {
		t.Fatalf("history lines = %d, want 7", got)
	}
	if got := term.TextRows(); got != 11 {
		t.Fatalf("TextRows = %d, want 11", got)
	}
	// From the oldest history line to the screen, both ends included.
	if got, want := term.ReadText(pt(5, 5), pt(8, 3)), "6\nline 7\nline 8\nline"; got != want {
		t.Fatalf("ReadText = %q, want %q", got, want)
	}
	// Either order, and points past the text are clamped.
	if got, want := term.ReadText(pt(99, 99), pt(9, 0)), "line 10\n"; got != want {
		t.Fatalf("ReadText clamped = %q, want %q", got, want)
	}
}

func TestReadTextJoinsWrappedRowsAndKeepsWideCharacters(t *testing.T) {
	term := copyTerm(t, 10, 3, "abcdefghijKLM\n世界x\n")
	if got, want := term.ReadText(pt(0, 0), pt(1, 9)), "abcdefghijKLM"; got != want {
		t.Fatalf("wrapped = %q, want %q", got, want)
	}
	// A point on the second half of a wide character takes all of it.
	if got, want := term.ReadText(pt(2, 1), pt(2, 3)), "世界"; got != want {
		t.Fatalf("wide = %q, want %q", got, want)
	}
}

func TestMotions(t *testing.T) {
	term := copyTerm(t, 30, 8, "  foo.bar baz-qux\n\nx\n  last_word, end\n")
	cases := []struct {
		name string
		from TextPoint
		m    Motion
		want TextPoint
	}{
		{"line end", pt(0, 0), MotionLineEnd, pt(0, 16)},
		{"line end on a blank row", pt(1, 5), MotionLineEnd, pt(1, 0)},
		{"first non-blank", pt(0, 10), MotionFirstNonBlank, pt(0, 2)},
		{"first non-blank on a blank row", pt(1, 3), MotionFirstNonBlank, pt(1, 0)},
		{"w from blanks", pt(0, 0), MotionNextWordStart, pt(0, 2)},
		{"w stops at punctuation", pt(0, 2), MotionNextWordStart, pt(0, 5)},
		{"w after punctuation", pt(0, 5), MotionNextWordStart, pt(0, 6)},
		{"w over a line end and a blank line", pt(0, 14), MotionNextWordStart, pt(2, 0)},
		{"b", pt(0, 6), MotionPreviousWordStart, pt(0, 5)},
		{"b back over blank lines", pt(2, 0), MotionPreviousWordStart, pt(0, 14)},
		{"b at the very start stays", pt(0, 0), MotionPreviousWordStart, pt(0, 0)},
		{"e", pt(0, 2), MotionNextWordEnd, pt(0, 4)},
		{"e to the next word", pt(0, 4), MotionNextWordEnd, pt(0, 5)},
		{"W", pt(0, 2), MotionNextBigWordStart, pt(0, 10)},
		{"B", pt(0, 12), MotionPreviousBigWordStart, pt(0, 10)},
		{"E", pt(0, 2), MotionNextBigWordEnd, pt(0, 8)},
		{"E over a line", pt(0, 16), MotionNextBigWordEnd, pt(2, 0)},
		{"underscore is part of a word", pt(3, 2), MotionNextWordEnd, pt(3, 10)},
		{"{ to the blank row above", pt(2, 0), MotionPreviousParagraph, pt(1, 0)},
		{"{ to the top", pt(1, 4), MotionPreviousParagraph, pt(0, 4)},
		{"} to the blank row below", pt(0, 3), MotionNextParagraph, pt(1, 3)},
		{"} to the first blank row after", pt(2, 0), MotionNextParagraph, pt(4, 0)},
	}
	for _, c := range cases {
		if got := term.Move(c.from, c.m); got != c.want {
			t.Errorf("%s: Move(%v) = %v, want %v", c.name, c.from, got, c.want)
		}
	}
}

func TestWordMotionsOverWrapAndWideCharacters(t *testing.T) {
	// "abcdefghij" wraps into "klm": one word over two rows.
	term := copyTerm(t, 10, 4, "abcdefghijklm n\n世界 ok\n")
	if got := term.Move(pt(0, 3), MotionNextWordEnd); got != pt(1, 2) {
		t.Fatalf("e over the wrap = %v, want (1,2)", got)
	}
	if got := term.Move(pt(1, 1), MotionPreviousWordStart); got != pt(0, 0) {
		t.Fatalf("b over the wrap = %v, want (0,0)", got)
	}
	// Wide characters: one atom of two columns each.
	if got := term.Move(pt(2, 1), MotionNextWordStart); got != pt(2, 5) {
		t.Fatalf("w from a wide character = %v, want (2,5)", got)
	}
	if got := term.Move(pt(2, 5), MotionPreviousWordStart); got != pt(2, 0) {
		t.Fatalf("b to a wide word = %v, want (2,0)", got)
	}
	if got := term.Move(pt(2, 0), MotionNextWordEnd); got != pt(2, 2) {
		t.Fatalf("e on wide characters = %v, want (2,2)", got)
	}
}

func TestWordMotionBeyondTheFirstWindow(t *testing.T) {
	// A word 300 blank lines below: the window grows until it finds it.
	term := copyTerm(t, 20, 5, "start"+strings.Repeat("\n", 300)+"target\n")
	to := term.Move(pt(0, 0), MotionNextWordStart)
	if got := term.ReadText(to, pt(to.Row, to.Col+5)); got != "target" {
		t.Fatalf("w landed on %v (%q), want the target", to, got)
	}
	back := term.Move(to, MotionPreviousWordStart)
	if back != pt(0, 0) {
		t.Fatalf("b from the target = %v, want (0,0)", back)
	}
}

func TestSearch(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "row %d Foo\n", i)
	}
	term := copyTerm(t, 20, 5, b.String())
	sb := term.ScrollbackLines()
	all := term.SearchText("row 4", false)
	// row 4, row 40..49.
	if len(all) != 11 {
		t.Fatalf("matches = %d, want 11: %v", len(all), all)
	}
	if all[0] != (TextRange{pt(3, 0), pt(3, 4)}) {
		t.Fatalf("first match = %v", all[0])
	}
	// Smart case: "foo" ignores case, "Foo" matches it, "FOO" nothing.
	if !CaseSensitive("Foo") || CaseSensitive("foo") {
		t.Fatal("smart case rule")
	}
	if n := len(term.SearchText("foo", CaseSensitive("foo"))); n != 50 {
		t.Fatalf("foo: %d matches", n)
	}
	if n := len(term.SearchText("FOO", CaseSensitive("FOO"))); n != 0 {
		t.Fatalf("FOO: %d matches", n)
	}
	// A match on each side of the history/screen boundary.
	ms := term.SearchText("row 4", false)
	var history, screen bool
	for _, m := range ms {
		history = history || m.Start.Row < sb
		screen = screen || m.Start.Row >= sb
	}
	if !history || !screen {
		t.Fatalf("matches do not cover history and screen (%d history lines): %v", sb, ms)
	}
}

func TestSearchCurrentWrapsBothWays(t *testing.T) {
	ms := []TextRange{{pt(1, 0), pt(1, 2)}, {pt(5, 3), pt(5, 5)}, {pt(9, 0), pt(9, 2)}}
	cases := []struct {
		name     string
		backward bool
		cursor   TextPoint
		previous *TextRange
		want     int
	}{
		{"forward from the top", false, pt(0, 0), nil, 0},
		{"forward skips a match at the cursor", false, pt(1, 0), nil, 1},
		{"forward past the last wraps", false, pt(9, 1), nil, 0},
		{"forward from the previous match", false, pt(0, 0), &ms[1], 2},
		{"backward from the bottom", true, pt(20, 0), nil, 2},
		{"backward before the first wraps", true, pt(0, 0), nil, 2},
		{"backward from the previous match", true, pt(20, 0), &ms[1], 0},
		{"backward skips the match the cursor is in", true, pt(5, 4), nil, 0},
	}
	for _, c := range cases {
		if got := SearchCurrent(ms, c.backward, c.cursor, c.previous); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if SearchCurrent(nil, false, pt(0, 0), nil) != -1 {
		t.Error("no matches must give -1")
	}
}

func TestSearchOverWrapWideAndCombining(t *testing.T) {
	term := copyTerm(t, 10, 4, "xxxxxxxneedle y\n世界世界\ncafe\u0301 cafe\n")
	ms := term.SearchText("needle", false)
	if len(ms) != 1 || ms[0] != (TextRange{pt(0, 7), pt(1, 2)}) {
		t.Fatalf("match over the wrap: %v", ms)
	}
	ms = term.SearchText("界世", false)
	if len(ms) != 1 || ms[0] != (TextRange{pt(2, 2), pt(2, 5)}) {
		t.Fatalf("wide match: %v", ms)
	}
	// "cafe" matches the plain word only: in the other the e carries a mark.
	ms = term.SearchText("cafe", false)
	if len(ms) != 1 || ms[0].Start != pt(3, 5) {
		t.Fatalf("combining: %v", ms)
	}
	if ms = term.SearchText("CAFÉ", true); len(ms) != 0 {
		t.Fatalf("É is not e plus a mark: %v", ms)
	}
	if ms = term.SearchText("cafe\u0301", false); len(ms) != 1 || ms[0] != (TextRange{pt(3, 0), pt(3, 3)}) {
		t.Fatalf("with its mark: %v", ms)
	}
	// A non-ASCII query ignoring case.
	term = copyTerm(t, 20, 3, "ÉTÉ été\n")
	if ms = term.SearchText("été", false); len(ms) != 2 {
		t.Fatalf("non-ASCII case folding: %v", ms)
	}
}

func TestRevisionMovesWithTheText(t *testing.T) {
	term := copyTerm(t, 20, 3, "a\n")
	r := term.Revision()
	term.ScrollView(1)
	if term.Revision() != r {
		t.Fatal("scrolling the view moved the content revision")
	}
	term.WriteString("b")
	if term.Revision() == r {
		t.Fatal("printing did not move the content revision")
	}
}

func TestLinks(t *testing.T) {
	term := copyTerm(t, 20, 5, "see https://example.com/a(b)). ok\n\x1b]8;;https://herdr.dev/x\x1b\\click here please!\x1b]8;;\x1b\\ no\n\x1b]8;;file:///etc/passwd\x1b\\http://evil\x1b]8;;\x1b\\\n")
	// The plain URL wraps onto the second row; its trailing ")." goes.
	url, rs := term.LinkAt(pt(0, 6))
	if url != "https://example.com/a(b)" {
		t.Fatalf("plain url = %q", url)
	}
	want := []TextRange{{pt(0, 4), pt(0, 19)}, {pt(1, 0), pt(1, 7)}}
	if fmt.Sprint(rs) != fmt.Sprint(want) {
		t.Fatalf("regions = %v, want %v", rs, want)
	}
	if url2, _ := term.LinkAt(pt(1, 3)); url2 != url {
		t.Fatalf("from the second row: %q", url2)
	}
	if u, _ := term.LinkAt(pt(0, 1)); u != "" {
		t.Fatalf("no link on 'see', got %q", u)
	}
	// OSC 8 over "click here please!", wrapped at 20 columns.
	url, rs = term.LinkAt(pt(2, 0))
	if url != "https://herdr.dev/x" {
		t.Fatalf("osc 8 url = %q", url)
	}
	want = []TextRange{{pt(2, 0), pt(2, 17)}}
	if fmt.Sprint(rs) != fmt.Sprint(want) {
		t.Fatalf("osc 8 regions = %v, want %v", rs, want)
	}
	// An OSC 8 link to an unsafe scheme is no link, even over URL text.
	if u, _ := term.LinkAt(pt(3, 2)); u != "" {
		t.Fatalf("unsafe osc 8 gave %q", u)
	}
}

func TestLinkInHistory(t *testing.T) {
	term := copyTerm(t, 30, 3, "\x1b]8;;https://a.example/\x1b\\old link\x1b]8;;\x1b\\\n1\n2\n3\n4\n")
	if term.ScrollbackLines() == 0 {
		t.Fatal("no history")
	}
	if u, rs := term.LinkAt(pt(0, 2)); u != "https://a.example/" || len(rs) != 1 || rs[0] != (TextRange{pt(0, 0), pt(0, 7)}) {
		t.Fatalf("history link = %q %v", u, rs)
	}
}

// BenchmarkSearch100kHistory searches a history of 100,000 lines.
func BenchmarkSearch100kHistory(b *testing.B) {
	var sb strings.Builder
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&sb, "%06d some log text that a program printed, level=info\n", i)
	}
	term := copyTerm(b, 120, 40, sb.String())
	if term.ScrollbackLines() < 99_000 {
		b.Fatalf("history has %d lines", term.ScrollbackLines())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(term.SearchText("099999", false)); n != 1 {
			b.Fatalf("%d matches", n)
		}
	}
}

func TestSearchMatchOverTheHistoryScreenBoundary(t *testing.T) {
	// "aaaaaaanee" is stored in history, "dle" is the screen's top row.
	term := copyTerm(t, 10, 2, "aaaaaaaneedle\nx")
	if term.ScrollbackLines() != 1 {
		t.Fatalf("history lines = %d, want 1", term.ScrollbackLines())
	}
	ms := term.SearchText("needle", false)
	if len(ms) != 1 || ms[0] != (TextRange{pt(0, 7), pt(1, 2)}) {
		t.Fatalf("match over the boundary: %v", ms)
	}
	// Blanks at the end of a wrapped history row are part of the line.
	term = copyTerm(t, 10, 2, "needle    x\n1\n2\n")
	if ms = term.SearchText("needle    x", true); len(ms) != 1 || ms[0] != (TextRange{pt(0, 0), pt(1, 0)}) {
		t.Fatalf("match over trimmed blanks: %v", ms)
	}
	// A wide character in history, after plain history rows.
	term = copyTerm(t, 10, 2, "plain\n世界 plain\n1\n2\n")
	if ms = term.SearchText("plain", false); len(ms) != 2 || ms[1] != (TextRange{pt(1, 5), pt(1, 9)}) {
		t.Fatalf("matches in plain and wide history rows: %v", ms)
	}
}

func TestOSC8LinkWrappedOverRows(t *testing.T) {
	// A 14-cell link from column 6 of a 10-column terminal: 4 cells on
	// the first row, 10 on the second; another link follows at once.
	term := copyTerm(t, 10, 4, "word: \x1b]8;id=1;https://herdr.dev/a\x1b\\0123456789ABCD\x1b]8;;https://herdr.dev/b\x1b\\EF\x1b]8;;\x1b\\\n")
	for _, p := range []TextPoint{pt(0, 6), pt(1, 9)} {
		url, rs := term.LinkAt(p)
		want := []TextRange{{pt(0, 6), pt(0, 9)}, {pt(1, 0), pt(1, 9)}}
		if url != "https://herdr.dev/a" || fmt.Sprint(rs) != fmt.Sprint(want) {
			t.Fatalf("LinkAt(%v) = %q %v, want %v", p, url, rs, want)
		}
	}
	if url, rs := term.LinkAt(pt(2, 0)); url != "https://herdr.dev/b" || len(rs) != 1 || rs[0] != (TextRange{pt(2, 0), pt(2, 1)}) {
		t.Fatalf("the next link: %q %v", url, rs)
	}
}

// Any point, motion and search on any text answers without panicking,
// and motions stay inside the text: on the alternate screen, after a
// resize, with wide characters cut by the width.
func TestCopyModeNeverLeavesTheText(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	term := copyTerm(t, 12, 4, strings.Repeat("ab 世界 c\u0301d, e\n\x1b]8;;https://x.example/\x1b\\link\x1b]8;;\x1b\\ http://y.example/z\n", 20))
	check := func(name string) {
		rows := term.TextRows()
		cols, _ := term.Size()
		for i := 0; i < 300; i++ {
			p := pt(rng.Intn(rows+4)-2, rng.Intn(cols+4)-2)
			q := term.Move(p, Motion(rng.Intn(int(MotionNextParagraph)+1)))
			if q.Row < 0 || q.Row >= rows || q.Col < 0 || q.Col >= cols {
				t.Fatalf("%s: motion from %v left the text: %v", name, p, q)
			}
			_ = term.ReadText(p, pt(rng.Intn(rows), rng.Intn(cols)))
			_, _ = term.LinkAt(p)
		}
		for _, q := range []string{"e", "世", "é", "link", "d, e", "É"} {
			for _, m := range term.SearchText(q, CaseSensitive(q)) {
				if m.End.Less(m.Start) || m.End.Row >= rows {
					t.Fatalf("%s: bad match %v for %q", name, m, q)
				}
			}
		}
	}
	check("primary")
	term.Resize(7, 5)
	check("narrower")
	term.WriteString("\x1b[?1049h\x1b[Halt screen 世界")
	if term.TextRows() != 5 {
		t.Fatalf("alternate screen text has %d rows, want its 5", term.TextRows())
	}
	check("alternate")
}

func TestSafeLink(t *testing.T) {
	for url, want := range map[string]bool{
		"https://herdr.dev/x?a=b#c": true, "http://localhost:8080/": true, "https://例え.jp/パス": true,
		"file:///etc/passwd": false, "javascript:alert(1)": false, "HTTPS://upper.example/": false,
		"https://x.example/\x01": false, "https://x.example/\u0085": false, "https://x.example/\x7f": false, "https://x.example/\xff": false,
	} {
		if got := SafeLink(url); got != want {
			t.Errorf("SafeLink(%q) = %v, want %v", url, got, want)
		}
	}
}
