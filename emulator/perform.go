package emulator

import "strconv"

// performer adapts the vtparser callbacks to the Terminal. It is a separate
// type so that the callback methods do not show up in Terminal's API.
type performer struct {
	t *Terminal
}

func (p *performer) Print(char uint32) {
	t := p.t
	t.ground = true
	r := rune(char)
	if r >= 0x20 && r < 0x7f && !t.lineDrawing {
		var b [1]byte
		b[0] = byte(r)
		t.printASCII(b[:])
		return
	}
	// DEL and C1 controls (U+0080–U+009F) are not printable: a UTF-8
	// terminal ignores them, and a cell holding one would reach the
	// client's outer terminal, where it could act as a control.
	if r == 0x7f || r >= 0x80 && r <= 0x9f {
		return
	}
	t.printRune(r)
}

func (p *performer) Execute(b byte) {
	t := p.t
	if b == 0x18 || b == 0x1a { // CAN / SUB abort a sequence: back to ground
		t.ground = true
		return
	}
	t.ground = t.prevGround
	switch b {
	case 0x07: // BEL
		t.bells++
		if t.opts.OnBell != nil {
			t.opts.OnBell()
		}
	case 0x08: // BS
		t.backspace()
	case 0x09: // HT
		t.tabForward(1)
	case 0x0a, 0x0b, 0x0c: // LF, VT, FF
		t.linefeed()
	case 0x0d: // CR
		t.carriageReturn()
	case 0x0e: // SO: invoke G1
		t.charsets.shift = true
		t.lineDrawing = t.charsets.lineDrawing()
	case 0x0f: // SI: invoke G0
		t.charsets.shift = false
		t.lineDrawing = t.charsets.lineDrawing()
	default:
		// Other C0 controls and 8-bit C1 controls (which, in a UTF-8
		// stream, are almost always stray bytes) are ignored.
		return
	}
	t.changed = true
}

// DCS sequences are not interpreted.
func (p *performer) Put(b byte) {}
func (p *performer) Unhook()    {}
func (p *performer) Hook(params []int64, intermediates []byte, ignore bool, action uint32) {
}

func (p *performer) OscDispatch(params [][]byte, bellTerminated bool) {
	t := p.t
	if bellTerminated {
		t.ground = true
	}
	t.osc(params)
}

func (p *performer) EscDispatch(intermediates []byte, ignore bool, b byte) {
	t := p.t
	t.ground = true
	if ignore {
		return
	}
	t.changed = true
	if len(intermediates) == 0 {
		switch b {
		case '7': // DECSC
			t.saveCursor()
		case '8': // DECRC
			t.restoreCursor()
		case 'D': // IND
			t.linefeed()
		case 'E': // NEL
			t.carriageReturn()
			t.linefeed()
		case 'H': // HTS
			t.ownTabs()[t.x] = true
		case 'M': // RI
			t.reverseIndex()
		case 'c': // RIS
			t.fullReset()
		case '=': // DECKPAM
			t.modes.AppKeypad = true
		case '>': // DECKPNM
			t.modes.AppKeypad = false
		}
		return
	}
	switch intermediates[0] {
	case '(': // designate G0
		t.charsets.g0 = b == '0'
		t.lineDrawing = t.charsets.lineDrawing()
	case ')': // designate G1
		t.charsets.g1 = b == '0'
		t.lineDrawing = t.charsets.lineDrawing()
	case '#':
		if b == '8' { // DECALN
			t.alignmentTest()
		}
	}
}

func (p *performer) CsiDispatch(params []int64, intermediates []byte, ignore bool, action uint32) {
	p.t.csiDispatch(params, intermediates, ignore, byte(action), 0)
}

// csiDispatch runs one CSI sequence. sub has bit i set when params[i] is a
// colon-separated sub-parameter; only SGR accepts those.
func (t *Terminal) csiDispatch(params []int64, intermediates []byte, ignore bool, action byte, sub uint64) {
	t.ground = true
	t.changed = true
	var private byte
	if len(intermediates) > 0 {
		private = intermediates[0]
	}
	if ignore && action != 'm' {
		return
	}
	if sub != 0 && (action != 'm' || private != 0) {
		return
	}
	switch private {
	case 0:
		if action == 'm' {
			t.sgr(params, sub)
			return
		}
		t.csiPlain(params, action)
	case '?':
		switch action {
		case 'h':
			t.setDECModes(params, true)
		case 'l':
			t.setDECModes(params, false)
		case 'n':
			if param(params, 0, 0) == 6 { // DECXCPR
				t.reportCursor(true)
			}
		case 'J': // DECSED
			t.eraseDisplay(param(params, 0, 0))
		case 'K': // DECSEL
			t.eraseLine(param(params, 0, 0))
		case 'p':
			if len(intermediates) > 1 && intermediates[1] == '$' {
				t.reportDECMode(param(params, 0, 0))
			}
		case 'u': // the kitty keyboard flags asked
			t.sendReply([]byte("\x1b[?" + strconv.Itoa(t.modes.KittyKeys) + "u"))
		}
	case '>':
		switch action {
		case 'c': // DA2
			t.sendReply([]byte("\x1b[>1;10;0c"))
		case 'u':
			t.pushKeyFlags(param(params, 0, 0))
		}
	case '<':
		if action == 'u' {
			t.popKeyFlags(param(params, 0, 1))
		}
	case '=':
		if action == 'u' {
			t.setKeyFlags(param(params, 0, 0), param(params, 1, 1))
		}
	case '!':
		if action == 'p' { // DECSTR
			t.softReset()
		}
	case ' ':
		if action == 'q' { // DECSCUSR
			t.cursorShape = CursorShape(min(param(params, 0, 0), 6))
		}
	case '$':
		if action == 'p' { // DECRQM for ANSI modes
			t.reportANSIMode(param(params, 0, 0))
		}
	}
}

// csiPlain handles CSI sequences without private marker or intermediates.
func (t *Terminal) csiPlain(params []int64, action byte) {
	switch action {
	case 'A': // CUU
		t.cursorUp(param(params, 0, 1))
	case 'B', 'e': // CUD, VPR
		t.cursorDown(param(params, 0, 1))
	case 'C', 'a': // CUF, HPR
		t.cursorForward(param(params, 0, 1))
	case 'D': // CUB
		t.cursorBack(param(params, 0, 1))
	case 'E': // CNL
		t.cursorDown(param(params, 0, 1))
		t.x = 0
	case 'F': // CPL
		t.cursorUp(param(params, 0, 1))
		t.x = 0
	case 'G', '`': // CHA, HPA
		t.setColumn(param(params, 0, 1) - 1)
	case 'H', 'f': // CUP, HVP
		t.moveTo(param(params, 1, 1)-1, param(params, 0, 1)-1)
	case 'd': // VPA
		t.setRow(param(params, 0, 1) - 1)
	case 'I': // CHT
		t.tabForward(param(params, 0, 1))
	case 'Z': // CBT
		t.tabBack(param(params, 0, 1))
	case 'g': // TBC
		t.clearTabs(param(params, 0, 0))
	case 'J': // ED
		t.eraseDisplay(param(params, 0, 0))
	case 'K': // EL
		t.eraseLine(param(params, 0, 0))
	case 'X': // ECH
		t.eraseChars(param(params, 0, 1))
	case 'L': // IL
		t.insertLines(param(params, 0, 1))
	case 'M': // DL
		t.deleteLines(param(params, 0, 1))
	case '@': // ICH
		t.insertChars(param(params, 0, 1))
	case 'P': // DCH
		t.deleteChars(param(params, 0, 1))
	case 'S': // SU
		t.pendingWrap = false
		t.scrollUp(param(params, 0, 1))
	case 'T': // SD
		if len(params) <= 1 {
			t.pendingWrap = false
			t.scrollDown(param(params, 0, 1))
		}
	case 'b': // REP
		t.repeat(param(params, 0, 1))
	case 'r': // DECSTBM
		t.setMargins(param(params, 0, 1), param(params, 1, t.rows))
	case 'h': // SM
		t.setANSIModes(params, true)
	case 'l': // RM
		t.setANSIModes(params, false)
	case 'c': // DA1
		if param(params, 0, 0) == 0 {
			t.sendReply([]byte("\x1b[?62;22c"))
		}
	case 'n': // DSR
		switch param(params, 0, 0) {
		case 5:
			t.sendReply([]byte("\x1b[0n"))
		case 6:
			t.reportCursor(false)
		}
	case 't': // XTWINOPS: only the size reports, for graphics (kitty.go)
		t.windowReport(params)
	case 's': // SCOSC
		t.saveCursor()
	case 'u': // SCORC
		t.restoreCursor()
	}
}

// maxParam bounds numeric parameters so arithmetic never overflows.
const maxParam = 1 << 20

// param returns params[i], or def when it is missing or 0.
func param(params []int64, i, def int) int {
	if i >= len(params) || params[i] == 0 {
		return def
	}
	v := params[i]
	if v > maxParam {
		return maxParam
	}
	if v < 0 {
		return def
	}
	return int(v)
}

// printASCII prints a run of printable ASCII bytes (0x20..0x7e).
func (t *Terminal) printASCII(b []byte) {
	t.changed = true
	if t.lineDrawing {
		for _, c := range b {
			t.printRune(rune(c))
		}
		return
	}
	t.lastRune = rune(b[len(b)-1])
	pen := t.penID
	for len(b) > 0 {
		if t.pendingWrap {
			t.wrap()
		}
		l := t.scr.at(t.y)
		l.own()
		t.damage(l)
		n := t.cols - t.x
		if n > len(b) {
			n = len(b)
		}
		if t.modes.Insert {
			t.shiftRight(l, t.x, n)
		}
		cells := l.cells[t.x : t.x+n]
		for i, c := range b[:n] {
			if cells[i].flags != 0 {
				l.breakWide(t.x + i)
			}
			cells[i] = cell{ch: rune(c), style: pen}
		}
		l.touch(t.x + n)
		if end := t.x + n; end < t.cols && l.cells[end].flags&cellCont != 0 {
			l.cells[end] = cell{style: l.cells[end].style}
		}
		b = b[n:]
		t.x += n
		if t.x >= t.cols {
			t.x = t.cols - 1
			if t.modes.AutoWrap {
				t.pendingWrap = true
			} else if len(b) > 0 {
				// Without autowrap the rest overwrites the last column.
				c := b[len(b)-1]
				if l.cells[t.x].flags != 0 {
					l.breakWide(t.x)
				}
				l.cells[t.x] = cell{ch: rune(c), style: pen}
				b = nil
			}
		}
	}
}

// decGraphics maps DEC special graphics (ESC ( 0) to Unicode.
var decGraphics = [...]rune{
	'◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺',
	'⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

// printRune prints one character of any width.
func (t *Terminal) printRune(r rune) {
	t.changed = true
	if t.lineDrawing && r >= 0x60 && r <= 0x7e {
		r = decGraphics[r-0x60]
	}
	var w int
	if r < 0x7f {
		w = 1
	} else {
		if t.widths == nil {
			t.widths = new(widthCache)
		}
		w = t.widths.runeWidth(r)
	}
	if (w == 0 || r >= 0x1f1e6 || t.prevHasMarks()) && t.joinCluster(r, w) {
		return
	}
	if w == 0 {
		return // nothing to attach to
	}
	if w == 2 && t.cols < 2 {
		w = 1
	}
	t.lastRune = r
	if t.pendingWrap {
		t.wrap()
	}
	if w == 2 && t.x == t.cols-1 {
		if t.modes.AutoWrap {
			l := t.scr.at(t.y)
			l.own()
			t.damage(l)
			l.breakWide(t.x)
			l.cells[t.x] = cell{style: t.eraseID, flags: cellPad}
			l.touch(t.cols)
			t.wrap()
		} else {
			t.x = t.cols - 2
		}
	}
	l := t.scr.at(t.y)
	l.own()
	t.damage(l)
	if t.modes.Insert {
		t.shiftRight(l, t.x, w)
	}
	l.breakWide(t.x)
	l.touch(t.x + w)
	if w == 2 {
		l.breakWide(t.x + 1)
		l.cells[t.x] = cell{ch: r, style: t.penID, flags: cellWide}
		l.cells[t.x+1] = cell{style: t.penID, flags: cellCont}
	} else {
		l.cells[t.x] = cell{ch: r, style: t.penID}
		if end := t.x + 1; end < t.cols && l.cells[end].flags&cellCont != 0 {
			l.cells[end] = cell{style: l.cells[end].style}
		}
	}
	t.x += w
	if t.x >= t.cols {
		t.x = t.cols - 1
		t.pendingWrap = t.modes.AutoWrap
	}
}

// breakWide clears whatever is at column x that would be corrupted by an
// overwrite: the other half of a wide character and combining marks.
func (l *line) breakWide(x int) {
	if x < 0 || x >= len(l.cells) {
		return
	}
	c := l.cells[x]
	if c.flags == 0 {
		return
	}
	if c.flags&cellCont != 0 && x > 0 && l.cells[x-1].flags&cellWide != 0 {
		l.clearCell(x - 1)
	}
	if c.flags&cellWide != 0 && x+1 < len(l.cells) && l.cells[x+1].flags&cellCont != 0 {
		l.clearCell(x + 1)
	}
	if c.flags&cellComb != 0 && l.comb != nil {
		delete(l.comb, x)
	}
	l.cells[x].flags = 0
}

func (l *line) clearCell(x int) {
	if l.cells[x].flags&cellComb != 0 && l.comb != nil {
		delete(l.comb, x)
	}
	l.cells[x] = cell{style: l.cells[x].style}
}

// repeat implements REP: print the last printed character n more times.
func (t *Terminal) repeat(n int) {
	if t.lastRune == 0 {
		return
	}
	if n > t.cols*t.rows {
		n = t.cols * t.rows
	}
	r := t.lastRune
	for i := 0; i < n; i++ {
		if r < 0x7f && !t.lineDrawing {
			b := [1]byte{byte(r)}
			t.printASCII(b[:])
		} else {
			t.printRune(r)
		}
	}
}

// wrap performs the deferred autowrap: mark the line soft-wrapped and move
// to the start of the next line.
func (t *Terminal) wrap() {
	l := t.scr.at(t.y)
	l.wrapped = true
	plain := l.plain // the flag changes no cell
	t.damage(l)
	l.plain = plain
	t.pendingWrap = false
	t.x = 0
	t.index()
}

func (t *Terminal) linefeed() {
	t.pendingWrap = false
	t.index()
}

func (t *Terminal) carriageReturn() {
	t.pendingWrap = false
	t.x = 0
}

func (t *Terminal) backspace() {
	if t.pendingWrap {
		t.pendingWrap = false
	}
	if t.x > 0 {
		t.x--
	}
}

// index moves the cursor down one line, scrolling the region at its bottom.
func (t *Terminal) index() {
	if t.y == t.bottom {
		t.scrollUp(1)
	} else if t.y < t.rows-1 {
		t.y++
	}
}

func (t *Terminal) reverseIndex() {
	t.pendingWrap = false
	if t.y == t.top {
		t.scrollDown(1)
	} else if t.y > 0 {
		t.y--
	}
}

// fullReset implements RIS.
func (t *Terminal) fullReset() {
	t.layout++
	if t.scr != t.primary {
		t.scr = t.primary
		t.alt = nil
	}
	for _, l := range t.primary.lines {
		l.reset(0)
		t.damage(l)
	}
	t.sb.clear()
	t.view = 0
	t.resetState()
	t.title = ""
	t.cwd = ""
	if t.rare != nil {
		t.rare.progress = ""
	}
	t.mark = promptMark{}
	t.links = linkTable{}
	if t.kitty != nil {
		t.kittyReset()
	}
	if t.opts.OnTitle != nil {
		t.opts.OnTitle("")
	}
}

// softReset implements DECSTR.
func (t *Terminal) softReset() {
	t.modes.CursorVisible = true
	t.modes.Insert = false
	t.modes.Origin = false
	t.modes.AutoWrap = true
	t.modes.AppCursor = false
	t.modes.AppKeypad = false
	t.top, t.bottom = 0, t.rows-1
	t.pen, t.penID, t.eraseID = style{}, 0, 0
	t.lineDrawing = false
	t.charsets = charsets{}
	t.pendingWrap = false
}

func (t *Terminal) alignmentTest() {
	for _, l := range t.scr.rowsAt(0, len(t.scr.lines)) {
		l.reset(0)
		l.own()
		t.damage(l)
		for i := range l.cells {
			l.cells[i].ch = 'E'
		}
		l.touch(len(l.cells))
	}
	t.top, t.bottom = 0, t.rows-1
	t.x, t.y, t.pendingWrap = 0, 0, false
}
