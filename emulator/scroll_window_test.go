package emulator

import (
	"math/rand"
	"testing"
)

// TestSlideUpMatchesRotate checks that sliding the screen's window is the
// rotation it replaces, also after the rows were replaced or resized behind
// the window's back (shrunk in place, grown by append, rebuilt), and that
// the rows have no spare capacity after a slide (an append to them must not
// write into the window).
func TestSlideUpMatchesRotate(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	s := newScreen(4, 5)
	want := append([]*line(nil), s.lines...)
	for step := 0; step < 2000; step++ {
		switch rng.Intn(10) {
		case 0: // a resize appends rows
			l := blankLine(4)
			s.lines = append(s.lines, l)
			want = append(want, l)
		case 1: // a resize drops rows
			if len(s.lines) > 1 {
				s.lines = s.lines[:len(s.lines)-1]
				want = want[:len(want)-1]
			}
		case 2: // a reflow builds new rows
			s.lines = append([]*line(nil), s.lines...)
		default:
			s.slideUp()
			rotateLeft(want, 1)
			if cap(s.lines) != len(s.lines) {
				t.Fatalf("step %d: the rows have spare capacity in the window", step)
			}
		}
		if len(s.lines) != len(want) {
			t.Fatalf("step %d: %d rows, want %d", step, len(s.lines), len(want))
		}
		for i := range want {
			if s.lines[i] != want[i] {
				t.Fatalf("step %d: row %d is not the rotated row", step, i)
			}
		}
	}
}
