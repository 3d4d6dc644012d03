package emulator

import (
	"math/rand"
	"testing"
)

// TestCellWord checks fillASCII and asciiRun (one word a cell on
// little-endian machines) against field-by-field loops, on cells of mixed
// styles, flags and characters.
func TestCellWord(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	chars := []rune{0, ' ', 'a', '~', 0x7f, 0x1f, 'é', 0x10000 + 'a', -1}
	for round := 0; round < 2000; round++ {
		n := rng.Intn(40)
		cells := make([]cell, n)
		for k := range cells {
			cells[k] = cell{ch: rune(0x20 + rng.Intn(0x5f)), style: uint16(rng.Intn(3))}
			if rng.Intn(8) == 0 {
				cells[k].ch = chars[rng.Intn(len(chars))]
			}
			if rng.Intn(10) == 0 {
				cells[k].flags = uint8(1 << rng.Intn(8))
			}
		}
		st := uint16(rng.Intn(3))
		want := 0
		for want < n && cells[want].style == st && cells[want].flags == 0 && cells[want].ch >= 0x20 && cells[want].ch < 0x7f {
			want++
		}
		out := make([]byte, n)
		if got := asciiRun(out, cells, st); got != want {
			t.Fatalf("round %d: asciiRun = %d, want %d (%v, style %d)", round, got, want, cells, st)
		}
		for k := 0; k < want; k++ {
			if out[k] != byte(cells[k].ch) {
				t.Fatalf("round %d: byte %d = %q, want %q", round, k, out[k], cells[k].ch)
			}
		}

		src := make([]byte, rng.Intn(n+1))
		for k := range src {
			src[k] = byte(0x20 + rng.Intn(0x5f))
		}
		before := append([]cell(nil), cells...)
		fillASCII(cells, src, st)
		for k := range cells {
			w := before[k]
			if k < len(src) {
				w = cell{ch: rune(src[k]), style: st}
			}
			if cells[k] != w {
				t.Fatalf("round %d: fillASCII cell %d = %+v, want %+v", round, k, cells[k], w)
			}
		}
	}
}
