package emulator

// The scrolled view: a viewport that looks back into the primary screen's
// scrollback, like a multiplexer's copy mode. The view is only a way of
// looking at the terminal: it never changes the screen, the cursor or the
// scrollback, and reads (Read) keep reading the live screen.
//
// While the view is scrolled back, output that pushes lines into scrollback
// moves the offset by as many lines, so the viewport keeps showing the same
// lines (xterm and tmux do the same); the offset is clamped when the oldest
// lines are dropped. The alternate screen has no history: its offset is
// always 0, and entering it resets the view.

// ViewOffset returns how many lines the viewport is scrolled back from the
// bottom (0 when it shows the live screen).
func (t *Terminal) ViewOffset() int {
	if t.scr != t.primary {
		return 0
	}
	return clamp(t.view, 0, t.sb.len())
}

// ScrollView moves the viewport delta lines back into history (negative:
// towards the live screen), clamped to [0, scrollback lines]. It reports
// whether the offset changed.
func (t *Terminal) ScrollView(delta int) bool {
	old := t.ViewOffset()
	limit := t.sb.len()
	if t.scr != t.primary {
		limit = 0
	}
	v := old
	switch {
	case delta > 0:
		v = min(old+min(delta, limit), limit)
	case delta < 0:
		v = max(old+max(delta, -old), 0)
	}
	t.view = v
	if v != old {
		t.kittyViewMoved()
	}
	return v != old
}

// ResetView returns the viewport to the live screen. It reports whether the
// offset changed.
func (t *Terminal) ResetView() bool {
	old := t.ViewOffset()
	t.view = 0
	if old != 0 {
		t.kittyViewMoved()
	}
	return old != 0
}

// viewPushed follows a line pushed into scrollback: a scrolled-back view
// moves back by one line to keep showing the same lines.
func (t *Terminal) viewPushed() {
	if t.view > 0 {
		t.view = min(t.view+1, t.sb.len())
	}
}

// viewRows renders the viewport scrolled back off lines (0 < off <=
// scrollback lines): the newest off scrollback lines on top (at most a
// screen of them), then the top of the screen.
func (t *Terminal) viewRows(dst []RowSnapshot, off int) []RowSnapshot {
	sbLen := t.sb.len()
	from := sbLen - off
	to := min(from+t.rows, sbLen)
	var buf []byte
	add := func(cells []cell, comb map[int]string, wrapped bool, st *styleTable) {
		var rs RowSnapshot
		if len(dst) < cap(dst) {
			rs = dst[:len(dst)+1][len(dst)]
			rs.Runs = rs.Runs[:0]
		}
		rs.Wrapped = wrapped
		rs.Runs, buf = t.cellRuns(rs.Runs, buf, cells, comb, st)
		dst = append(dst, rs)
	}
	for _, r := range t.scrollbackRows(from, to) {
		cells := r.cells
		if len(cells) > t.cols {
			// Scrollback lines keep the width they were written at.
			cells = cells[:t.cols]
			if last := cells[t.cols-1]; last.flags&cellWide != 0 {
				cells = append(cells[:t.cols-1:t.cols-1], cell{})
			}
		}
		add(cells, r.comb, r.wrapped, r.st)
	}
	lines := t.scr.lines
	for _, l := range lines[:max(min(t.rows-(to-from), len(lines)), 0)] {
		add(l.cells, l.comb, l.wrapped, &t.styles)
	}
	return dst
}
