package emulator

import "encoding/binary"

// printRun prints the run of printable ASCII (0x20..0x7e) at the start of p
// (p[0] is one) and returns its length. It finds the end of the run while
// writing the cells, one pass over the bytes instead of a scan and a copy:
// plain text is most of what programs write. Insert mode, line drawing and
// no-autowrap need the run's length first and take printASCII.
func (t *Terminal) printRun(p []byte) int {
	if t.modes.Insert || t.lineDrawing || !t.modes.AutoWrap {
		j := 1
		for j < len(p) && p[j] >= 0x20 && p[j] < 0x7f {
			j++
		}
		t.printASCII(p[:j])
		return j
	}
	t.changed = true
	pen := t.penID
	i := 0
	for {
		if t.pendingWrap {
			t.wrap()
		}
		l := t.scr.at(t.y)
		l.own()
		plain := l.plain
		t.damage(l)
		x := t.x
		cells := l.cells[x:t.cols]
		src := p[i:]
		if len(src) > len(cells) {
			src = src[:len(cells)]
		}
		n := 0
		if l.comb == nil {
			// Without combining marks, only the cells at the run's ends
			// can hold half of a wide character that is not overwritten
			// with it: the first below, the one after the run at the end.
			if cells[0].flags != 0 {
				l.breakWide(x)
			}
			// Find the run's end a word at a time, then write its cells
			// in a loop without a branch.
			if len(src) < 16 {
				// Short runs (`seq`'s numbers) skip the call.
				for n < len(src) && src[n]-0x20 < 0x7f-0x20 {
					n++
				}
			} else {
				n = printablePrefix(src)
			}
			fillASCII(cells, src[:n], pen)
		} else {
			for n < len(src) {
				c := src[n]
				if c < 0x20 || c >= 0x7f {
					break
				}
				if cells[n].flags != 0 {
					l.breakWide(x + n)
				}
				cells[n] = cell{ch: rune(c), style: pen}
				n++
			}
		}
		end := x + n
		if pen == 0 && l.comb == nil && int(plain) >= x {
			// The cells before x were plain, and so are the ones written.
			l.plain = max(plain, uint16(end))
		}
		l.touch(end)
		if end < t.cols && l.cells[end].flags&cellCont != 0 {
			l.cells[end] = cell{style: l.cells[end].style}
		}
		i += n
		t.x = end
		if end >= t.cols {
			t.x = t.cols - 1
			t.pendingWrap = true
		}
		if end < t.cols || i == len(p) || p[i] < 0x20 || p[i] >= 0x7f {
			break
		}
	}
	t.lastRune = rune(p[i-1])
	return i
}

// printablePrefix returns how many bytes at the start of b are printable
// ASCII (0x20..0x7e), testing eight at a time: a word holds none outside
// the range when no byte is below 0x20 (the borrow test) and none is above
// 0x7e (adding 1 sets no high bit).
func printablePrefix(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-0x20*ones)&^w&highs != 0 || (w+ones|w)&highs != 0 {
			break
		}
	}
	for i < len(b) && b[i]-0x20 < 0x7f-0x20 {
		i++
	}
	return i
}
