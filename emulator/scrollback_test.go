package emulator

import (
	"math/rand"
	"testing"
)

// TestScrollbackModel checks the arena ring against a simple slice model
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
		extra := 0
		cost := func(m mline) int { return len(m.text)*cellBytes + lineOverheadBytes }
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
				sb.push(l)
				if c := n*cellBytes + lineOverheadBytes; c > limit {
					keep := (limit - lineOverheadBytes) / cellBytes
					text = text[:keep]
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
				ok := sb.popNewest(l)
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
			// Fragmentation may drop a few more old lines than the
			// byte budget: the ring must hold a suffix of the model.
			if sb.len() > len(model) {
				t.Fatalf("limit %d step %d: len %d, model %d", limit, step, sb.len(), len(model))
			}
			if len(model) > 0 && sb.len() == 0 {
				t.Fatalf("limit %d step %d: ring emptied", limit, step)
			}
			extra += len(model) - sb.len()
			model = model[len(model)-sb.len():]
			if sb.bytes > limit {
				t.Fatalf("bytes %d > limit %d", sb.bytes, limit)
			}
			if step%97 == 0 {
				for i, m := range model {
					r := sb.at(i)
					cells := sb.cells(r)
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
		t.Logf("limit %d: %d lines dropped by fragmentation", limit, extra)
		if extra > 20000/10 {
			t.Errorf("limit %d: %d extra drops", limit, extra)
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
