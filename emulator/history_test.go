package emulator

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// historyTerm is a terminal that printed n numbered lines, every tenth
// one red and one with a combining mark, then a prompt.
func historyTerm(t *testing.T, cols, rows, n int) *Terminal {
	t.Helper()
	term := New(cols, rows, Options{})
	var b strings.Builder
	for i := 1; i <= n; i++ {
		switch {
		case i%10 == 0:
			fmt.Fprintf(&b, "\x1b[31mline %04d red\x1b[0m\r\n", i)
		case i == 7:
			fmt.Fprintf(&b, "line %04d e\u0301\r\n", i)
		default:
			fmt.Fprintf(&b, "line %04d\r\n", i)
		}
	}
	b.WriteString("$ old prompt")
	term.Write([]byte(b.String()))
	return term
}

func readAll(term *Terminal, ansi bool) []string {
	return strings.Split(term.Read(ReadOptions{Source: SourceRecent, Lines: MaxRecentLines, ANSI: ansi}).Text, "\n")
}

func TestHistory_RoundTripAboveTheNewScreen(t *testing.T) {
	old := historyTerm(t, 80, 24, 500)
	data := old.ExportHistory(0)
	if err := CheckHistory(data); err != nil {
		t.Fatal(err)
	}
	term := New(80, 24, Options{})
	if err := term.ImportHistory(data, "── history restored ──"); err != nil {
		t.Fatal(err)
	}
	term.Write([]byte("$ new prompt"))
	got := readAll(term, false)
	want := []string{}
	for i := 1; i <= 500; i++ {
		switch {
		case i%10 == 0:
			want = append(want, fmt.Sprintf("line %04d red", i))
		case i == 7:
			want = append(want, fmt.Sprintf("line %04d e\u0301", i))
		default:
			want = append(want, fmt.Sprintf("line %04d", i))
		}
	}
	want = append(want, "$ old prompt", "── history restored ──", "$ new prompt")
	// The new screen's blank rows below the prompt follow.
	if len(got) < len(want) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Fatalf("restored lines differ:\n got %q...\nwant %q...", got[:min(len(got), 12)], want[:12])
	}
	if ansi := strings.Join(readAll(term, true), "\n"); !strings.Contains(ansi, "31mline 0500 red\x1b[0m") {
		t.Fatalf("colour not kept: %q", ansi[strings.Index(ansi, "line 0499"):][:80])
	}
	if strings.Contains(readAll(old, false)[0], "restored") {
		t.Fatal("export changed the old terminal")
	}
}

func TestHistory_ReflowsToTheNewWidth(t *testing.T) {
	old := New(40, 5, Options{})
	old.Write([]byte(strings.Repeat("a", 30) + strings.Repeat("b", 30) + "\r\nend\r\n"))
	term := New(20, 5, Options{})
	if err := term.ImportHistory(old.ExportHistory(0), "mark"); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(readAll(term, false)[:5], "|")
	if want := "aaaaaaaaaaaaaaaaaaaa|aaaaaaaaaabbbbbbbbbb|bbbbbbbbbbbbbbbbbbbb|end|mark"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	unwrapped := term.Read(ReadOptions{Source: SourceRecentUnwrapped, Lines: 10}).Text
	if !strings.HasPrefix(unwrapped, strings.Repeat("a", 30)+strings.Repeat("b", 30)+"\nend\nmark") {
		t.Fatalf("unwrapped %q", unwrapped)
	}
}

func TestHistory_KeepsTheNewestLinesWithinTheBound(t *testing.T) {
	old := historyTerm(t, 80, 24, 2000)
	const limit = 20_000
	data := old.ExportHistory(limit)
	_, lines, err := decodeHistory(data)
	if err != nil {
		t.Fatal(err)
	}
	cost := 0
	for _, l := range lines {
		cost += l.cost()
	}
	if cost > limit || cost < limit-200 {
		t.Fatalf("kept %d bytes of lines, want at most %d and close to it", cost, limit)
	}
	term := New(80, 24, Options{})
	if err := term.ImportHistory(data, ""); err != nil {
		t.Fatal(err)
	}
	got := readAll(term, false)
	if got[len(lines)-1] != "$ old prompt" || got[len(lines)-2] != "line 2000 red" {
		t.Fatalf("newest lines not kept: %q", got[len(lines)-3:len(lines)])
	}
	if strings.Contains(strings.Join(got, "\n"), "line 0001") {
		t.Fatal("the oldest lines were kept over the bound")
	}
	// A terminal with a smaller scrollback keeps its own limit.
	small := New(80, 24, Options{ScrollbackLimitBytes: 5_000})
	if err := small.ImportHistory(data, "mark"); err != nil {
		t.Fatal(err)
	}
	if small.sb.bytes > 5_000 || small.sb.len() == 0 {
		t.Fatalf("scrollback holds %d bytes in %d lines", small.sb.bytes, small.sb.len())
	}
}

func TestHistory_CorruptDataChangesNothing(t *testing.T) {
	data := historyTerm(t, 80, 24, 100).ExportHistory(0)
	cases := map[string][]byte{
		"empty":     nil,
		"magic":     []byte("hrdrhist"),
		"truncated": data[:len(data)/2],
		"flipped":   append(append([]byte{}, data[:40]...), append([]byte{data[40] ^ 1}, data[41:]...)...),
		"snapshot":  func() []byte { b, _ := New(10, 2, Options{}).Snapshot(); return b }(),
	}
	for name, bad := range cases {
		term := New(80, 24, Options{})
		term.Write([]byte("x"))
		rev := term.Revision()
		if err := term.ImportHistory(bad, "mark"); !errors.Is(err, ErrHistoryCorrupt) {
			t.Errorf("%s: err %v, want ErrHistoryCorrupt", name, err)
		}
		if term.sb.len() != 0 || term.Revision() != rev {
			t.Errorf("%s: the terminal changed", name)
		}
	}
}

func TestHistory_AlternateScreenLeftOut(t *testing.T) {
	term := New(40, 5, Options{})
	term.Write([]byte("shell line\r\n\x1b[?1049hfull screen app"))
	term2 := New(40, 5, Options{})
	if err := term2.ImportHistory(term.ExportHistory(0), ""); err != nil {
		t.Fatal(err)
	}
	if got := readAll(term2, false)[0]; got != "shell line" {
		t.Fatalf("got %q", got)
	}
	if strings.Contains(strings.Join(readAll(term2, false), "\n"), "full screen") {
		t.Fatal("the alternate screen was exported")
	}
}

func TestHistory_MarkerDrawsNoControls(t *testing.T) {
	term := New(40, 5, Options{})
	if err := term.ImportHistory(New(40, 5, Options{}).ExportHistory(0), "a\x1b[31mb\x07c\u4e00"); err != nil {
		t.Fatal(err)
	}
	if got := readAll(term, false)[0]; got != "a?[31mb?c?" {
		t.Fatalf("got %q", got)
	}
}
