package emulator

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// movingOutput is a chunk of terminal output that exercises what moves
// rows: text that wraps, wide and combining characters, erases, scroll
// regions, IL/DL/SU/SD, reverse index, the alternate screen, clearing the
// scrollback, a full reset.
func movingOutput(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.Intn(12) {
		switch k := rng.Intn(41); {
		case k < 14:
			n := 1 + rng.Intn(30)
			for range n {
				b.WriteByte("abcxyz -=#"[rng.Intn(10)])
			}
		case k < 20:
			b.WriteString("\r\n")
		case k == 20:
			b.WriteString("世界")
		case k == 21:
			b.WriteString("e\u0301")
		case k == 22:
			fmt.Fprintf(&b, "\x1b[%dK", rng.Intn(3))
		case k == 23:
			fmt.Fprintf(&b, "\x1b[%dJ", rng.Intn(4))
		case k == 24:
			fmt.Fprintf(&b, "\x1b[%d;%dH", 1+rng.Intn(8), 1+rng.Intn(24))
		case k == 25:
			fmt.Fprintf(&b, "\x1b[%dL", 1+rng.Intn(3))
		case k == 26:
			fmt.Fprintf(&b, "\x1b[%dM", 1+rng.Intn(3))
		case k == 27:
			fmt.Fprintf(&b, "\x1b[%dS", 1+rng.Intn(3))
		case k == 28:
			fmt.Fprintf(&b, "\x1b[%dT", 1+rng.Intn(3))
		case k == 29:
			b.WriteString("\x1bM")
		case k == 30:
			top := 1 + rng.Intn(4)
			fmt.Fprintf(&b, "\x1b[%d;%dr", top, top+rng.Intn(5))
		case k == 31:
			b.WriteString("\x1b[r")
		case k == 32 && rng.Intn(4) == 0:
			b.WriteString("\x1b[?1049h")
		case k == 33:
			b.WriteString("\x1b[?1049l")
		case k == 34 && rng.Intn(8) == 0:
			b.WriteString("\x1bc")
		case k == 35:
			fmt.Fprintf(&b, "\x1b[3%dm", rng.Intn(8))
		case k == 36:
			b.WriteString("\x1b[0m")
		case k == 37:
			fmt.Fprintf(&b, "\x1b[%d@", 1+rng.Intn(4))
		case k == 38:
			fmt.Fprintf(&b, "\x1b[%dP", 1+rng.Intn(4))
		case k == 39:
			b.WriteString([]string{"\b\b", "\t", "\x1b[?7l", "\x1b[?7h", "\x1b[5X"}[rng.Intn(5)])
		default:
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestReadChanged_NeverSkipsANewLine feeds random output in chunks and,
// after each, checks that every line of the window Read returns was handed
// to a ReadChanged match at some point since the mark last started over:
// a query that declined them all cannot match the window, so a wait that
// searches only what ReadChanged hands it misses nothing Read would find.
func TestReadChanged_NeverSkipsANewLine(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewSource(seed))
		limit := 2000 + rng.Intn(4000)
		if seed%7 == 0 {
			limit = -1 // no scrollback
		}
		term := New(24, 8, Options{ScrollbackLimitBytes: limit})
		opts := ReadOptions{Source: SourceRecentUnwrapped, Lines: []int{3, 10, 30}[seed%3], ANSI: seed%2 == 0}
		if seed%5 == 0 {
			opts.Source = SourceRecent
		}
		var mark ReadMark
		seen := map[string]bool{}
		for step := range 400 {
			if rng.Intn(40) == 0 {
				term.Resize(16+rng.Intn(16), 5+rng.Intn(6))
			}
			term.WriteString(movingOutput(rng))
			if mark.t == nil {
				clear(seen) // the next search hands over the whole window
			}
			term.ReadChanged(opts, &mark, func(line []byte) bool {
				seen[string(line)] = true
				return false
			})
			if mark.t == nil {
				continue // not incremental (the alternate screen): Read is the answer
			}
			full := term.Read(opts)
			for _, line := range strings.Split(full.Text, "\n") {
				if !seen[line] {
					t.Fatalf("seed %d step %d: line %q of the window was never searched\nwindow:\n%s", seed, step, line, full.Text)
				}
			}
		}
	}
}

// TestReadChanged_SearchesOnlyNewLines: under a flood of lines, a search
// renders about the lines written since the last one, not the window.
func TestReadChanged_SearchesOnlyNewLines(t *testing.T) {
	term := New(80, 24, Options{})
	opts := ReadOptions{Source: SourceRecentUnwrapped, Lines: 200}
	var mark ReadMark
	searched := 0
	count := func(line []byte) bool { searched++; return false }
	n := 0
	write := func(lines int) {
		for range lines {
			n++
			term.WriteString(fmt.Sprintf("line %d of the flood\r\n", n))
		}
	}
	write(500)
	if term.ReadChanged(opts, &mark, count) {
		t.Fatal("a line matched a query that matches none")
	}
	if searched != 200 {
		t.Fatalf("the first search read %d lines, want the window's 200", searched)
	}
	for _, batch := range []int{1, 7, 30, 150} {
		searched = 0
		write(batch)
		term.ReadChanged(opts, &mark, count)
		// The batch's lines, the row the cursor sits on, and the row it
		// left (written last time: blank then, its line now).
		if searched > batch+2 {
			t.Fatalf("after %d new lines, %d were searched", batch, searched)
		}
	}
	// A match stops the search and the mark starts over.
	write(3)
	var got string
	if !term.ReadChanged(opts, &mark, func(line []byte) bool { got = string(line); return strings.Contains(got, "line 690 ") }) {
		t.Fatal("the new line 690 was not found")
	}
	if got != "line 690 of the flood" {
		t.Fatalf("matched %q", got)
	}
	searched = 0
	term.ReadChanged(opts, &mark, count)
	if searched != 200 {
		t.Fatalf("after a match the search read %d lines, want the whole window", searched)
	}
}

// BenchmarkWaitSearch is a pending wait's search after every 4 KiB of a
// flood of printable text (a 120x40 pane, the default recent window):
// "read" reads and splits the whole window as the pane's waits did,
// "changed" searches the lines changed since (ReadChanged).
func BenchmarkWaitSearch(b *testing.B) {
	data := printableText()
	const chunk = 4 << 10
	opts := ReadOptions{Source: SourceRecentUnwrapped, MaxBytes: 4 << 20}
	needle := []byte("no such line")
	run := func(b *testing.B, search func(term *Terminal) bool) {
		term := New(120, 40, Options{})
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			for off := 0; off < len(data); off += chunk {
				term.Write(data[off:min(off+chunk, len(data))])
				if search(term) {
					b.Fatal("matched")
				}
			}
		}
	}
	b.Run("read", func(b *testing.B) {
		run(b, func(term *Terminal) bool {
			for _, line := range strings.Split(term.Read(opts).Text, "\n") {
				if strings.Contains(line, string(needle)) {
					return true
				}
			}
			return false
		})
	})
	b.Run("changed", func(b *testing.B) {
		var mark ReadMark
		run(b, func(term *Terminal) bool {
			return term.ReadChanged(opts, &mark, func(line []byte) bool { return bytes.Contains(line, needle) })
		})
	})
}

// TestReadChanged_CannotTellMeansReadTheWindow: where ReadChanged cannot
// vouch for the lines it skips (another source, the alternate screen, an
// empty window, a line over MaxBytes), it answers true without covering
// anything, so the caller reads the whole window, and the next search
// starts over.
func TestReadChanged_CannotTellMeansReadTheWindow(t *testing.T) {
	never := func([]byte) bool { return false }
	recent := ReadOptions{Source: SourceRecentUnwrapped}
	cases := []struct {
		name  string
		setup func(*Terminal)
		opts  ReadOptions
	}{
		{"empty", func(*Terminal) {}, recent},
		{"visible", func(term *Terminal) { term.WriteString("text\r\n") }, ReadOptions{Source: SourceVisible}},
		{"detection", func(term *Terminal) { term.WriteString("text\r\n") }, ReadOptions{Source: SourceDetection}},
		{"alternate screen", func(term *Terminal) { term.WriteString("text\x1b[?1049hmore") }, recent},
		{"over MaxBytes", func(term *Terminal) { term.WriteString(strings.Repeat("x", 50)) }, ReadOptions{Source: SourceRecent, MaxBytes: 10}},
	}
	for _, c := range cases {
		term := New(80, 10, Options{})
		c.setup(term)
		var mark ReadMark
		for range 2 {
			if !term.ReadChanged(c.opts, &mark, never) {
				t.Fatalf("%s: ReadChanged vouched for a window it cannot search", c.name)
			}
			if mark.t != nil {
				t.Fatalf("%s: the mark covers lines no search declined", c.name)
			}
		}
	}
	// Negative and huge line counts read the default and the longest
	// window, as Read does.
	term := New(80, 10, Options{})
	for i := range 1200 {
		term.WriteString(fmt.Sprintf("l%d\r\n", i))
	}
	for _, lines := range []int{-5, 0, 5000} {
		var mark ReadMark
		n := 0
		term.ReadChanged(ReadOptions{Source: SourceRecent, Lines: lines}, &mark, func([]byte) bool { n++; return false })
		want := len(strings.Split(term.Read(ReadOptions{Source: SourceRecent, Lines: lines}).Text, "\n"))
		if n != want {
			t.Fatalf("lines %d: searched %d lines, Read returns %d", lines, n, want)
		}
	}
}
