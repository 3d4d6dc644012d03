package emulator

import (
	"strings"
	"unicode"
)

// Copy-mode motions over the text (text.go), with vi's meaning as Herdr's
// copy mode has it:
//
//   - line_end: the last character of the row (column 0 on a blank row);
//     first_non_blank: the row's first character that is not a space
//     (column 0 on a blank row).
//   - words: a word is a run of letters, digits and other characters that
//     are neither blanks nor ASCII punctuation, or a run of ASCII
//     punctuation; a big word is a run of anything but blanks. The end of
//     a line (a row that did not soft-wrap) separates words like a blank,
//     so a word wrapped over two rows is one word. w, b, e and W, B, E
//     cross lines and blank lines; where there is no word to go to the
//     cursor stays.
//   - paragraphs: the cursor moves up or down, keeping its column, to the
//     next row that is blank, or to the first or last row of the text.

// Motion is a copy-mode motion.
type Motion uint8

// The copy-mode motions.
const (
	MotionLineEnd Motion = iota
	MotionFirstNonBlank
	MotionNextWordStart
	MotionPreviousWordStart
	MotionNextWordEnd
	MotionNextBigWordStart
	MotionPreviousBigWordStart
	MotionNextBigWordEnd
	MotionPreviousParagraph
	MotionNextParagraph
)

// wordSeparators are the characters that make words of their own.
const wordSeparators = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"

// Classes of a text atom.
const (
	classBlank uint8 = iota
	classSeparator
	classWord
)

// atom is one character of the text, or (char false) the end of a line.
type atom struct {
	row, col, end int
	class         uint8
	char          bool
}

// classOf is the word class of cell x of r.
func classOf(r *textRow, x int) uint8 {
	ch := r.cells[x].ch
	switch {
	case ch == 0 || unicode.IsSpace(ch):
		return classBlank
	case ch < 0x80 && strings.ContainsRune(wordSeparators, ch):
		return classSeparator
	}
	return classWord
}

// atoms lists the characters of rows [from, to) in order, with a blank atom
// after each row that ends a line.
func (t *Terminal) atoms(from, to int) []atom {
	var out []atom
	var buf []cell
	for y := from; y < to; y++ {
		r := t.textRow(y, buf)
		buf = r.cells[:0]
		for x, c := range r.cells {
			switch {
			case c.flags&cellCont != 0:
				continue
			case c.flags&cellPad != 0:
				// The blank a wrapped wide character left belongs to the
				// word around it.
				class := classBlank
				if n := len(out); n > 0 {
					class = out[n-1].class
				}
				out = append(out, atom{row: y, col: x, end: x, class: class, char: true})
				continue
			}
			out = append(out, atom{row: y, col: x, end: cellEnd(r.cells, x), class: classOf(&r, x), char: true})
		}
		if !r.wrapped {
			out = append(out, atom{class: classBlank})
		}
	}
	return out
}

// motionWindow is how many rows a word motion looks at first; it doubles
// while the answer may lie beyond them.
const motionWindow = 64

// Move returns where motion m takes a cursor at p. A point outside the
// text is clamped into it first.
func (t *Terminal) Move(p TextPoint, m Motion) TextPoint {
	rows := t.TextRows()
	p.Row = clamp(p.Row, 0, rows-1)
	r := t.textRow(p.Row, nil)
	p = t.clampPoint(p, &r)
	switch m {
	case MotionLineEnd:
		p.Col = 0
		for x := len(r.cells) - 1; x >= 0; x-- {
			if !spacer(r.cells[x]) && classOf(&r, x) != classBlank {
				p.Col = x
				break
			}
		}
		return p
	case MotionFirstNonBlank:
		p.Col = 0
		for x := range r.cells {
			if !spacer(r.cells[x]) && classOf(&r, x) != classBlank {
				p.Col = x
				break
			}
		}
		return p
	case MotionPreviousParagraph, MotionNextParagraph:
		step, stop := -1, 0
		if m == MotionNextParagraph {
			step, stop = 1, rows-1
		}
		var buf []cell
		for y := p.Row + step; y >= 0 && y < rows; y += step {
			r := t.textRow(y, buf)
			buf = r.cells[:0]
			if rowBlank(&r) {
				return TextPoint{y, min(p.Col, len(r.cells)-1)}
			}
		}
		if stop == p.Row {
			return p
		}
		return TextPoint{stop, min(p.Col, t.cols-1)}
	}
	backward := m == MotionPreviousWordStart || m == MotionPreviousBigWordStart
	for n := motionWindow; ; n *= 2 {
		from, to := p.Row, min(p.Row+n, rows)
		if backward {
			from, to = max(p.Row-n+1, 0), p.Row+1
		}
		atoms := t.atoms(from, to)
		cur := -1
		for i, a := range atoms {
			if a.char && a.row == p.Row && p.Col >= a.col && p.Col <= a.end {
				cur = i
				break
			}
		}
		if cur < 0 {
			return p
		}
		q, ok, edge := wordMotion(atoms, cur, m)
		whole := to == rows
		if backward {
			whole = from == 0
		}
		if !edge || whole {
			if !ok {
				return p
			}
			return q
		}
	}
}

// wordMotion moves from atom cur; edge reports that it ran into an end
// of atoms, so that more rows may change the answer.
func wordMotion(atoms []atom, cur int, m Motion) (p TextPoint, ok, edge bool) {
	big := m == MotionNextBigWordStart || m == MotionPreviousBigWordStart || m == MotionNextBigWordEnd
	same := func(a, b uint8) bool {
		if big {
			return (a == classBlank) == (b == classBlank)
		}
		return a == b
	}
	at := func(i int) (atom, bool) {
		if i < 0 || i >= len(atoms) {
			edge = true
			return atom{}, false
		}
		return atoms[i], true
	}
	// next is the first character at or after i, prev the last at or
	// before i.
	next := func(i int) (TextPoint, bool) {
		for ; ; i++ {
			a, in := at(i)
			if !in {
				return TextPoint{}, false
			}
			if a.char {
				return TextPoint{a.row, a.col}, true
			}
		}
	}
	prev := func(i int) (TextPoint, bool) {
		for ; ; i-- {
			a, in := at(i)
			if !in {
				return TextPoint{}, false
			}
			if a.char {
				return TextPoint{a.row, a.col}, true
			}
		}
	}
	isBlank := func(i int) bool { a, in := at(i); return in && a.class == classBlank }
	switch m {
	case MotionNextWordStart, MotionNextBigWordStart:
		class := atoms[cur].class
		i := cur + 1
		if class != classBlank {
			for {
				a, in := at(i)
				if !in || !same(a.class, class) || a.class == classBlank {
					break
				}
				i++
			}
		}
		for isBlank(i) {
			i++
		}
		p, ok = next(i)
		return p, ok, edge
	case MotionNextWordEnd, MotionNextBigWordEnd:
		i := cur + 1
		for isBlank(i) {
			i++
		}
		a, in := at(i)
		if !in {
			return p, false, edge
		}
		for {
			b, in := at(i + 1)
			if !in || !same(b.class, a.class) || b.class == classBlank {
				break
			}
			i++
		}
		p, ok = prev(i)
		return p, ok, edge
	default: // previous word start, big or not
		i := cur - 1
		for isBlank(i) {
			i--
		}
		a, in := at(i)
		if !in {
			return p, false, edge
		}
		for {
			b, in := at(i - 1)
			if !in || !same(b.class, a.class) || b.class == classBlank {
				break
			}
			i--
		}
		p, ok = prev(i)
		return p, ok, edge
	}
}
