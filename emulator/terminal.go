package emulator

import (
	"unicode/utf8"

	"github.com/danielgatis/go-vte/vtparser"
)

// Options configures a Terminal. The zero value is usable.
type Options struct {
	// ScrollbackLimitBytes bounds the scrollback ring. A line costs its
	// encoded size (trailing blanks trimmed; one byte per ASCII character,
	// the UTF-8 of others, a few bytes per style change) plus a small fixed
	// overhead. 0 means DefaultScrollbackLimitBytes; negative disables
	// scrollback.
	ScrollbackLimitBytes int
	// Reply receives bytes the terminal must send back to the program
	// (device attributes, cursor position reports, ...). May be nil. The
	// slice is only valid during the call.
	Reply func([]byte)
	// OnTitle is called when the title changes (OSC 0 / OSC 2). May be nil.
	OnTitle func(string)
	// OnBell is called for every BEL. May be nil.
	OnBell func()
	// KittyGraphics keeps and answers the kitty graphics the program
	// writes (kitty.go); off, they are swallowed unanswered.
	KittyGraphics bool
}

// Modes is a snapshot of the terminal modes a multiplexer cares about.
type Modes struct {
	AppCursor      bool // DECCKM, ?1: cursor keys send ESC O x
	AppKeypad      bool // DECKPAM (ESC =) / DECKPNM (ESC >)
	AutoWrap       bool // DECAWM, ?7
	CursorVisible  bool // DECTCEM, ?25
	BracketedPaste bool // ?2004
	MouseX10       bool // ?9: X10 compatibility, press only
	MouseNormal    bool // ?1000: press and release
	MouseButton    bool // ?1002: button-event (drag) tracking
	MouseAny       bool // ?1003: any-event (motion) tracking
	MouseUTF8      bool // ?1005: UTF-8 coordinate encoding
	MouseSGR       bool // ?1006: SGR coordinate encoding
	FocusEvents    bool // ?1004
	SyncOutput     bool // ?2026: synchronized output in progress
	AltScreen      bool // alternate screen active (?1049, ?1047, ?47)
	Origin         bool // DECOM, ?6
	Insert         bool // IRM, 4
	// KittyKeys are the kitty keyboard protocol's flags the program set
	// (CSI > flags u pushes, CSI < n u pops, CSI = flags ; mode u sets):
	// the top of its stack, 0 for legacy keys (kittykeys.go).
	KittyKeys int
}

// MouseReporting reports whether any mouse tracking mode (?9, ?1000, ?1002,
// ?1003) is on.
func (m Modes) MouseReporting() bool {
	return m.MouseX10 || m.MouseNormal || m.MouseButton || m.MouseAny
}

// savedCursor is the state saved by DECSC / ?1048 / ?1049.
type savedCursor struct {
	x, y        int
	pen         style
	pendingWrap bool
	origin      bool
	charsets    charsets
	valid       bool
}

// charsets is the character set state: which of G0/G1 hold DEC special
// graphics and which one is invoked (SO selects G1, SI G0).
type charsets struct {
	g0, g1 bool // designated as DEC special graphics (ESC ( 0, ESC ) 0)
	shift  bool // G1 invoked (SO)
}

// lineDrawing reports whether the invoked set is DEC special graphics.
func (c charsets) lineDrawing() bool {
	if c.shift {
		return c.g1
	}
	return c.g0
}

// CursorShape is the cursor style set by DECSCUSR (CSI Ps SP q).
type CursorShape int

// Cursor shapes, numbered as DECSCUSR numbers them.
const (
	CursorDefault CursorShape = iota
	CursorBlinkingBlock
	CursorSteadyBlock
	CursorBlinkingUnderline
	CursorSteadyUnderline
	CursorBlinkingBar
	CursorSteadyBar
)

// Terminal is a VT/xterm-compatible terminal emulator for one pane.
//
// A Terminal is not safe for concurrent use: it must be owned by a single
// goroutine. All accessors return copies.
type Terminal struct {
	opts   Options
	parser *vtparser.Parser // nil until needed (vt)
	perf   performer

	ver uint64 // last content version given to a line (damage)

	// rare is what few programs ever set, made at the first set: an idle
	// pane's Terminal stays in a smaller size class without it.
	rare *rareState

	cols, rows int
	primary    *screen
	alt        *screen // nil unless the alternate screen is active
	altSpare   *screen
	scr        *screen // active screen
	sb         scrollback

	styles  styleTable
	pen     style
	penID   uint16
	eraseID uint16 // style for erased cells: the pen's background only

	x, y        int
	pendingWrap bool
	top, bottom int // scroll region, inclusive, 0-based
	tabs        []bool
	modes       Modes
	lineDrawing bool // DEC special graphics in the invoked set (GL)
	charsets    charsets
	savedMain   savedCursor
	savedAlt    savedCursor

	lastRune rune // last printed character, for REP

	title, cwd  string
	links       linkTable
	mark        promptMark // last OSC 133 mark
	cursorShape CursorShape
	// scrolled counts the rows that left the top of the primary screen, so
	// that a row number taken earlier can be followed (prompt marks).
	scrolled int64
	view     int // lines the viewport is scrolled back (view.go)
	bells    uint64
	revision uint64
	changed  bool

	// parser ground-state tracking for the ASCII fast path.
	ground, prevGround bool

	// widths is made at the first non-ASCII rune: 5 kB that a pane
	// showing only ASCII never needs.
	widths *widthCache
	reply  []byte

	// csi is the CSI sequence being dispatched by the fast path: made at
	// the first one, given back by Compact (296 bytes an idle pane need not
	// keep).
	csi *csiSeq
	// pend is a CSI sequence cut by the end of the last Write (npend bytes
	// of it); made at the first such cut (pendBuf).
	pend  *[maxPendingCSI]byte
	npend int

	// ptail is every byte fed to the general parser since it was last known
	// to be in its ground state (ptailLost: more than maxParserTail of
	// them): replayed into a fresh parser, it rebuilds a sequence cut by the
	// end of a Write, which the parser's own state cannot be read to do
	// (state.go).
	ptail     []byte
	ptailLost bool

	// kitty is the program's kitty graphics and the APC being read
	// (kitty.go); nil until the first APC.
	kitty *kittyState

	// layout changes whenever rows move other than by scrolling the whole
	// screen up; pushVers holds the content versions of the newest lines
	// pushed to scrollback, made by the first ReadChanged (read_changed.go).
	layout   uint64
	pushVers *[pushRing]uint64
}

// New returns a terminal of cols×rows cells (sizes < 1 are clamped to 1).
func New(cols, rows int, opts Options) *Terminal {
	cols, rows = clampSize(cols, rows)
	if opts.ScrollbackLimitBytes == 0 {
		opts.ScrollbackLimitBytes = DefaultScrollbackLimitBytes
	}
	t := &Terminal{
		opts:   opts,
		cols:   cols,
		rows:   rows,
		styles: newStyleTable(),
		sb:     newScrollback(opts.ScrollbackLimitBytes),
		ground: true,
	}
	t.perf.t = t
	t.primary = newScreen(cols, rows)
	t.scr = t.primary
	t.resetState()
	return t
}

// rareState holds the settings few programs ever make (kittykeys.go, osc.go).
type rareState struct {
	keyFlags     []int  // the kitty keyboard flags pushed before the current ones
	clipboard    string // the last OSC 52 set, base64
	clipboardSeq uint64
	progress     string // OSC 9;4, "state;percent"
}

// noRare is what a Terminal without rareState reads; never written.
var noRare rareState

// rareSet returns the rare settings to change, made at first need.
func (t *Terminal) rareSet() *rareState {
	if t.rare == nil {
		t.rare = new(rareState)
	}
	return t.rare
}

// rareGet returns the rare settings to read (the zero ones when none was
// ever set); callers must not write through it.
func (t *Terminal) rareGet() *rareState {
	if t.rare == nil {
		return &noRare
	}
	return t.rare
}

// pendBuf returns the buffer of a cut CSI sequence, made at first need.
func (t *Terminal) pendBuf() *[maxPendingCSI]byte {
	if t.pend == nil {
		t.pend = new([maxPendingCSI]byte)
	}
	return t.pend
}

// vt returns the general parser, made at the first byte the fast paths do
// not take: a pane that only ever shows plain text never needs one.
func (t *Terminal) vt() *vtparser.Parser {
	if t.parser == nil {
		t.parser = vtparser.New(&t.perf)
	}
	return t.parser
}

func clampSize(cols, rows int) (int, int) {
	if cols < 1 {
		cols = 1
	}
	if rows < 1 {
		rows = 1
	}
	// Guard against absurd sizes that would exhaust memory.
	if cols > 65535 {
		cols = 65535
	}
	if rows > 65535 {
		rows = 65535
	}
	return cols, rows
}

// resetState puts modes, cursor, pen, tabs and margins in their power-on
// state (without touching the screen contents).
func (t *Terminal) resetState() {
	t.x, t.y, t.pendingWrap = 0, 0, false
	t.top, t.bottom = 0, t.rows-1
	t.modes = Modes{AutoWrap: true, CursorVisible: true, AltScreen: t.scr == t.alt}
	if t.rare != nil {
		t.rare.keyFlags = t.rare.keyFlags[:0]
	}
	t.pen, t.penID, t.eraseID = style{}, 0, 0
	t.lineDrawing = false
	t.charsets = charsets{}
	t.cursorShape = CursorDefault
	t.savedMain, t.savedAlt = savedCursor{}, savedCursor{}
	t.resetTabs()
}

// resetTabs puts the tab stops every 8 columns: no array (tabs nil)
// until a program sets or clears one (ownTabs).
func (t *Terminal) resetTabs() { t.tabs = nil }

// defaultTabStop reports whether column x has a tab stop by default.
func defaultTabStop(x int) bool { return x > 0 && x%8 == 0 }

// tabStop reports whether column x has a tab stop.
func (t *Terminal) tabStop(x int) bool {
	if t.tabs == nil {
		return defaultTabStop(x)
	}
	return t.tabs[x]
}

// ownTabs returns the tab stops, one per column, made from the default
// ones at the first change.
func (t *Terminal) ownTabs() []bool {
	if t.tabs == nil {
		t.tabs = make([]bool, t.cols)
		for i := range t.tabs {
			t.tabs[i] = defaultTabStop(i)
		}
	}
	return t.tabs
}

// Write feeds bytes produced by the program. It never fails; the int is
// always len(p).
func (t *Terminal) Write(p []byte) (int, error) {
	t.changed = false
	i := 0
	if t.kitty != nil && t.kitty.apc.active {
		i = t.feedAPC(p)
	} else if t.npend > 0 {
		i = t.resumePendingCSI(p)
	}
	for i < len(p) {
		b := p[i]
		if t.ground && b >= 0x20 && b < 0x7f {
			// Fast path: printable ASCII in the ground state.
			i += t.printRun(p[i:])
			continue
		}
		if t.ground && (b == '\n' || b == '\r') {
			// Fast path: CR and LF in the ground state (the parser would
			// just execute them without changing state).
			t.changed = true
			if b == '\n' {
				t.linefeed()
			} else {
				t.carriageReturn()
			}
			i++
			continue
		}
		if t.ground && b >= 0xc2 && b <= 0xf4 {
			// Fast path: a complete, valid UTF-8 sequence in the ground
			// state (incomplete or invalid ones go through the parser).
			if r, size := utf8.DecodeRune(p[i:]); size > 1 {
				if r > 0x9f { // C1 controls are dropped, as in Print
					t.printRune(r)
				}
				i += size
				continue
			}
		}
		if t.ground && b == 0x1b && (i+1 == len(p) || p[i+1] == '[') {
			// Fast path: a plain SGR sequence (sgr_scan.go), any other
			// CSI sequence (csi_scan.go).
			if n := t.scanSGR(p[i:]); n > 0 {
				i += n
				continue
			}
			n := t.scanCSI(p[i:])
			if n > 0 {
				t.dispatchScannedCSI()
				i += n
				continue
			}
			if n < 0 && len(p)-i < len(t.pend) {
				t.npend = copy(t.pendBuf()[:], p[i:])
				break
			}
		}
		t.feedParser(b)
		i++
		if t.kitty != nil && t.kitty.apc.active {
			i += t.feedAPC(p[i:])
		}
	}
	if t.changed {
		t.revision++
	}
	return len(p), nil
}

// WriteString is Write for strings.
func (t *Terminal) WriteString(s string) {
	_, _ = t.Write([]byte(s))
}

// Resize changes the size of the terminal, keeping content. On a width
// change the primary screen and the scrollback are reflowed (soft-wrapped
// lines are re-wrapped) and the alternate screen is cut or extended. When the
// primary screen loses rows, lines pushed off the top go to scrollback; when
// it gains rows with the cursor on the last row, lines come back from
// scrollback. Sizes < 1 are clamped to 1.
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = clampSize(cols, rows)
	t.revision++
	if cols == t.cols && rows == t.rows {
		return
	}
	t.layout++
	oldRows := t.rows
	pendingWrap := t.pendingWrap
	mainY, altY := t.y, t.y
	if t.scr != t.primary {
		mainY = t.savedMain.y
	}
	if cols != t.cols {
		pendingWrap = t.reflowPrimary(cols) && t.scr == t.primary
		t.primary.setCols(cols)
		if t.alt != nil {
			t.alt.setCols(cols)
			for _, l := range t.alt.lines {
				l.resize(cols) // the blank record again: harmless, it shares blankCells
			}
		}
		t.cols = cols
		oldTabs := t.tabs
		if oldTabs != nil { // else the default stops, at any width
			t.tabs = make([]bool, cols)
		}
		for i := range t.tabs {
			if i < len(oldTabs) {
				t.tabs[i] = oldTabs[i]
			} else {
				t.tabs[i] = i%8 == 0
			}
		}
	}
	if rows != oldRows {
		// Primary screen: keep the cursor row on screen, like xterm.
		cy := t.y
		if t.scr != t.primary {
			cy = t.savedMain.y
			if !t.savedMain.valid {
				cy = oldRows - 1
			}
		}
		shift := t.resizeRows(t.primary, oldRows, rows, cy, true)
		t.scrolled += int64(shift)
		if t.scr == t.primary {
			t.y -= shift
		} else {
			t.savedMain.y -= shift
			if t.alt != nil {
				t.y -= t.resizeRows(t.alt, oldRows, rows, t.y, false)
			}
		}
		t.rows = rows
	}
	t.top, t.bottom = 0, t.rows-1
	t.x = clamp(t.x, 0, t.cols-1)
	t.y = clamp(t.y, 0, t.rows-1)
	t.savedMain.x = clamp(t.savedMain.x, 0, t.cols-1)
	t.savedMain.y = clamp(t.savedMain.y, 0, t.rows-1)
	t.savedAlt.x = clamp(t.savedAlt.x, 0, t.cols-1)
	t.savedAlt.y = clamp(t.savedAlt.y, 0, t.rows-1)
	t.pendingWrap = pendingWrap && t.modes.AutoWrap
	t.damageAll() // reflowed, cut or grown: every row may read differently
	if t.kitty != nil {
		if t.scr != t.primary {
			t.kittyResized(t.savedMain.y-mainY, t.y-altY)
		} else {
			t.kittyResized(t.y-mainY, 0)
		}
	}
}

// resizeRows changes the number of rows of s. For the primary screen, rows
// removed from the top go to scrollback and rows added come back from it.
// It returns by how many rows content moved up (negative: down).
func (t *Terminal) resizeRows(s *screen, oldRows, rows, cursorY int, primary bool) int {
	if rows < oldRows {
		// Drop blank rows below the cursor first, then push from the top.
		remove := oldRows - rows
		lines := s.lines
		for remove > 0 && len(lines)-1 > cursorY && lineBlank(lines[len(lines)-1]) {
			lines = lines[:len(lines)-1]
			remove--
		}
		shift := 0
		if remove > 0 {
			for i := 0; i < remove; i++ {
				if primary {
					t.sbPush(lines[i])
				}
			}
			lines = lines[remove:]
			shift = remove
		}
		s.lines = append(s.lines[:0], lines[:rows]...)
		return shift
	}
	add := rows - oldRows
	shift := 0
	if primary {
		// Pull lines back from scrollback when the cursor sits on the last
		// row (the content fills the screen), so that shrinking then
		// growing restores the screen.
		pulled := make([]*line, 0, add)
		for len(pulled) < add && t.sb.len() > 0 && cursorY == oldRows-1 {
			l := newLine(t.cols, 0)
			t.sb.popNewest(l, t.internDecoded)
			pulled = append(pulled, l)
		}
		if len(pulled) > 0 {
			nl := make([]*line, 0, rows)
			for i := len(pulled) - 1; i >= 0; i-- {
				nl = append(nl, pulled[i])
			}
			nl = append(nl, s.lines...)
			s.lines = nl
			shift = -len(pulled)
			add -= len(pulled)
		}
	}
	for i := 0; i < add; i++ {
		s.lines = append(s.lines, s.blankRow(t.cols))
	}
	return shift
}

func lineBlank(l *line) bool {
	for _, c := range l.cells {
		if c.ch != 0 && c.ch != ' ' || c.style != 0 || c.flags != 0 {
			return false
		}
	}
	return true
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// Revision increments on every Write that changed something and on Resize.
func (t *Terminal) Revision() uint64 { return t.revision }

// Title is the window title set by OSC 0 / OSC 2.
func (t *Terminal) Title() string { return t.title }

// Cwd is the working directory reported by OSC 7 (as sent, usually a
// file:// URL).
func (t *Terminal) Cwd() string { return t.cwd }

// Size returns the terminal size in cells.
func (t *Terminal) Size() (cols, rows int) { return t.cols, t.rows }

// Cursor returns the 0-based cursor position and whether it is visible.
func (t *Terminal) Cursor() (col, row int, visible bool) {
	return t.x, t.y, t.modes.CursorVisible
}

// Modes returns a snapshot of the terminal modes.
func (t *Terminal) Modes() Modes {
	m := t.modes
	m.AltScreen = t.scr == t.alt && t.alt != nil
	return m
}

// ScrollInfo reports the viewport position: the offset from the bottom
// (see ViewOffset), the maximum offset (the number of scrollback lines;
// 0 on the alternate screen) and the viewport height.
func (t *Terminal) ScrollInfo() (offsetFromBottom, maxOffsetFromBottom, viewportRows uint64) {
	max := uint64(t.sb.len())
	if t.scr != t.primary {
		max = 0
	}
	return uint64(t.ViewOffset()), max, uint64(t.rows)
}

// CursorShape returns the cursor style set by DECSCUSR.
func (t *Terminal) CursorShape() CursorShape { return t.cursorShape }

// Bells returns how many BEL characters were received.
func (t *Terminal) Bells() uint64 { return t.bells }

// ScrollbackLines returns the number of lines in scrollback.
func (t *Terminal) ScrollbackLines() int { return t.sb.len() }

// sbPush moves a copy of l into scrollback.
func (t *Terminal) sbPush(l *line) { t.sb.push(l, &t.styles, &t.links); t.viewPushed() }

// internDecoded interns a style decoded from scrollback.
func (t *Terminal) internDecoded(s style, link string) uint16 {
	s.link = 0
	if link != "" {
		s.link = t.internLink(link)
	}
	return t.intern(s)
}

func (t *Terminal) sendReply(b []byte) {
	if t.opts.Reply != nil {
		t.opts.Reply(b)
	}
}

// damage gives l a new content version: every change to a line's cells,
// marks or wrap flag goes through here, so a caller comparing versions
// (RowVersions) finds exactly the rows that may read differently.
func (t *Terminal) damage(l *line) {
	t.ver++
	l.ver = t.ver
	l.plain = 0 // whatever changed, printRun alone vouches for it again
}

// damageRows damages each of ls.
func (t *Terminal) damageRows(ls []*line) {
	for _, l := range ls {
		t.damage(l)
	}
}

// damageAll damages every line of both screens.
func (t *Terminal) damageAll() {
	t.damageRows(t.primary.lines)
	if t.alt != nil {
		t.damageRows(t.alt.lines)
	}
}

// RowVersions appends the content version of each row of the live screen
// to dst[:0]: a row whose version is the same as before reads the same
// (an O(rows) way to find what changed, instead of comparing snapshots).
// It returns nil while the view is scrolled back into history, whose rows
// have no versions.
func (t *Terminal) RowVersions(dst []uint64) []uint64 {
	if t.ViewOffset() > 0 {
		return nil
	}
	dst = dst[:0]
	for _, l := range t.scr.lines {
		dst = append(dst, l.ver)
	}
	return dst
}

// Row snapshots row y of the live screen into dst, reusing its runs.
func (t *Terminal) Row(y int, dst RowSnapshot) RowSnapshot {
	l := t.scr.lines[y]
	dst.Wrapped = l.wrapped
	dst.Runs, _ = t.cellRuns(dst.Runs[:0], nil, l.cells, l.comb, &t.styles)
	return dst
}
