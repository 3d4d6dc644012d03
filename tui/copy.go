package tui

import (
	"encoding/base64"
	"errors"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// Copy mode (prefix [) works on the pane's own text through the server:
// the whole kept history followed by the screen, in the points of
// protocol/copy.go (row 0 the oldest kept line, the screen's top row
// hist). Entering moves the pane's view with pane.scroll, so its frames
// show the history copy mode looks at, and leaving returns it to the
// bottom. Keys move a cursor: cell by cell, line by line and page by page
// here, following with pane.scroll when it leaves the view; the word,
// big-word, paragraph, line-end and first-non-blank motions ask
// pane.copy_motion; / and ? and n/N ask pane.copy_search (the whole
// history); v or space select and y or enter copy pane.selection.read's
// text to the system clipboard through OSC 52. Every call names the
// content revision copy mode last saw; when the pane printed meanwhile
// (stale_content) copy mode reads the revision and its view again,
// retries once, then says so. One call is out at a time; keys typed
// meanwhile wait for its answer.

// copyKeysQueued bounds the keys kept while a call is out.
const copyKeysQueued = 64

// copyState is copy mode's view, cursor, selection and search.
type copyState struct {
	paneID string
	seq    uint64 // this copy mode's number: answers of an earlier one are dropped
	// rows and cols are the pane's view; hist is how many history rows
	// precede the screen and offset how far the view is scrolled back.
	rows, cols int
	hist       uint64
	offset     uint64
	rev        uint64 // the content revision the points are in
	cur        protocol.PaneTextPoint
	sel        bool
	anchor     protocol.PaneTextPoint
	// The search: the query, its direction, the matches of the last
	// answer (around the current one), their total and the current one.
	query   string
	back    bool
	matches []protocol.PaneTextRange
	total   uint64
	current int    // index into matches, -1: none
	global  uint64 // the current match's number in the whole text, from 0
	typing  bool   // the search query is being typed
	prompt  []rune
	busy    bool // a call is out
	queued  []tea.KeyPressMsg
}

// rpcFunc is one call to the server (rpcConn.call).
type rpcFunc func(method string, params, out any) error

// copyMode is copy mode as a component: its state, keys, calls and
// drawing. It reaches the client only through host and takes and gives
// back the keys through mode (the client's key mode).
type copyMode struct {
	copyState
	host copyHost
	mode *mode
}

// copyHost is what copy mode needs of the client around it.
type copyHost interface {
	// copyCall calls the server for copy mode.
	copyCall() rpcFunc
	// screen is a shown pane's screen (nil: not shown).
	screen(paneID string) *paneScreen
	// toast shows a message in the tab bar.
	toast(text string) tea.Cmd
	// yanked sends a yank to the clipboard and says where it went
	// (buffer.go).
	yanked(text string, kept protocol.BufferInfo, err error) tea.Cmd
}

// copyView is what a call's params are computed from: the revision and
// where the view's top row is.
type copyView struct {
	rev uint64
	top int64
}

// copyOp makes one call against the text at v and returns what to do with
// its answer in the model.
type copyOp func(call rpcFunc, v copyView, shift int64) (func(*copyMode) tea.Cmd, error)

// copyAnswerMsg carries the answer of a copy-mode call.
type copyAnswerMsg struct {
	seq   uint64
	fresh *copyFresh // what a re-read found, when there was one
	apply func(*copyMode) tea.Cmd
	err   error
}

// copyFresh is a re-read of the pane: its revision and view.
type copyFresh struct {
	rev          uint64
	hist, offset uint64
	rows         int
}

// errCopyMoving is told when the pane printed again between a re-read and
// the retry.
var errCopyMoving = errors.New("the pane's text keeps changing; try again")

func isStale(err error) bool {
	var pe *protocol.Error
	return errors.As(err, &pe) && pe.Code == protocol.CodeStaleContentRevision
}

// copyReread reads the pane's content revision, then its view (so a
// change between the two leaves the revision stale, not the view), with
// pane.scroll to offset. When pinned, a view scrolled back stays on the
// lines it showed with hist history rows: its offset grows by as many
// rows as the history did since.
func copyReread(call rpcFunc, paneID string, offset uint64, pinned bool, hist uint64) (*copyFresh, error) {
	var mo protocol.PaneCopyMotion
	if err := call("pane.copy_motion", protocol.PaneCopyMotionParams{PaneID: paneID, Motion: protocol.MotionFirstNonBlank}, &mo); err != nil {
		return nil, err
	}
	f := &copyFresh{rev: mo.ContentRevision}
	scroll := func(offset uint64) error {
		var info protocol.PaneInfoResult
		if err := call("pane.scroll", protocol.PaneScrollParams{PaneID: paneID, OffsetFromBottom: offset}, &info); err != nil {
			return err
		}
		if s := info.Pane.Scroll; s != nil {
			f.hist, f.offset, f.rows = s.MaxOffsetFromBottom, s.OffsetFromBottom, int(s.ViewportRows)
		}
		return nil
	}
	if err := scroll(offset); err != nil {
		return nil, err
	}
	if pinned && offset > 0 && f.hist > hist {
		if err := scroll(offset + f.hist - hist); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// copyDo runs op off the model's goroutine; a stale revision re-reads the
// pane and retries once.
func (c *copyMode) copyDo(op copyOp) tea.Cmd {
	c.busy = true
	call, id, seq, offset, hist := c.host.copyCall(), c.paneID, c.seq, c.offset, c.hist
	v := copyView{rev: c.rev, top: int64(c.hist) - int64(c.offset)}
	return func() tea.Msg {
		apply, err := op(call, v, 0)
		var fresh *copyFresh
		if isStale(err) {
			if fresh, err = copyReread(call, id, offset, true, hist); err == nil {
				nv := copyView{rev: fresh.rev, top: int64(fresh.hist) - int64(fresh.offset)}
				if apply, err = op(call, nv, nv.top-v.top); isStale(err) {
					err = errCopyMoving
				}
			}
		}
		return copyAnswerMsg{seq: seq, fresh: fresh, apply: apply, err: err}
	}
}

// copyAnswered applies an answer, then the keys that waited for it.
func (c *copyMode) copyAnswered(msg copyAnswerMsg) tea.Cmd {
	if msg.seq != c.seq || c.paneID == "" {
		return nil // copy mode ended, or another began
	}
	c.busy = false
	if f := msg.fresh; f != nil {
		// The cursor keeps its place in the view; the anchor and the
		// matches are points of the text.
		shift := (int64(f.hist) - int64(f.offset)) - (int64(c.hist) - int64(c.offset))
		c.rev, c.hist, c.offset = f.rev, f.hist, f.offset
		if f.rows > 0 {
			c.rows = f.rows
		}
		c.cur.Row = uint32(max(int64(c.cur.Row)+shift, 0))
		c.matches, c.current = nil, -1
		c.clamp()
	}
	var cmds []tea.Cmd
	if msg.err != nil {
		cmds = append(cmds, c.host.toast("copy mode: "+msg.err.Error()))
		if *c.mode != modeCopy {
			c.paneID, c.queued = "", nil // it never started
		}
	} else if msg.apply != nil {
		cmds = append(cmds, msg.apply(c))
	}
	for len(c.queued) > 0 && !c.busy && *c.mode == modeCopy {
		k := c.queued[0]
		c.queued = c.queued[1:]
		cmds = append(cmds, c.copyKey(k))
	}
	return tea.Batch(cmds...)
}

// enterCopy starts copy mode on pane id (the focused one): it reads the
// pane's revision and view, and the cursor starts where the pane's is.
func (c *copyMode) enterCopy(id string) tea.Cmd {
	s := c.host.screen(id)
	if id == "" || s == nil {
		return nil
	}
	c.copyState = copyState{paneID: id, seq: c.seq + 1, rows: max(s.rows, 1), cols: max(s.cols, 1), current: -1}
	offset := uint64(max(s.offset, 0))
	cx, cy := s.cursor.X, s.cursor.Y
	if !s.cursor.Visible || s.offset > 0 {
		cx, cy = 0, s.rows-1
	}
	c.offset = offset
	c.busy = true
	call, seq := c.host.copyCall(), c.seq
	return func() tea.Msg {
		f, err := copyReread(call, id, offset, false, 0)
		if err != nil {
			return copyAnswerMsg{seq: seq, err: err}
		}
		return copyAnswerMsg{seq: seq, fresh: f, apply: func(c *copyMode) tea.Cmd {
			c.cur = protocol.PaneTextPoint{Row: uint32(int(c.top()) + min(max(cy, 0), c.rows-1)), Col: uint16(max(cx, 0))}
			c.clamp()
			*c.mode = modeCopy
			return nil
		}}
	}
}

// leaveCopy ends copy mode and returns the pane's view to the bottom.
func (c *copyMode) leaveCopy() tea.Cmd {
	id, call := c.paneID, c.host.copyCall()
	*c.mode = modeTerminal
	c.copyState = copyState{seq: c.seq + 1, current: -1}
	return func() tea.Msg {
		if err := call("pane.scroll", protocol.PaneScrollParams{PaneID: id}, nil); err != nil {
			return toastMsg{"copy mode: " + err.Error()}
		}
		return nil
	}
}

// top is the text row shown on the view's first row.
func (c *copyState) top() uint64 { return c.hist - min(c.offset, c.hist) }

// lastRow is the screen's last row.
func (c *copyState) lastRow() uint32 { return uint32(c.hist) + uint32(max(c.rows-1, 0)) }

// clamp keeps the cursor in the text.
func (c *copyState) clamp() {
	c.cur.Row = min(c.cur.Row, c.lastRow())
	c.cur.Col = min(c.cur.Col, uint16(max(c.cols-1, 0)))
}

// follow scrolls the view (pane.scroll) so the cursor is on it.
func (c *copyMode) follow() tea.Cmd {
	c.clamp()
	row, top := uint64(c.cur.Row), c.top()
	offset := c.offset
	switch {
	case row < top:
		offset = c.hist - row
	case row >= top+uint64(c.rows):
		offset = c.hist - min(row-uint64(c.rows)+1, c.hist)
	}
	return c.scrollTo(offset)
}

// scrollTo moves the view to offset (pane.scroll), unless it is there.
func (c *copyMode) scrollTo(offset uint64) tea.Cmd {
	offset = min(offset, c.hist)
	if offset == c.offset {
		return nil
	}
	c.offset = offset
	id := c.paneID
	return c.copyDo(func(call rpcFunc, _ copyView, _ int64) (func(*copyMode) tea.Cmd, error) {
		var info protocol.PaneInfoResult
		if err := call("pane.scroll", protocol.PaneScrollParams{PaneID: id, OffsetFromBottom: offset}, &info); err != nil {
			return nil, err
		}
		return func(c *copyMode) tea.Cmd {
			if s := info.Pane.Scroll; s != nil {
				c.hist, c.offset = s.MaxOffsetFromBottom, s.OffsetFromBottom
				c.clamp()
			}
			return nil
		}, nil
	})
}

// copyFrame follows a frame of the copy-mode pane: a scrolled-back view
// stays on its lines while output pushes more into history, so the frame's
// offset grew by as many rows as the history did.
func (c *copyMode) copyFrame(paneID string) {
	s := c.host.screen(paneID)
	if *c.mode != modeCopy || paneID != c.paneID || c.busy || s == nil || c.offset == 0 {
		return
	}
	if off := uint64(max(s.offset, 0)); off > c.offset {
		c.hist += off - c.offset
		c.offset = off
	}
}

// shifted is p moved by shift rows, as the text moved under it since it
// was taken (copyDo).
func shifted(p protocol.PaneTextPoint, shift int64) protocol.PaneTextPoint {
	p.Row = uint32(max(int64(p.Row)+shift, 0))
	return p
}

// motion asks pane.copy_motion where name takes the cursor.
func (c *copyMode) motion(name string) tea.Cmd {
	id, cur := c.paneID, c.cur
	return c.copyDo(func(call rpcFunc, v copyView, shift int64) (func(*copyMode) tea.Cmd, error) {
		at := shifted(cur, shift)
		var res protocol.PaneCopyMotion
		if err := call("pane.copy_motion", protocol.PaneCopyMotionParams{PaneID: id, Cursor: at, Motion: name, ContentRevision: &v.rev}, &res); err != nil {
			return nil, err
		}
		return func(c *copyMode) tea.Cmd {
			c.cur, c.rev = res.Cursor, res.ContentRevision
			return c.follow()
		}, nil
	})
}

// search asks pane.copy_search for the next match of the query in
// direction back (or forward); again: the cursor is on the current match,
// which the search moves past.
func (c *copyMode) search(back, again bool) tea.Cmd {
	if c.query == "" {
		return nil
	}
	dir := protocol.SearchForward
	if back {
		dir = protocol.SearchBackward
	}
	var prev *protocol.PaneTextRange
	if again && c.current >= 0 && c.current < len(c.matches) && c.matches[c.current].Start == c.cur {
		p := c.matches[c.current]
		prev = &p
	}
	id, cur, query := c.paneID, c.cur, c.query
	return c.copyDo(func(call rpcFunc, v copyView, shift int64) (func(*copyMode) tea.Cmd, error) {
		at := shifted(cur, shift)
		p := prev
		if shift != 0 {
			p = nil // the text moved under it
		}
		var res protocol.PaneCopySearch
		if err := call("pane.copy_search", protocol.PaneCopySearchParams{PaneID: id, Query: query, Direction: dir, Cursor: at, ContentRevision: &v.rev, Previous: p}, &res); err != nil {
			return nil, err
		}
		return func(c *copyMode) tea.Cmd {
			c.rev, c.matches, c.total, c.current = res.ContentRevision, res.Matches, res.Total, -1
			if res.Current == nil || int(*res.Current) >= len(res.Matches) {
				return c.host.toast("not found: " + protocol.Printable(query))
			}
			c.current = int(*res.Current)
			if res.CurrentGlobal != nil {
				c.global = *res.CurrentGlobal
			}
			c.cur = res.Matches[c.current].Start
			return c.follow()
		}, nil
	})
}

// yank copies the selection (pane.selection.read) to a paste buffer and
// the clipboard, and leaves copy mode.
func (c *copyMode) yank() tea.Cmd {
	id, anchor, cur := c.paneID, c.anchor, c.cur
	return c.copyDo(func(call rpcFunc, v copyView, shift int64) (func(*copyMode) tea.Cmd, error) {
		at := shifted(cur, shift)
		var res protocol.PaneSelection
		if err := call("pane.selection.read", protocol.PaneSelectionReadParams{PaneID: id, Anchor: anchor, Cursor: at, ContentRevision: &v.rev}, &res); err != nil {
			return nil, err
		}
		var kept protocol.BufferInfo
		var keepErr error
		if res.Text != "" {
			kept, keepErr = keepYank(call, res.Text) // buffer.go
		}
		return func(c *copyMode) tea.Cmd {
			return tea.Batch(c.leaveCopy(), c.host.yanked(res.Text, kept, keepErr))
		}, nil
	})
}

// copyMotions are the copy-mode keys the server's motions answer.
var copyMotions = map[string]string{
	"^": protocol.MotionFirstNonBlank,
	"$": protocol.MotionLineEnd, "end": protocol.MotionLineEnd, "ctrl+e": protocol.MotionLineEnd,
	"w": protocol.MotionNextWordStart, "b": protocol.MotionPreviousWordStart, "e": protocol.MotionNextWordEnd,
	"W": protocol.MotionNextBigWordStart, "B": protocol.MotionPreviousBigWordStart, "E": protocol.MotionNextBigWordEnd,
	"{": protocol.MotionPreviousParagraph, "}": protocol.MotionNextParagraph,
}

func (c *copyMode) copyKey(k tea.KeyPressMsg) tea.Cmd {
	if c.typing {
		return c.copyPromptKey(k)
	}
	if c.busy {
		if len(c.queued) < copyKeysQueued {
			c.queued = append(c.queued, k)
		}
		return nil
	}
	key := k.String()
	if mo, ok := copyMotions[key]; ok {
		return c.motion(mo)
	}
	if c.cursorKey(key) {
		return c.follow()
	}
	if cmd, ok := c.copyScrollKey(key); ok {
		return cmd
	}
	return c.copyActionKey(key)
}

// cursorKey moves the cursor by a key that needs no server: it says
// whether the key was one.
func (c *copyState) cursorKey(key string) bool {
	switch key {
	case "h", "left":
		c.cur.Col = uint16(max(int(c.cur.Col)-1, 0))
	case "l", "right":
		c.cur.Col++
	case "j", "down", "ctrl+n":
		c.cur.Row++
	case "k", "up", "ctrl+p":
		c.cur.Row = uint32(max(int64(c.cur.Row)-1, 0))
	case "0", "home", "ctrl+a":
		c.cur.Col = 0
	case "g", "alt+<":
		c.cur = protocol.PaneTextPoint{}
	case "G", "alt+>":
		c.cur = protocol.PaneTextPoint{Row: c.lastRow()}
	case "v", "space", "ctrl+space", "ctrl+@":
		if c.sel {
			c.sel = false
		} else {
			c.sel, c.anchor = true, c.cur
		}
	case "V":
		c.sel = true
		c.anchor = protocol.PaneTextPoint{Row: c.cur.Row}
		c.cur.Col = uint16(max(c.cols-1, 0))
	default:
		return false
	}
	return true
}

// copyScrollKey moves the view by pages and lines.
func (c *copyMode) copyScrollKey(key string) (tea.Cmd, bool) {
	page := max(c.rows-1, 1)
	switch key {
	case "ctrl+u":
		return c.copyPage(-page / 2), true
	case "ctrl+d":
		return c.copyPage(page / 2), true
	case "ctrl+b", "pgup", "alt+v":
		return c.copyPage(-page), true
	case "ctrl+f", "pgdown", "ctrl+v":
		return c.copyPage(page), true
	case "ctrl+y":
		// The view one line up; the cursor stays unless it falls off.
		offset := min(c.offset+1, c.hist)
		if bottom := int64(c.hist) - int64(offset) + int64(c.rows) - 1; int64(c.cur.Row) > bottom {
			c.cur.Row = uint32(max(bottom, 0))
		}
		return c.scrollTo(offset), true
	}
	return nil, false
}

// copyActionKey: leaving, searching and yanking.
func (c *copyMode) copyActionKey(key string) tea.Cmd {
	switch key {
	case "q", "esc", "ctrl+c":
		if key == "esc" && (c.sel || c.query != "") {
			// Esc clears a selection or a search before it leaves.
			c.sel, c.query, c.matches, c.total, c.current = false, "", nil, 0, -1
			return nil
		}
		return c.leaveCopy()
	case "/", "?":
		c.typing, c.back, c.prompt = true, key == "?", nil
		return nil
	case "n":
		return c.search(c.back, true)
	case "N":
		return c.search(!c.back, true)
	case "y", "enter", "alt+w":
		if !c.sel {
			return nil
		}
		return c.yank()
	}
	return c.follow()
}

// copyPage moves the view and the cursor n rows (negative: back).
func (c *copyMode) copyPage(n int) tea.Cmd {
	offset := uint64(min(max(int64(c.offset)-int64(n), 0), int64(c.hist)))
	c.cur.Row = uint32(min(max(int64(c.cur.Row)+int64(n), 0), int64(c.lastRow())))
	cmd := c.scrollTo(offset)
	if cmd == nil {
		return c.follow()
	}
	return cmd
}

// copyPromptKey edits the search query.
func (c *copyMode) copyPromptKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc", "ctrl+c":
		c.typing = false
	case "enter":
		c.typing = false
		if len(c.prompt) > 0 {
			c.query = string(c.prompt)
		}
		return c.search(c.back, false)
	case "backspace", "ctrl+h":
		if len(c.prompt) > 0 {
			c.prompt = c.prompt[:len(c.prompt)-1]
		}
	case "ctrl+u":
		c.prompt = nil
	default:
		if text, ok := typedText(k); ok {
			c.prompt = append(c.prompt, []rune(text)...)
		}
	}
	return nil
}

// osc52 is the sequence that sets the system clipboard to text.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// before reports whether point a comes before b in the text.
func before(a, b protocol.PaneTextPoint) bool {
	return a.Row < b.Row || a.Row == b.Row && a.Col < b.Col
}

// inRange reports whether cell (col, row) lies in r, both ends included.
func inRange(r protocol.PaneTextRange, row uint32, col uint16) bool {
	p := protocol.PaneTextPoint{Row: row, Col: col}
	return !before(p, r.Start) && !before(r.End, p)
}

// selection is the selected range in reading order.
func (c *copyState) selection() (protocol.PaneTextRange, bool) {
	if !c.sel {
		return protocol.PaneTextRange{}, false
	}
	if before(c.cur, c.anchor) {
		return protocol.PaneTextRange{Start: c.cur, End: c.anchor}, true
	}
	return protocol.PaneTextRange{Start: c.anchor, End: c.cur}, true
}

// viewCursor is the cursor's cell on the view, as drawn.
func (c *copyMode) viewCursor() (x, y int) {
	return int(c.cur.Col), int(int64(c.cur.Row) - int64(c.drawnTop()))
}

// drawnTop is the text row of the view's first row as the pane's frames
// draw it (their offset, which follows pane.scroll).
func (c *copyMode) drawnTop() uint64 {
	if s := c.host.screen(c.paneID); s != nil {
		return c.hist - min(uint64(max(s.offset, 0)), c.hist)
	}
	return c.top()
}

// drawCopy draws the pane's view at (x, y, w, h) with the matches and the
// selection over it.
func (c *copyMode) drawCopy(cv *canvas, x, y, w, h int, th *theme) {
	cv.fill(x, y, w, h, " ", cellStyle{})
	s := c.host.screen(c.paneID)
	if s == nil {
		return
	}
	s.drawInto(cv, x, y, w, h)
	top := uint32(c.drawnTop())
	bottom := top + uint32(max(h-1, 0))
	// Only the matches on the view are looked at per cell.
	var shown []protocol.PaneTextRange
	for _, r := range c.matches {
		if r.End.Row >= top && r.Start.Row <= bottom {
			shown = append(shown, r)
		}
	}
	sel, hasSel := c.selection()
	for row := 0; row < h; row++ {
		abs := top + uint32(row)
		for col := 0; col < w; col++ {
			cell := uint16(col)
			switch {
			case hasSel && inRange(sel, abs, cell):
				cv.restyle(x+col, y+row, func(cellStyle) cellStyle { return th.selection })
			case matchAt(shown, abs, cell):
				cv.restyle(x+col, y+row, func(cellStyle) cellStyle { return th.match })
			}
		}
	}
}

// matchAt reports whether one of the matches covers the cell.
func matchAt(matches []protocol.PaneTextRange, row uint32, col uint16) bool {
	for _, r := range matches {
		if inRange(r, row, col) {
			return true
		}
	}
	return false
}

// copyStatus is copy mode's line in the tab bar, after the toast's text.
func (c *copyMode) copyStatus(toast string) string {
	if c.typing {
		dir := "/"
		if c.back {
			dir = "?"
		}
		return " search " + dir + string(c.prompt) + "▏"
	}
	s := " COPY " + strconv.FormatUint(uint64(c.cur.Row)+1, 10) + "/" + strconv.FormatUint(uint64(c.lastRow())+1, 10)
	if c.query != "" && c.current >= 0 {
		s += " · [" + strconv.FormatUint(c.global+1, 10) + "/" + strconv.FormatUint(c.total, 10) + "]"
	}
	if c.sel {
		s += " · y copy"
	} else {
		s += " · v select"
	}
	s += " · / search · q "
	if toast != "" {
		s = " " + toast + " ·" + s
	}
	return s
}
