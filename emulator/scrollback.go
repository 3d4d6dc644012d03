package emulator

// lineOverheadBytes is the fixed cost charged per scrollback line on top of
// its cells, so that a flood of empty lines is bounded too.
const lineOverheadBytes = 48

// DefaultScrollbackLimitBytes is used when Options.ScrollbackLimitBytes is 0.
const DefaultScrollbackLimitBytes = 10_000_000

// sbLine is one line of scrollback: a window into the cell arena.
type sbLine struct {
	start, n int
	epoch    uint32 // arena pass the cells were written in
	wrapped  bool
	comb     map[int]string
}

func (r *sbLine) cost() int { return r.n*cellBytes + lineOverheadBytes }

// scrollback is a ring of lines bounded by bytes. Cells live in one arena
// (itself used as a ring: a line that does not fit at the end starts again at
// 0), so pushing a line in steady state allocates nothing. A line's cost is
// its trailing-blank-trimmed cell storage plus lineOverheadBytes; the oldest
// lines are dropped first so that the total cost stays within the limit. The
// arena never exceeds limit bytes either, so when it is fragmented (the tail
// left unused by a line that did not fit) a few more old lines may be dropped
// than the cost alone requires.
type scrollback struct {
	limit    int // bytes; <= 0 disables scrollback
	maxCells int
	arena    []cell
	w        int    // next write position in arena
	epoch    uint32 // current arena pass
	recs     []sbLine
	head     int // index of the oldest record in recs
	count    int
	bytes    int
}

func newScrollback(limit int) scrollback {
	s := scrollback{limit: limit}
	if limit > 0 {
		s.maxCells = limit / cellBytes
	}
	return s
}

func (s *scrollback) len() int { return s.count }

// at returns line i, 0 being the oldest.
// len(recs) is a power of two.
func (s *scrollback) at(i int) *sbLine { return &s.recs[(s.head+i)&(len(s.recs)-1)] }

func (s *scrollback) cells(r *sbLine) []cell { return s.arena[r.start : r.start+r.n] }

// push appends a copy of l (trailing blanks trimmed) as the newest line.
func (s *scrollback) push(l *line) {
	if s.limit <= 0 {
		return
	}
	n := min(l.hi, len(l.cells))
	for n > 0 {
		c := l.cells[n-1]
		if c.ch != 0 || c.style != 0 || c.flags != 0 {
			break
		}
		n--
	}
	if n*cellBytes+lineOverheadBytes > s.limit {
		n = (s.limit - lineOverheadBytes) / cellBytes
		if n < 0 {
			return
		}
	}
	cost := n*cellBytes + lineOverheadBytes
	for s.count > 0 && s.bytes+cost > s.limit {
		s.evict()
	}
	start := s.reserve(n)
	copy(s.arena[start:start+n], l.cells[:n])
	if s.count == len(s.recs) {
		s.growRecs()
	}
	rec := sbLine{start: start, n: n, epoch: s.epoch, wrapped: l.wrapped}
	if l.comb != nil {
		rec.comb = make(map[int]string, len(l.comb))
		for k, v := range l.comb {
			if k < n {
				rec.comb[k] = v
			}
		}
	}
	s.recs[(s.head+s.count)&(len(s.recs)-1)] = rec
	s.count++
	s.bytes += cost
}

// reserve finds room for n contiguous cells, growing the arena or evicting
// the oldest lines as needed, and returns the start position.
func (s *scrollback) reserve(n int) int {
	for {
		if s.count == 0 {
			s.w = 0
			if len(s.arena) >= n {
				s.w = n
				return 0
			}
		} else {
			h := s.at(0)
			if h.epoch == s.epoch { // data is [h.start, w)
				if len(s.arena)-s.w >= n {
					p := s.w
					s.w += n
					return p
				}
				if h.start >= n {
					s.epoch++
					s.w = n
					return 0
				}
			} else if h.start-s.w >= n { // data wraps: free is [w, h.start)
				p := s.w
				s.w += n
				return p
			}
		}
		if len(s.arena) < s.maxCells {
			s.grow(n)
			continue
		}
		s.evict()
	}
}

// grow enlarges the arena and compacts the live lines to its start.
func (s *scrollback) grow(n int) {
	size := 2 * len(s.arena)
	if size < 4096 {
		size = 4096
	}
	if size < n {
		size = n
	}
	if size > s.maxCells {
		size = s.maxCells
	}
	arena := make([]cell, size)
	w := 0
	s.epoch++
	for i := 0; i < s.count; i++ {
		r := s.at(i)
		copy(arena[w:], s.arena[r.start:r.start+r.n])
		r.start = w
		r.epoch = s.epoch
		w += r.n
	}
	s.arena = arena
	s.w = w
}

func (s *scrollback) growRecs() {
	size := 2 * len(s.recs)
	if size < 64 {
		size = 64
	}
	recs := make([]sbLine, size)
	for i := 0; i < s.count; i++ {
		recs[i] = *s.at(i)
	}
	s.recs = recs
	s.head = 0
}

// evict drops the oldest line.
func (s *scrollback) evict() {
	r := s.at(0)
	s.bytes -= r.cost()
	*r = sbLine{}
	s.head = (s.head + 1) & (len(s.recs) - 1)
	s.count--
	if s.count == 0 {
		s.head, s.w, s.bytes = 0, 0, 0
	}
}

// popNewest removes the newest line and copies it into l (which must already
// have its final width).
func (s *scrollback) popNewest(l *line) bool {
	if s.count == 0 {
		return false
	}
	r := s.at(s.count - 1)
	l.reset(0)
	n := copy(l.cells, s.cells(r))
	l.touch(n)
	l.wrapped = r.wrapped
	for k, v := range r.comb {
		if k < n {
			if l.comb == nil {
				l.comb = make(map[int]string)
			}
			l.comb[k] = v
		}
	}
	if n > 0 && l.cells[n-1].flags&cellWide != 0 && n == len(l.cells) && len(s.cells(r)) > n {
		l.cells[n-1] = cell{style: l.cells[n-1].style}
	}
	s.bytes -= r.cost()
	*r = sbLine{}
	s.count--
	if s.count == 0 {
		s.head, s.w, s.bytes = 0, 0, 0
	} else {
		nr := s.at(s.count - 1)
		s.w = nr.start + nr.n
		s.epoch = nr.epoch
	}
	return true
}

// clear drops all lines (ED 3).
func (s *scrollback) clear() {
	for i := 0; i < s.count; i++ {
		*s.at(i) = sbLine{}
	}
	s.head, s.count, s.w, s.bytes = 0, 0, 0, 0
}
