package emulator

// Scrolling the whole screen up by one line, the commonest scroll by far
// (every line feed at the bottom of a shell's output), moves no row
// pointers: the screen's rows are a window into a longer array (window),
// and the scroll slides the window one slot on, putting the old top row
// after it. Only when the window reaches the array's end are the rows
// copied back to its start, once every len(rows) scrolls.

// slideUp scrolls the rows of s up by one, the first row becoming the last.
func (s *screen) slideUp() {
	rows := len(s.lines)
	first := s.lines[0]
	w := &s.window
	if w.off+rows > len(w.rows) || &w.rows[w.off] != &s.lines[0] {
		// The rows were replaced (a resize, a reflow, a restored
		// snapshot): take a new window with room to slide.
		if cap(w.rows) < 2*rows {
			w.rows = make([]*line, 2*rows)
		}
		w.rows = w.rows[:2*rows]
		clear(w.rows[copy(w.rows, s.lines):])
		w.off = 0
	}
	if w.off+rows == len(w.rows) {
		copy(w.rows, w.rows[w.off+1:])
		clear(w.rows[rows-1:])
		w.off = 0
	} else {
		w.off++
	}
	w.rows[w.off+rows-1] = first
	s.lines = w.rows[w.off : w.off+rows : w.off+rows]
}
