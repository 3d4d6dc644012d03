package emulator

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/rivo/uniseg"
)

// Grapheme clusters. A character that extends the cluster of the cell
// before the cursor is stored with that cell (line.comb) instead of taking
// a cell of its own: combining marks, variation selectors, emoji modifiers,
// the parts of a ZWJ sequence after a U+200D and the second half of a flag
// (a pair of regional indicators). The width of the joined cluster is
// decided by clusterWidth; the only change it can bring is a narrow cell
// becoming wide (a text-default symbol followed by VS16: "❤" + U+FE0F, or a
// keycap "1" + U+FE0F + U+20E3). ASCII never comes here.

const (
	zwj  = 0x200d
	vs16 = 0xfe0f
)

func isRegionalIndicator(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// clusterWidth is the width of a grapheme cluster whose width by uniseg is
// w. uniseg widens VS16 only after an Extended_Pictographic character, but
// the keycap bases (#, * and the digits) have emoji variation sequences as
// well: terminals that honour VS16 (kitty, WezTerm, Ghostty, tmux 3.4+)
// draw "1" + U+FE0F, and so the keycap "1️⃣", two cells wide.
func clusterWidth(cluster string, w int) int {
	if len(cluster) >= 4 && isKeycapBase(cluster[0]) && cluster[1:4] == "\ufe0f" {
		return 2
	}
	return w
}

func isKeycapBase(b byte) bool { return b == '#' || b == '*' || b >= '0' && b <= '9' }

// clusterCell returns the column of the cell holding the cluster before the
// cursor, or -1.
func (t *Terminal) clusterCell() int {
	x := t.x
	if !t.pendingWrap {
		x--
	}
	if x < 0 {
		return -1
	}
	l := t.scr.lines[t.y]
	t.damage(l)
	if l.cells[x].flags&cellCont != 0 && x > 0 {
		x--
	}
	if l.cells[x].ch == 0 {
		return -1
	}
	return x
}

// joinCluster adds r (of width w on its own) to the cluster before the
// cursor when it belongs there, and reports whether it did.
func (t *Terminal) joinCluster(r rune, w int) bool {
	x := t.clusterCell()
	if x < 0 {
		return false
	}
	l := t.scr.at(t.y)
	l.own()
	t.damage(l)
	c := l.cells[x]
	var marks string
	if c.flags&cellComb != 0 {
		marks = l.comb[x]
	}
	switch {
	case w == 0 && r != vs16:
		l.addComb(x, r) // combining mark, ZWJ, modifier, tag...: no width change
		return true
	case r == vs16:
	case strings.HasSuffix(marks, "\u200d"):
	case isRegionalIndicator(r) && isRegionalIndicator(c.ch) && marks == "":
	default:
		return false
	}
	// Ask uniseg whether the cluster really continues and how wide it is.
	var buf [64]byte
	n := utf8.EncodeRune(buf[:], c.ch)
	if n+len(marks)+utf8.UTFMax > len(buf) {
		if w == 0 {
			l.addComb(x, r)
			return true
		}
		return false
	}
	n += copy(buf[n:], marks)
	n += utf8.EncodeRune(buf[n:], r)
	s := unsafe.String(&buf[0], n)
	cluster, rest, width, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	width = clusterWidth(cluster, width)
	if rest != "" {
		if w == 0 {
			l.addComb(x, r)
			return true
		}
		return false
	}
	l.addComb(x, r)
	if width >= 2 && c.flags&cellWide == 0 && x+1 < t.cols {
		// The cluster became wide: take the next cell too.
		l.breakWide(x + 1)
		l.cells[x].flags |= cellWide
		l.cells[x+1] = cell{style: c.style, flags: cellCont}
		l.touch(x + 2)
		if !t.pendingWrap {
			t.x = x + 2
			if t.x >= t.cols {
				t.x = t.cols - 1
				t.pendingWrap = t.modes.AutoWrap
			}
		}
	}
	return true
}

// prevHasMarks reports whether the cell before the cursor carries
// combining marks (it may end with a ZWJ that the next emoji joins).
func (t *Terminal) prevHasMarks() bool {
	x := t.x
	if !t.pendingWrap {
		x--
	}
	if x < 0 {
		return false
	}
	c := t.scr.lines[t.y].cells[x]
	if c.flags&cellCont != 0 && x > 0 {
		c = t.scr.lines[t.y].cells[x-1]
	}
	return c.flags&cellComb != 0
}

// NextCell splits off the start of s the text one cell holds (a grapheme
// cluster, as Write would join it) and returns it with the rest of s and
// its width in columns, 1 or 2, by the same rule as the grid: the width of
// the cluster's first character, widened to 2 when the whole cluster is
// wide (VS16, keycaps, ZWJ sequences, flags). Clients that draw snapshot runs use it
// so they split and measure text exactly as the emulator did.
func NextCell(s string) (cluster, rest string, width int) {
	if s == "" {
		return "", "", 0
	}
	if s[0] < utf8.RuneSelf {
		if len(s) == 1 || s[1] < utf8.RuneSelf {
			return s[:1], s[1:], 1
		}
	}
	cluster, rest, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	w = clusterWidth(cluster, w)
	r, _ := utf8.DecodeRuneInString(cluster)
	width = 1
	if r >= 0x300 && computeWidth(r) == 2 || w >= 2 {
		width = 2
	}
	return cluster, rest, width
}
