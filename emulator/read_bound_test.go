package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// TestReadMaxBytes: a bounded read is the newest whole rows (whole lines,
// unwrapped) of the unbounded one that fit, and says it was cut.
func TestReadMaxBytes(t *testing.T) {
	term := New(30, 8, Options{})
	for i := 0; i < 40; i++ {
		feed(term, fmt.Sprintf("\x1b[3%dmrow %02d %s\x1b[0m\r\n", i%8, i, strings.Repeat("ab", i%25)))
	}
	for _, src := range []Source{SourceVisible, SourceRecent, SourceRecentUnwrapped} {
		for _, ansi := range []bool{false, true} {
			full := term.Read(ReadOptions{Source: src, Lines: 1000, ANSI: ansi})
			if same := term.Read(ReadOptions{Source: src, Lines: 1000, ANSI: ansi, MaxBytes: len(full.Text)}); same != full {
				t.Fatalf("%v ansi=%v: a bound the text fits changed the read: %q, want %q", src, ansi, same.Text, full.Text)
			}
			for _, max := range []int{1, 50, 200, len(full.Text) - 1} {
				if max >= len(full.Text) {
					continue
				}
				got := term.Read(ReadOptions{Source: src, Lines: 1000, ANSI: ansi, MaxBytes: max})
				if len(got.Text) > max || !got.Truncated || !strings.HasSuffix(full.Text, got.Text) {
					t.Fatalf("%v ansi=%v max=%d: got %d bytes truncated=%v, not a suffix of the full read", src, ansi, max, len(got.Text), got.Truncated)
				}
				if got.Text != "" && full.Text[len(full.Text)-len(got.Text)-1] != '\n' {
					t.Fatalf("%v ansi=%v max=%d: cut inside a line: %q", src, ansi, max, got.Text)
				}
			}
		}
	}
}

// BenchmarkRead_WideANSI is an ANSI read of a 1000-column pane whose every
// cell has its own colour, bounded as pane.read bounds it (4 MiB).
func BenchmarkRead_WideANSI(b *testing.B) {
	term := New(1000, 50, Options{})
	var in strings.Builder
	for l := 0; l < 1100; l++ {
		for c := 0; c < 1000; c++ {
			fmt.Fprintf(&in, "\x1b[38;2;%d;%d;%dm%c", (l*7+c)%256, c%256, (l+c*3)%256, 'a'+c%26)
		}
		in.WriteString("\r\n")
	}
	feed(term, in.String())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := term.Read(ReadOptions{Source: SourceRecent, Lines: 1000, ANSI: true, MaxBytes: 4 << 20})
		b.SetBytes(int64(len(r.Text)))
	}
}
