package emulator

import (
	"math/rand"
	"strings"
	"testing"
)

// TestScrollbackModel checks the block ring against a simple slice model
// under random pushes, pops and clears.
func TestScrollbackModel(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, limit := range []int{100, 1000, 5000, 40000} {
		sb := newScrollback(limit)
		type mline struct {
			text    []rune
			wrapped bool
		}
		var model []mline
		// ASCII encodes as one byte a cell.
		cost := func(m mline) int { return len(m.text) + lineOverheadBytes }
		st, links := newStyleTable(), &linkTable{}
		intern := func(style, string) uint16 { return 0 }
		for step := 0; step < 20000; step++ {
			switch op := rng.Intn(20); {
			case op < 15: // push
				cols := 1 + rng.Intn(60)
				l := newLine(cols, 0)
				n := rng.Intn(cols + 1)
				text := make([]rune, n)
				for i := range text {
					text[i] = rune('a' + rng.Intn(26))
					l.cells[i] = cell{ch: text[i]}
				}
				l.touch(n)
				l.wrapped = rng.Intn(2) == 0
				sb.push(l, &st, links)
				if c := n + lineOverheadBytes; c > limit {
					text = text[:limit-lineOverheadBytes]
				}
				model = append(model, mline{text, l.wrapped})
				total := 0
				for _, m := range model {
					total += cost(m)
				}
				for total > limit {
					total -= cost(model[0])
					model = model[1:]
				}
			case op < 19: // pop
				l := newLine(64, 0)
				ok := sb.popNewest(l, intern)
				if ok != (len(model) > 0) {
					t.Fatalf("pop ok=%v with model len %d", ok, len(model))
				}
				if ok {
					m := model[len(model)-1]
					model = model[:len(model)-1]
					for i, r := range m.text {
						if l.cells[i].ch != r {
							t.Fatalf("popped line differs at %d", i)
						}
					}
					if l.wrapped != m.wrapped {
						t.Fatal("popped wrap flag differs")
					}
				}
			default:
				if rng.Intn(50) == 0 {
					sb.clear()
					model = nil
				}
			}
			// Exactly the byte budget decides what is kept.
			if sb.len() != len(model) {
				t.Fatalf("limit %d step %d: len %d, model %d", limit, step, sb.len(), len(model))
			}
			if sb.bytes > limit {
				t.Fatalf("bytes %d > limit %d", sb.bytes, limit)
			}
			if step%97 == 0 {
				for i, m := range model {
					r := sb.at(i)
					cells := sb.decode(nil, r, 1<<16, intern)
					if len(cells) != len(m.text) || r.wrapped != m.wrapped {
						t.Fatalf("line %d: len %d want %d", i, len(cells), len(m.text))
					}
					for j, ch := range m.text {
						if cells[j].ch != ch {
							t.Fatalf("line %d differs at %d", i, j)
						}
					}
				}
			}
		}
		// Storage stays within the budget plus two blocks.
		held, live := 0, 0
		seen := map[uint32]bool{}
		for _, b := range []uint32{sb.cur, sb.spare} {
			if b != noBlock && !seen[b] {
				seen[b] = true
				held += cap(sb.blocks[b].data)
			}
		}
		for i := 0; i < sb.len(); i++ {
			if b := sb.at(i).blk; !seen[b] {
				seen[b] = true
				held += cap(sb.blocks[b].data)
			}
		}
		// Every other block slot is free.
		for i, b := range sb.blocks {
			if b.data != nil {
				live++
				if !seen[uint32(i)] {
					t.Errorf("limit %d: block %d is neither used nor free", limit, i)
				}
			}
		}
		if live+len(sb.free) != len(sb.blocks) {
			t.Errorf("limit %d: %d live blocks + %d free slots != %d", limit, live, len(sb.free), len(sb.blocks))
		}
		if held > limit+3*sb.blockSize {
			t.Errorf("limit %d: blocks hold %d bytes", limit, held)
		}
	}
}

func TestResizeGrowKeepsPromptAtTop(t *testing.T) {
	term := New(10, 3, Options{})
	feed(term, "1\r\n2\r\n3\r\n4\r\n5")
	feed(term, "\x1b[H\x1b[2J$ ") // like Ctrl-L: prompt on the top row
	term.Resize(10, 6)
	checkScreen(t, term, []string{"$"})
	checkCursor(t, term, 2, 0)
	if term.sb.len() != 2 {
		t.Fatalf("scrollback %d, want 2", term.sb.len())
	}
}

// TestScrollbackKeepsEverything checks that a line reads the same (text,
// ANSI, soft wrap) after it moved into scrollback, where it is stored
// encoded, and after it came back on a resize.
func TestScrollbackKeepsEverything(t *testing.T) {
	lines := []string{
		"\x1b[1;31mred\x1b[0m plain \x1b[38:2::1:2:3;48;5;200;4:3;58:5:9mx\x1b[0m",
		"wide 世界 e\u0301 \U0001F468\u200D\U0001F469 \u2764\uFE0F flag \U0001F1EB\U0001F1F7",
		"\x1b]8;id=7;https://example.com\x1b\\link\x1b]8;;\x1b\\ \x1b[44m  \x1b[0m",
		"\x1b[7;53;9;2;3;5;8mall\x1b[0m",
		"0123456789ab世界wraps", // soft-wrapped at 12 columns, wide char padded
	}
	term := New(12, 8, Options{})
	for i, l := range lines {
		if i > 0 {
			feed(term, "\r\n")
		}
		feed(term, l)
	}
	want := map[bool]string{}
	for _, ansi := range []bool{false, true} {
		want[ansi] = term.Read(ReadOptions{Source: SourceRecentUnwrapped, ANSI: ansi}).Text
	}
	feed(term, "\x1b[8;1H"+strings.Repeat("\r\n", 8)) // everything into scrollback
	if term.sb.len() < 8 {
		t.Fatalf("scrollback has %d lines", term.sb.len())
	}
	for _, ansi := range []bool{false, true} {
		got := term.Read(ReadOptions{Source: SourceRecentUnwrapped, ANSI: ansi}).Text
		got = strings.TrimRight(got, "\n")
		if got != want[ansi] {
			t.Fatalf("ansi=%v from scrollback\n got %q\nwant %q", ansi, got, want[ansi])
		}
	}
	// Growing the screen with the cursor on the last row pulls them back.
	term.Resize(12, 30)
	if term.sb.len() != 0 {
		t.Fatalf("scrollback still has %d lines", term.sb.len())
	}
	got := strings.TrimRight(term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text, "\n")
	if unwrapped := strings.TrimRight(term.Read(ReadOptions{Source: SourceRecentUnwrapped, ANSI: true}).Text, "\n"); unwrapped != want[true] {
		t.Fatalf("after pulling back\n got %q\nwant %q\n(visible %q)", unwrapped, want[true], got)
	}
}

// TestScrollbackCompact pins the memory cost of plain text in scrollback.
func TestScrollbackCompact(t *testing.T) {
	term := New(200, 50, Options{})
	line := strings.Repeat("x", 120)
	for i := 0; i < 10000; i++ {
		term.WriteString(line + "\r\n")
	}
	if n := term.sb.len(); n < 9900 {
		t.Fatalf("scrollback has %d lines", n)
	}
	if per := term.sb.bytes / term.sb.len(); per != 120+lineOverheadBytes {
		t.Fatalf("a 120-column ASCII line costs %d bytes", per)
	}
}

// TestScrollbackCombs checks that combining marks follow their line through
// eviction and pops, and that dropped lines leave none behind.
func TestScrollbackCombs(t *testing.T) {
	sb := newScrollback(20 * (lineOverheadBytes + 8))
	st, links := newStyleTable(), &linkTable{}
	for i := 0; i < 100; i++ {
		l := newLine(8, 0)
		for x := 0; x < 8; x++ {
			l.cells[x] = cell{ch: rune('a' + i%26)}
		}
		l.touch(8)
		if i%3 == 0 {
			l.addComb(i%8, rune(0x300+i))
		}
		sb.push(l, &st, links)
		first := i - sb.len() + 1
		withComb := 0
		for k := 0; k < sb.len(); k++ {
			n := first + k
			comb := sb.comb(k)
			if (n%3 == 0) != (comb != nil) || (comb != nil && comb[n%8] != string(rune(0x300+n))) {
				t.Fatalf("push %d: line %d has marks %v", i, n, comb)
			}
			if comb != nil {
				withComb++
			}
		}
		if len(sb.combs) != withComb {
			t.Fatalf("push %d: %d mark sets kept for %d lines", i, len(sb.combs), withComb)
		}
	}
	for n := 99; sb.len() > 0; n-- {
		l := newLine(8, 0)
		sb.popNewest(l, func(style, string) uint16 { return 0 })
		if (n%3 == 0) != (l.comb != nil) || (l.comb != nil && (l.comb[n%8] != string(rune(0x300+n)) || l.cells[n%8].flags&cellComb == 0)) {
			t.Fatalf("popped line %d has marks %v", n, l.comb)
		}
	}
	if len(sb.combs) != 0 {
		t.Fatalf("%d mark sets left", len(sb.combs))
	}
}
