package emulator

import (
	"fmt"
	"strings"
	"testing"
)

func TestReadVisible(t *testing.T) {
	term := New(20, 6, Options{})
	feed(term, "one   \r\ntwo\r\n\r\nfour\r\n$ ")
	tests := []struct {
		name      string
		lines     int
		want      string
		truncated bool
	}{
		{"all, trailing blanks and spaces trimmed", 0, "one\ntwo\n\nfour\n$", false},
		{"last 2", 2, "four\n$", true},
		{"more than available", 10, "one\ntwo\n\nfour\n$", false},
		{"exactly available", 5, "one\ntwo\n\nfour\n$", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := term.Read(ReadOptions{Source: SourceVisible, Lines: tc.lines})
			if got.Text != tc.want || got.Truncated != tc.truncated {
				t.Fatalf("got %q truncated=%v, want %q truncated=%v", got.Text, got.Truncated, tc.want, tc.truncated)
			}
		})
	}
	// A fresh shell with a prompt on row 1 reads as one line.
	term = New(80, 24, Options{})
	feed(term, "user@host:~$ ")
	if got := term.Read(ReadOptions{}).Text; got != "user@host:~$" {
		t.Fatalf("fresh prompt = %q", got)
	}
	if got := New(10, 3, Options{}).Read(ReadOptions{}); got.Text != "" || got.Truncated {
		t.Fatalf("empty terminal = %+v", got)
	}
}

func TestReadRecent(t *testing.T) {
	term := New(10, 5, Options{})
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(term, "l%d\r\n", i)
	}
	feed(term, "$ ")
	// 96 lines in scrollback + "l97".."l100", "$" on screen = 101 rows.
	got := term.Read(ReadOptions{Source: SourceRecent})
	rows := strings.Split(got.Text, "\n")
	if len(rows) != DefaultRecentLines || !got.Truncated || rows[0] != "l22" || rows[79] != "$" {
		t.Fatalf("default recent: %d rows, first %q last %q truncated=%v", len(rows), rows[0], rows[len(rows)-1], got.Truncated)
	}
	got = term.Read(ReadOptions{Source: SourceRecent, Lines: 3})
	if got.Text != "l99\nl100\n$" || !got.Truncated {
		t.Fatalf("recent 3 = %q %v", got.Text, got.Truncated)
	}
	got = term.Read(ReadOptions{Source: SourceRecent, Lines: 500})
	if rows := strings.Split(got.Text, "\n"); len(rows) != 101 || got.Truncated || rows[0] != "l1" {
		t.Fatalf("recent 500: %d rows truncated=%v", len(rows), got.Truncated)
	}
	// Trailing blank screen rows are dropped before counting.
	feed(term, "\x1b[2J\x1b[H")
	got = term.Read(ReadOptions{Source: SourceRecent, Lines: 2})
	if got.Text != "l95\nl96" {
		t.Fatalf("recent after clear = %q", got.Text)
	}
	// Lines is capped at MaxRecentLines.
	term = New(10, 5, Options{})
	for i := 1; i <= 1500; i++ {
		fmt.Fprintf(term, "l%d\r\n", i)
	}
	got = term.Read(ReadOptions{Source: SourceRecent, Lines: 5000})
	if rows := strings.Split(got.Text, "\n"); len(rows) != MaxRecentLines || !got.Truncated || rows[len(rows)-1] != "l1500" {
		t.Fatalf("capped recent: %d rows truncated=%v", len(rows), got.Truncated)
	}
}

func TestReadRecentUnwrapped(t *testing.T) {
	term := New(4, 3, Options{})
	feed(term, "aaaabbbbcc\r\n", "dd\r\n", "eeeeff")
	// Rendered rows: aaaa bbbb cc dd eeee ff (aaaa, bbbb, eeee soft-wrapped).
	got := term.Read(ReadOptions{Source: SourceRecent, Lines: 6})
	if got.Text != "aaaa\nbbbb\ncc\ndd\neeee\nff" || got.Truncated {
		t.Fatalf("recent = %q", got.Text)
	}
	got = term.Read(ReadOptions{Source: SourceRecentUnwrapped, Lines: 6})
	if got.Text != "aaaabbbbcc\ndd\neeeeff" || got.Truncated {
		t.Fatalf("unwrapped = %q", got.Text)
	}
	// N counts rendered rows before unwrapping: the window starts mid-line.
	got = term.Read(ReadOptions{Source: SourceRecentUnwrapped, Lines: 5})
	if got.Text != "bbbbcc\ndd\neeeeff" || !got.Truncated {
		t.Fatalf("unwrapped 5 = %q %v", got.Text, got.Truncated)
	}
	// A soft-wrapped last row is simply the end.
	term = New(4, 3, Options{})
	feed(term, "abcdef\x1b[1;1H")
	got = term.Read(ReadOptions{Source: SourceRecentUnwrapped, Lines: 1})
	if got.Text != "ef" {
		t.Fatalf("unwrapped 1 = %q", got.Text)
	}
}

func TestReadDetection(t *testing.T) {
	term := New(10, 3, Options{})
	feed(term, "\x1b[31mold\r\n1\r\n2\r\n3\r\n\x1b[1m>")
	got := term.Read(ReadOptions{Source: SourceDetection, ANSI: true})
	if got.Text != "2\n3\n>" || got.Truncated {
		t.Fatalf("detection = %q", got.Text)
	}
	got = term.Read(ReadOptions{Source: SourceDetection, Lines: 1})
	if got.Text != ">" || !got.Truncated {
		t.Fatalf("detection 1 = %q %v", got.Text, got.Truncated)
	}
	// On the alternate screen visible and detection read it, recent has no
	// scrollback.
	feed(term, "\x1b[?1049h\x1b[Halt")
	for _, src := range []Source{SourceVisible, SourceDetection, SourceRecent, SourceRecentUnwrapped} {
		if got := term.Read(ReadOptions{Source: src}).Text; got != "alt" {
			t.Fatalf("%v on alt screen = %q", src, got)
		}
	}
}

func TestReadANSI(t *testing.T) {
	term := New(20, 3, Options{})
	feed(term, "a\x1b[1;31mbc\x1b[0md \x1b[4;38;5;200;48;2;1;2;3me\x1b[m  ")
	got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	want := "a\x1b[0;1;31mbc\x1b[0md \x1b[0;4;38;5;200;48;2;1;2;3me\x1b[0m"
	if got != want {
		t.Fatalf("ansi\n got %q\nwant %q", got, want)
	}
	if plain := term.Read(ReadOptions{Source: SourceVisible}).Text; plain != "abcd e" {
		t.Fatalf("plain %q", plain)
	}
	// Bright colours, every attribute; background-coloured blanks are kept.
	term = New(20, 3, Options{})
	feed(term, "\x1b[2;3;5;7;8;9;92;104mx\x1b[0;44m  \x1b[0m")
	got = term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	want = "\x1b[0;2;3;5;7;8;9;92;104mx\x1b[0;44m  \x1b[0m"
	if got != want {
		t.Fatalf("ansi\n got %q\nwant %q", got, want)
	}
}

func TestSourceNames(t *testing.T) {
	for _, s := range []Source{SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection} {
		p, ok := ParseSource(s.String())
		if !ok || p != s {
			t.Fatalf("round trip of %v", s)
		}
	}
	if _, ok := ParseSource("nope"); ok {
		t.Fatal("unknown source parsed")
	}
}
