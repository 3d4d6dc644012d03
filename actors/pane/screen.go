package pane

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// The screen stream: connections that watch this pane get frames of the
// rows that changed since the last frame they were sent. Frames are
// coalesced to at most protocol.ScreenMaxFPS a second, each connection
// has at most one frame in flight (the next one is built when it says the
// last was written), and nothing is sent when nothing changed.

// frameInterval is the shortest time between two frames of a pane.
const frameInterval = time.Second / protocol.ScreenMaxFPS

// echoWindow is how long after input a pane's output is the echo someone
// is waiting for, and is framed at once.
const echoWindow = 50 * time.Millisecond

// ScreenWatch starts (Watch) or stops streaming this pane's screen to the
// connection Sub, naming the pane PaneID in its frames.
type ScreenWatch struct {
	Sub    *actor.PID
	PaneID string
	Watch  bool
	// Graphics: the connection draws graphics layers, and gets them.
	Graphics bool
}

// SetRightClick is the pane's right_click setting (pane.input.set,
// pane.split): ToPane is "pane". Its frames carry it, so the interactive
// client knows whether a right click opens its menu or goes here.
type SetRightClick struct{ ToPane bool }

// screenTick is the coalescing timer firing.
type screenTick struct{}

// screenSub is one connection watching the pane. Invariant: sent holds the
// key of every row as of the last frame sent (nil before the first one):
// the emulator's row versions on the live screen, row hashes while the
// view is scrolled back into history (byVersion says which).
type screenSub struct {
	pid       *actor.PID
	paneID    string
	sent      []uint64
	byVersion bool
	cols      int
	cursor    protocol.ScreenCursor
	modes     protocol.ScreenModes
	offset    int    // view offset of the last frame (view.go)
	bells     uint64 // the pane's bell count as of the last frame
	clipSeq   uint64 // the pane's clipboard sets as of the last frame
	seq       uint64
	inflight  bool // a frame is being written
	stale     bool // the screen changed since the last frame
	// post, once the connection told it (kit.FramesWritten), sends it
	// frames with its mailbox run on the pane's goroutine when idle: an
	// echo's frame wakes no goroutine of the connection's.
	post func(send func())
	// Graphics layers (graphics.go), for a connection that asked: the
	// layers' version and each layer's image generation as last sent.
	graphics   bool
	gfxVersion uint64
	gfxSent    map[string]uint64
	gfxSeq     uint64
}

// screenState is the pane's side of the stream.
type screenState struct {
	subs      []*screenSub
	rows      []emulator.RowSnapshot // scratch, reused between frames
	built     []bool                 // which rows this flush has snapshotted
	keys      []uint64               // this flush's row keys
	lastFlush time.Time
	armed     bool // a screenTick is pending
	// lineJSON holds this flush's encoding of each row some subscriber
	// lacks (nil: not encoded yet): a row is encoded once per flush
	// however many connections watch the pane.
	lineJSON [][]byte
	ys       []int // scratch: the rows of one subscriber's frame
}

// receiveScreen handles the stream's messages.
func (p *Pane) receiveScreen(ctx actor.Context, msg any) {
	switch msg := msg.(type) {
	case *ScreenWatch:
		p.screenWatch(ctx, msg)
	case *kit.FramesWritten:
		if s := p.screenSubOf(msg.Sub); s != nil {
			s.inflight = false
			if msg.Post != nil {
				s.post = msg.Post
			}
			if msg.Resend { // the connection shows the pane again: everything, images too
				s.sent, s.gfxVersion, s.gfxSent, s.stale = nil, 0, nil, true
			}
			if s.stale {
				p.scheduleFrames(ctx)
			}
		}
	case *screenTick:
		if p.screen != nil {
			p.screen.armed = false
			p.flushFrames(ctx)
			p.screenIdle()
		}
	case *SetRightClick:
		if p.rightClickPane != msg.ToPane {
			p.rightClickPane = msg.ToPane
			p.screenChanged(ctx)
		}
	default:
		kit.Unhandled(ctx, msg, p.spec.Log)
	}
}

// send sends the connection f, on the pane's goroutine when it can.
func (s *screenSub) send(ctx actor.Context, f *kit.Frames) {
	if s.post == nil {
		ctx.Send(s.pid, f)
		return
	}
	s.post(func() { ctx.Send(s.pid, f) })
}

// screenOf returns the stream's state, made at first need.
func (p *Pane) screenOf() *screenState {
	if p.screen == nil {
		p.screen = new(screenState)
	}
	return p.screen
}

// screenIdle lets the stream's state go once nobody watches and no tick
// is pending: its scratch is a frame's worth of rows.
func (p *Pane) screenIdle() {
	if st := p.screen; st != nil && len(st.subs) == 0 && !st.armed {
		p.screen = nil
	}
}

// screenSubs returns the connections watching the pane.
func (p *Pane) screenSubs() []*screenSub {
	if p.screen == nil {
		return nil
	}
	return p.screen.subs
}

func (p *Pane) screenSubOf(pid *actor.PID) *screenSub {
	for _, s := range p.screenSubs() {
		if s.pid.Equal(pid) {
			return s
		}
	}
	return nil
}

func (p *Pane) screenWatch(ctx actor.Context, m *ScreenWatch) {
	s := p.screenSubOf(m.Sub)
	if !m.Watch {
		if s != nil {
			p.dropScreen(m.Sub)
		}
		return
	}
	if s == nil {
		s = &screenSub{pid: m.Sub, bells: p.bells} // bells and clipboard sets from now on
		s.clipSeq, _ = p.term.Clipboard()
		st := p.screenOf()
		st.subs = append(st.subs, s)
		ctx.Watch(m.Sub)
	}
	if s.paneID != m.PaneID || s.graphics != m.Graphics {
		// A renamed pane starts over with a full frame, and its images.
		s.paneID, s.sent, s.graphics, s.gfxVersion, s.gfxSent = m.PaneID, nil, m.Graphics, 0, nil
	}
	s.stale = true
	p.scheduleFrames(ctx)
}

// dropScreen forgets a connection that went away or stopped watching.
func (p *Pane) dropScreen(who *actor.PID) {
	st := p.screen
	if st == nil {
		return
	}
	kept := st.subs[:0]
	for _, s := range st.subs {
		if !s.pid.Equal(who) {
			kept = append(kept, s)
		}
	}
	clear(st.subs[len(kept):])
	st.subs = kept
	p.screenIdle()
}

// screenChanged is called after output or a resize changed the terminal.
func (p *Pane) screenChanged(ctx actor.Context) {
	if (p.extras != nil || p.term.KittyVersion() != 0) && p.more().kitty.sync(p.term) {
		p.graphicsChanged(ctx)
	}
	if len(p.screenSubs()) == 0 {
		return
	}
	for _, s := range p.screen.subs {
		s.stale = true
	}
	p.scheduleFrames(ctx)
}

// scheduleFrames flushes now when the last flush is old enough, else arms
// the timer for the rest of the interval. Right after input (someone is
// typing, and waits for the echo) there is no interval: the cap is for
// output nobody is waiting on, and a keystroke's echo is small.
func (p *Pane) scheduleFrames(ctx actor.Context) {
	st := p.screenOf()
	if st.armed {
		return
	}
	wait := frameInterval - time.Since(st.lastFlush)
	if wait <= 0 || time.Since(p.typedAt) < echoWindow {
		p.flushFrames(ctx)
		return
	}
	st.armed = true
	p.timers.After(ctx, wait, &screenTick{})
}

// flushFrames sends every stale, idle subscriber the rows it has not seen.
func (p *Pane) flushFrames(ctx actor.Context) {
	st := p.screen
	if st == nil {
		return
	}
	ready := false
	for _, s := range st.subs {
		ready = ready || (s.stale && !s.inflight)
	}
	if !ready || p.term == nil {
		return
	}
	st.lastFlush = time.Now()
	// On the live screen the emulator's row versions say what changed, and
	// only rows some subscriber lacks are snapshotted. A view scrolled back
	// into history has no versions: every row is snapshotted and hashed.
	byVersion := false
	if vers := p.term.RowVersions(st.keys); vers != nil {
		st.keys, byVersion = vers, true
		st.rows = slices.Grow(st.rows[:0], len(vers))[:len(vers)]
		st.built = slices.Grow(st.built[:0], len(vers))[:len(vers)]
		clear(st.built)
	} else {
		st.rows = p.term.Rows(st.rows)
		st.keys = st.keys[:0]
		for i := range st.rows {
			st.keys = append(st.keys, hashRow(&st.rows[i]))
		}
		st.built = st.built[:0]
	}
	row := func(y int) *emulator.RowSnapshot {
		if byVersion && !st.built[y] {
			st.rows[y] = p.term.Row(y, st.rows[y])
			st.built[y] = true
		}
		return &st.rows[y]
	}
	cols, _ := p.term.Size()
	cur := p.term.CursorState()
	modes := p.term.Modes()
	cursor := protocol.ScreenCursor{X: cur.Col, Y: cur.Row, Visible: cur.Visible, Shape: int(cur.Shape)}
	bells := p.bells
	clipSeq, clip := p.term.Clipboard()
	offset := p.term.ViewOffset()
	_, history, _ := p.term.ScrollInfo()
	wireModes := protocol.ScreenModes{
		AppCursor:      modes.AppCursor,
		BracketedPaste: modes.BracketedPaste,
		Mouse:          modes.MouseReporting(),
		MouseSGR:       modes.MouseSGR,
		MouseDrag:      modes.MouseButton || modes.MouseAny,
		MouseMotion:    modes.MouseAny,
		MousePressOnly: modes.MouseX10 && !modes.MouseNormal && !modes.MouseButton && !modes.MouseAny,
		AltScreen:      modes.AltScreen,
		RightClickPane: p.rightClickPane,
		KittyKeys:      modes.KittyKeys,
	}
	st.lineJSON = slices.Grow(st.lineJSON[:0], len(st.keys))[:len(st.keys)]
	clear(st.lineJSON)
	lineJSON := func(y int) []byte {
		if st.lineJSON[y] == nil {
			st.lineJSON[y] = appendLineJSON(nil, y, row(y))
		}
		return st.lineJSON[y]
	}
	for _, s := range st.subs {
		if !s.stale || s.inflight {
			continue
		}
		s.stale = false
		full := s.sent == nil || len(s.sent) != len(st.keys) || s.cols != cols || s.byVersion != byVersion
		frame := protocol.ScreenFrame{
			PaneID: s.paneID, TerminalID: p.spec.TerminalID, Cols: cols, Rows: len(st.keys),
			Full: full, Cursor: cursor, Modes: wireModes, ViewOffset: offset, History: int(history), Lines: []protocol.ScreenLine{},
		}
		st.ys = st.ys[:0]
		for y := range st.keys {
			if full || s.sent[y] != st.keys[y] {
				st.ys = append(st.ys, y)
			}
		}
		frame.Bell = int(bells - s.bells)
		if clipSeq != s.clipSeq {
			frame.Clipboard = clip
		}
		var gfx [][]byte // none without extras: no layers, version 0
		if x := p.extras; x != nil {
			gfx = x.gfx.pieces(s, p.spec.TerminalID, &x.kitty, p.term)
		}
		if !full && len(st.ys) == 0 && cursor == s.cursor && wireModes == s.modes && offset == s.offset && frame.Bell == 0 && frame.Clipboard == "" {
			if gfx != nil { // only the graphics changed
				s.inflight = true
				s.send(ctx, &kit.Frames{Joined: gfx, From: ctx.Self()})
			}
			continue // nothing else this subscriber can see changed
		}
		s.seq++
		frame.Seq = s.seq
		line, err := encodeFrame(&frame, st.ys, lineJSON)
		if err != nil {
			continue
		}
		s.sent, s.byVersion = append(s.sent[:0], st.keys...), byVersion
		s.cols, s.cursor, s.modes, s.offset, s.bells, s.clipSeq = cols, cursor, wireModes, offset, bells, clipSeq
		s.inflight = true
		s.send(ctx, &kit.Frames{Lines: [][]byte{line}, Joined: gfx, From: ctx.Self()})
	}
}

// framesTail is how an encoded frame whose Lines is empty ends.
var framesTail = []byte(`"lines":[]}}`)

// encodeFrame renders frame (whose Lines is empty) as a screen.frame line
// with rows ys, each from lineJSON: byte for byte what encoding the frame
// with those lines would give, but a row's JSON is made once and shared
// by every subscriber's frame.
func encodeFrame(frame *protocol.ScreenFrame, ys []int, lineJSON func(int) []byte) ([]byte, error) {
	head, err := protocol.EncodeDedicated(protocol.ScreenFrameEvent, frame)
	if err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(head, framesTail) {
		return nil, errors.New("screen frame: unexpected encoding")
	}
	size := len(head)
	for _, y := range ys {
		size += len(lineJSON(y)) + 1
	}
	out := make([]byte, 0, size)
	out = append(out, head[:len(head)-len("]}}")]...)
	for i, y := range ys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, lineJSON(y)...)
	}
	return append(out, "]}}"...), nil
}

// appendLineJSON appends the JSON of row y, byte for byte what
// encoding/json makes of wireLine(y, r) (TestLineJSON_AsEncodingJSON),
// without building the wire structs: a flood re-encodes every row
// ScreenMaxFPS times a second.
func appendLineJSON(b []byte, y int, r *emulator.RowSnapshot) []byte {
	b = append(b, `{"y":`...)
	b = strconv.AppendInt(b, int64(y), 10)
	if len(r.Runs) > 0 {
		b = append(b, `,"runs":[`...)
		for i, run := range r.Runs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"x":`...)
			b = strconv.AppendInt(b, int64(run.Col), 10)
			b = append(b, `,"w":`...)
			b = strconv.AppendInt(b, int64(run.Width), 10)
			b = append(b, `,"t":`...)
			b = appendJSONString(b, run.Text)
			if run.Style != (emulator.Style{}) {
				b = appendStyleJSON(append(b, `,"s":`...), run.Style)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendStyleJSON appends the JSON of wireStyle(s), its empty fields left
// out as their omitempty tags say.
func appendStyleJSON(b []byte, s emulator.Style) []byte {
	b = append(b, '{')
	sep := func() {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
	}
	color := func(key string, c emulator.Color) {
		if i, ok := c.Indexed(); ok {
			sep()
			b = strconv.AppendInt(append(b, key...), int64(i), 10)
			b = append(b, '"')
		} else if r, g, bl, ok := c.RGB(); ok {
			const hex = "0123456789abcdef"
			sep()
			b = append(b, key...)
			b = append(b, '#', hex[r>>4], hex[r&15], hex[g>>4], hex[g&15], hex[bl>>4], hex[bl&15], '"')
		}
	}
	color(`"fg":"`, s.Fg)
	color(`"bg":"`, s.Bg)
	if s.Attrs != 0 {
		sep()
		b = strconv.AppendInt(append(b, `"a":`...), int64(s.Attrs), 10)
	}
	if s.Underline != 0 {
		sep()
		b = strconv.AppendInt(append(b, `"u":`...), int64(s.Underline), 10)
	}
	color(`"uc":"`, s.UnderlineColor)
	return append(b, '}')
}

// appendJSONString appends s as a JSON string escaped the way
// encoding/json escapes it: quote, backslash and control characters, the
// HTML characters <, > and &, U+2028 and U+2029 as \u escapes (\b, \f,
// \n, \r, \t for those five), invalid UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < utf8.RuneSelf && s[j] != '"' && s[j] != '\\' && s[j] != '<' && s[j] != '>' && s[j] != '&' {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// hashRow is FNV-1a over a row's runs: position, text and style.
func hashRow(r *emulator.RowSnapshot) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	for _, run := range r.Runs {
		mix(uint64(run.Col)<<32 | uint64(run.Width))
		mix(uint64(run.Style.Fg)<<32 | uint64(run.Style.Bg))
		mix(uint64(run.Style.Attrs) | uint64(run.Style.Underline)<<32)
		mix(uint64(run.Style.UnderlineColor))
		for i := 0; i < len(run.Text); i++ {
			h ^= uint64(run.Text[i])
			h *= prime
		}
	}
	return h
}

func wireLine(y int, r *emulator.RowSnapshot) protocol.ScreenLine {
	l := protocol.ScreenLine{Y: y}
	if len(r.Runs) > 0 {
		l.Runs = make([]protocol.ScreenRun, len(r.Runs))
	}
	for i, run := range r.Runs {
		l.Runs[i] = protocol.ScreenRun{X: run.Col, W: run.Width, Text: run.Text, Style: wireStyle(run.Style)}
	}
	return l
}

func wireStyle(s emulator.Style) *protocol.ScreenStyle {
	if s == (emulator.Style{}) {
		return nil
	}
	return &protocol.ScreenStyle{Fg: wireColor(s.Fg), Bg: wireColor(s.Bg), Attrs: int(s.Attrs), Under: int(s.Underline), UnderColor: wireColor(s.UnderlineColor)}
}

func wireColor(c emulator.Color) string {
	if i, ok := c.Indexed(); ok {
		return strconv.Itoa(int(i))
	}
	if r, g, b, ok := c.RGB(); ok {
		const hex = "0123456789abcdef"
		return string([]byte{'#', hex[r>>4], hex[r&15], hex[g>>4], hex[g&15], hex[b>>4], hex[b&15]})
	}
	return ""
}
