package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// fakeText answers copy mode's calls the way protocol/copy.go describes
// them, on rows of plain text: history, then a screen of rows rows.
type fakeText struct {
	lines   []string
	rows    int
	offset  uint64
	rev     uint64
	prints  int // the pane prints a line before each of the next prints calls
	calls   []string
	motions []string
}

func newFakeText(n, rows int) *fakeText {
	f := &fakeText{rows: rows, rev: 7}
	for i := 1; i <= n; i++ {
		f.lines = append(f.lines, fmt.Sprintf("line %d: some words", i))
	}
	return f
}

func (f *fakeText) hist() uint64 { return uint64(len(f.lines) - f.rows) }

func (f *fakeText) print() {
	f.lines = append(f.lines, fmt.Sprintf("printed %d", len(f.lines)+1))
	f.rev++
	if f.offset > 0 {
		f.offset++ // a scrolled-back view stays on its lines
	}
}

func (f *fakeText) cell(p protocol.PaneTextPoint) byte {
	l := f.lines[p.Row]
	if int(p.Col) < len(l) {
		return l[p.Col]
	}
	return ' '
}

func (f *fakeText) call(method string, params, out any) error {
	b, _ := json.Marshal(params)
	f.calls = append(f.calls, method)
	if f.prints > 0 && method != "pane.scroll" {
		f.prints--
		f.print()
	}
	answer := map[string]func([]byte) (any, error){
		"pane.scroll": f.scroll, "pane.copy_motion": f.motion,
		"pane.copy_search": f.search, "pane.selection.read": f.selection,
	}[method]
	if answer == nil {
		return &protocol.Error{Code: protocol.CodeUnknownMethod, Message: method}
	}
	res, err := answer(b)
	if err != nil || out == nil {
		return err
	}
	rb, _ := json.Marshal(res)
	return json.Unmarshal(rb, out)
}

// checkRev refuses a call made against another revision of the text.
func (f *fakeText) checkRev(rev *uint64) error {
	if rev != nil && *rev != f.rev {
		return &protocol.Error{Code: protocol.CodeStaleContentRevision, Message: "stale"}
	}
	return nil
}

// scroll answers pane.scroll.
func (f *fakeText) scroll(b []byte) (any, error) {
	var p protocol.PaneScrollParams
	_ = json.Unmarshal(b, &p)
	f.offset = min(p.OffsetFromBottom, f.hist())
	return protocol.PaneInfoResult{Pane: protocol.PaneInfo{PaneID: p.PaneID, Scroll: &protocol.PaneScrollInfo{OffsetFromBottom: f.offset, MaxOffsetFromBottom: f.hist(), ViewportRows: uint64(f.rows)}}}, nil
}

// motion answers pane.copy_motion.
func (f *fakeText) motion(b []byte) (any, error) {
	var p protocol.PaneCopyMotionParams
	_ = json.Unmarshal(b, &p)
	if err := f.checkRev(p.ContentRevision); err != nil {
		return nil, err
	}
	if p.ContentRevision != nil { // not a re-read
		f.motions = append(f.motions, p.Motion)
	}
	cur := p.Cursor
	switch p.Motion {
	case protocol.MotionLineEnd:
		cur.Col = uint16(max(len(strings.TrimRight(f.lines[cur.Row], " "))-1, 0))
	case protocol.MotionNextWordStart:
		for f.cell(cur) != ' ' {
			cur.Col++
		}
		cur.Col++
	}
	return protocol.PaneCopyMotion{PaneID: p.PaneID, Cursor: cur, ContentRevision: f.rev}, nil
}

// search answers pane.copy_search.
func (f *fakeText) search(b []byte) (any, error) {
	var p protocol.PaneCopySearchParams
	_ = json.Unmarshal(b, &p)
	if err := f.checkRev(p.ContentRevision); err != nil {
		return nil, err
	}
	var all []protocol.PaneTextRange
	for row, l := range f.lines {
		for i := 0; ; {
			j := strings.Index(l[i:], p.Query)
			if j < 0 {
				break
			}
			all = append(all, protocol.PaneTextRange{Start: protocol.PaneTextPoint{Row: uint32(row), Col: uint16(i + j)}, End: protocol.PaneTextPoint{Row: uint32(row), Col: uint16(i + j + len(p.Query) - 1)}})
			i += j + 1
		}
	}
	r := protocol.PaneCopySearch{PaneID: p.PaneID, ContentRevision: f.rev, Total: uint64(len(all))}
	cur := -1
	for i, m := range all {
		if p.Direction == protocol.SearchForward && before(p.Cursor, m.Start) && cur < 0 {
			cur = i
		}
		if p.Direction == protocol.SearchBackward && before(m.Start, p.Cursor) {
			cur = i
		}
	}
	if cur < 0 && len(all) > 0 { // wrap around
		cur = 0
		if p.Direction == protocol.SearchBackward {
			cur = len(all) - 1
		}
	}
	if cur >= 0 {
		from := max(cur-protocol.CopySearchMaxMatches/2, 0)
		to := min(from+protocol.CopySearchMaxMatches, len(all))
		r.Matches = all[from:to]
		c, g := uint32(cur-from), uint64(cur)
		r.Current, r.CurrentGlobal = &c, &g
	}
	return r, nil
}

// selection answers pane.selection.read.
func (f *fakeText) selection(b []byte) (any, error) {
	var p protocol.PaneSelectionReadParams
	_ = json.Unmarshal(b, &p)
	if err := f.checkRev(p.ContentRevision); err != nil {
		return nil, err
	}
	a, c := p.Anchor, p.Cursor
	if before(c, a) {
		a, c = c, a
	}
	var out []string
	for row := a.Row; row <= c.Row; row++ {
		l := f.lines[row]
		from, to := 0, len(l)
		if row == a.Row {
			from = min(int(a.Col), len(l))
		}
		if row == c.Row {
			to = min(int(c.Col)+1, len(l))
		}
		out = append(out, strings.TrimRight(l[from:max(to, from)], " "))
	}
	return protocol.PaneSelection{PaneID: p.PaneID, Text: strings.Join(out, "\n")}, nil
}

// drive runs cmd and what its answers lead to, feeding copy mode's
// answers back to the model. Commands that wait (a toast's timer) are
// left behind.
func drive(m *model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- c() }()
		var msg tea.Msg
		select {
		case msg = <-got:
		case <-time.After(200 * time.Millisecond):
			continue
		}
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case copyAnswerMsg:
			queue = append(queue, m.copy.copyAnswered(msg))
		case toastMsg:
			m.toast.show(msg.text)
		}
	}
}

// copyModel starts copy mode on w1:p2 (18 rows, cursor at (2, 1)) over
// a fake pane of n lines.
func copyModel(t *testing.T, n int) (*model, *fakeText) {
	t.Helper()
	m, _ := viewModel(t)
	f := newFakeText(n, 18)
	m.link.req = fakeReq(f.call)
	drive(m, m.copy.enterCopy(m.focusedPaneID()))
	if m.mode != modeCopy || m.copy.paneID != "w1:p2" {
		t.Fatalf("copy mode did not start: mode %v, toast %q", m.mode, m.toast.text)
	}
	return m, f
}

func typeKeys(m *model, keys ...string) {
	for _, k := range keys {
		switch k {
		case "enter":
			drive(m, m.key(tea.KeyPressMsg{Code: tea.KeyEnter}))
		case "esc":
			drive(m, m.key(tea.KeyPressMsg{Code: tea.KeyEsc}))
		case "ctrl+b":
			drive(m, m.key(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}))
		default:
			drive(m, m.key(keyRunes(k)))
		}
	}
}

// Copy mode reaches the whole history, not the last 1000 lines: a
// backward search from the screen finds line 3 of 5000, the view scrolls
// there (pane.scroll), the status counts the match, the selection is
// pane.selection.read's text, copied through OSC 52, and leaving returns
// the view to the bottom.
func TestCopy_WholeHistorySearchSelectCopy(t *testing.T) {
	m, f := copyModel(t, 5000)
	c := &m.copy
	if c.hist != 5000-18 || c.cur != (protocol.PaneTextPoint{Row: uint32(c.hist) + 1, Col: 2}) || c.rev != 7 {
		t.Fatalf("started with hist %d, cursor %+v, rev %d; want %d, the pane's cursor (2, 1) on the screen, 7", c.hist, c.cur, c.rev, 5000-18)
	}
	typeKeys(m, "?", "line 3:", "enter")
	if c.cur != (protocol.PaneTextPoint{Row: 2}) {
		t.Fatalf("? line 3: went to %+v, want row 2 (toast %q)", c.cur, m.toast.text)
	}
	if f.offset != f.hist()-2 || c.offset != f.offset {
		t.Fatalf("the view is at offset %d (copy mode thinks %d), want %d: row 2 on top", f.offset, c.offset, f.hist()-2)
	}
	if st := m.copy.copyStatus(m.toast.text); !strings.Contains(st, "[1/1]") {
		t.Errorf("status %q does not count the match", st)
	}
	typeKeys(m, "v", "$", "y")
	if m.mode != modeTerminal || !strings.Contains(string(m.toHost), osc52("line 3: some words")) {
		t.Fatalf("y did not copy the line through OSC 52: mode %v, toHost %q", m.mode, m.toHost)
	}
	if f.offset != 0 {
		t.Fatalf("leaving left the view at offset %d", f.offset)
	}
}

// The pane printed between two keys: the call names a stale revision,
// copy mode reads the pane again and retries once; when the pane keeps
// printing it says so instead of acting on moved text.
func TestCopy_StaleRevisionRereadsOnce(t *testing.T) {
	m, f := copyModel(t, 100)
	c := &m.copy
	typeKeys(m, "g")
	f.prints = 1
	typeKeys(m, "w")
	if c.cur != (protocol.PaneTextPoint{Row: 0, Col: 5}) || c.rev != f.rev || f.rev != 8 {
		t.Fatalf("after a stale w: cursor %+v rev %d (pane's %d), want (0,5) at the new revision", c.cur, c.rev, f.rev)
	}
	if n := strings.Count(strings.Join(f.calls, " "), "pane.copy_motion"); n < 3 {
		t.Errorf("calls %v: want the motion, a re-read and the retry", f.calls)
	}
	f.prints = 100
	typeKeys(m, "w")
	if !strings.Contains(m.toast.text, "keeps changing") || c.cur.Col != 5 {
		t.Fatalf("a pane that keeps printing: toast %q, cursor %+v", m.toast.text, c.cur)
	}
}

// The motions Herdr's copy mode has, each asked of the server, and keys
// typed while a call is out wait for its answer.
func TestCopy_MotionKeys(t *testing.T) {
	m, f := copyModel(t, 50)
	typeKeys(m, "w", "b", "e", "W", "B", "E", "{", "}", "^", "$")
	want := []string{protocol.MotionNextWordStart, protocol.MotionPreviousWordStart, protocol.MotionNextWordEnd,
		protocol.MotionNextBigWordStart, protocol.MotionPreviousBigWordStart, protocol.MotionNextBigWordEnd,
		protocol.MotionPreviousParagraph, protocol.MotionNextParagraph, protocol.MotionFirstNonBlank, protocol.MotionLineEnd}
	if strings.Join(f.motions, " ") != strings.Join(want, " ") {
		t.Fatalf("motions asked: %v\nwant %v", f.motions, want)
	}
	f.motions = nil
	first := m.key(keyRunes("w"))
	m.key(keyRunes("w")) // while the first is out
	if len(m.copy.queued) != 1 {
		t.Fatalf("%d keys queued, want 1", len(m.copy.queued))
	}
	drive(m, first)
	if len(f.motions) != 2 || len(m.copy.queued) != 0 {
		t.Fatalf("motions after the answer: %v (queued %d), want the queued one asked too", f.motions, len(m.copy.queued))
	}
}

// Moving off the view scrolls it; g and G go to the ends of the text;
// esc clears a selection first, then leaves.
func TestCopy_ViewFollowsTheCursor(t *testing.T) {
	m, f := copyModel(t, 200)
	c := &m.copy
	hist := f.hist()
	typeKeys(m, "G")
	for range 17 {
		typeKeys(m, "k")
	}
	if f.offset != 0 || c.cur.Row != uint32(hist) {
		t.Fatalf("moving inside the view: offset %d cursor row %d, want 0, %d", f.offset, c.cur.Row, hist)
	}
	typeKeys(m, "k") // off the view's top row
	if f.offset != 1 || c.cur.Row != uint32(hist)-1 {
		t.Fatalf("off the top: offset %d cursor row %d, want 1, %d", f.offset, c.cur.Row, hist-1)
	}
	typeKeys(m, "g")
	if f.offset != hist || c.cur != (protocol.PaneTextPoint{}) {
		t.Fatalf("g: offset %d cursor %+v, want %d at (0,0)", f.offset, c.cur, hist)
	}
	typeKeys(m, "G")
	if f.offset != 0 || c.cur.Row != uint32(hist)+17 {
		t.Fatalf("G: offset %d cursor %+v, want 0 on the last row", f.offset, c.cur)
	}
	typeKeys(m, "ctrl+b")
	if f.offset != 17 {
		t.Fatalf("ctrl+b: offset %d, want a page (17)", f.offset)
	}
	typeKeys(m, "v", "esc")
	if m.mode != modeCopy || c.sel {
		t.Fatalf("esc with a selection: mode %v sel %v, want the selection cleared", m.mode, c.sel)
	}
	typeKeys(m, "esc")
	if m.mode != modeTerminal || f.offset != 0 {
		t.Fatalf("esc: mode %v offset %d, want terminal mode at the bottom", m.mode, f.offset)
	}
}

// Mouse selection on a pane's screen: a drag, a double click on a word (also
// next to wide cells), a triple click on the line; a press on the frame
// selects nothing.
func TestMouseSel_Text(t *testing.T) {
	m, _ := viewModel(t) // w1:p2 row 1 is "漢字"
	m.screens["w1:p2"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Lines: []protocol.ScreenLine{
		{Y: 2, Runs: []protocol.ScreenRun{{X: 0, W: 14, Text: "漢字 word-one x"}}},
	}})
	m.msel.press("w1:p2", 0, 1)
	m.msel.motion(5, 2)
	m.copyOnSelect = false
	if ok, _ := m.msel.release(); !ok || m.msel.text() != "漢字\n漢字 w" {
		t.Fatalf("drag selection = %q", m.msel.text())
	}
	m.msel.press("w1:p2", 7, 2)
	m.msel.release()
	m.msel.press("w1:p2", 7, 2)
	m.msel.release()
	if got := m.msel.text(); got != "word-one" {
		t.Fatalf("double click = %q", got)
	}
	m.msel.press("w1:p2", 7, 2)
	m.msel.release()
	if got := m.msel.text(); got != "漢字 word-one x" {
		t.Fatalf("triple click = %q", got)
	}
	m.msel.sel = nil
	m.msel.press("w1:p2", -1, 2)
	if m.msel.sel != nil {
		t.Fatal("a press on the frame started a selection")
	}
}

// The copy-mode cursor moves on its own state, with no server and no
// terminal: keys that need the server are not its.
func TestCopy_CursorKeyOnItsOwnState(t *testing.T) {
	c := &copyState{rows: 10, cols: 20, hist: 5}
	for _, k := range []string{"j", "j", "l", "l", "l", "h"} {
		if !c.cursorKey(k) {
			t.Fatalf("%q is not a cursor key", k)
		}
	}
	if c.cur.Row != 2 || c.cur.Col != 2 {
		t.Fatalf("cursor at %+v, want row 2 col 2", c.cur)
	}
	c.cursorKey("V")
	if !c.sel || c.anchor.Row != 2 || c.anchor.Col != 0 || c.cur.Col != 19 {
		t.Fatalf("V: sel %v anchor %+v cur %+v", c.sel, c.anchor, c.cur)
	}
	c.cursorKey("v")
	if c.sel {
		t.Fatalf("v did not end the selection")
	}
	c.cursorKey("G")
	if c.cur.Row != c.lastRow() {
		t.Fatalf("G: row %d, want %d", c.cur.Row, c.lastRow())
	}
	for _, k := range []string{"w", "ctrl+d", "/", "y", "q"} {
		if c.cursorKey(k) {
			t.Errorf("%q moved the cursor locally", k)
		}
	}
}

// fakeReq is a request connection whose every request goes to a test's
// fake server; its send and sendThen report as rpcConn's do, from another
// goroutine.
type fakeReq rpcFunc

func (f fakeReq) call(method string, params, out any) error { return f(method, params, out) }

func (f fakeReq) send(method string, params any, onErr func(error)) {
	if err := f(method, params, nil); err != nil && onErr != nil {
		go onErr(err)
	}
}

func (f fakeReq) sendThen(method string, params any, done func(error)) {
	err := f(method, params, nil)
	go done(err)
}

func (fakeReq) close() error           { return nil }
func (fakeReq) ended() <-chan struct{} { return nil }
func (fakeReq) handedOff() bool        { return false }
