package pane

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Recordings: a pane can write its output as asciicast v2 while it runs
// (pane.record.start|stop) and, under [experimental] pane_history, keep a
// bounded history of it that pane.history exports after the fact.
//
// The pane only copies each applied batch once per consumer; a recording's
// encoding and file writes run on a writer goroutine the pane starts, fed
// through a channel bounded in bytes, so a slow disk never slows the
// output path: past recordBacklog the recording ends as "overflow".

// recordBacklog bounds the output queued for a recording's writer.
const recordBacklog = 8 << 20

// DefaultHistoryBytes is the output kept per pane under pane_history.
const DefaultHistoryBytes = 2 << 20

// castEvent is one output ("o") or resize ("r") event.
type castEvent struct {
	at   time.Time
	code string
	data []byte // immutable once made: the history shares it with exports
}

// recording is one recording in progress. Its writer goroutine owns the
// file; the pane owns the rest.
type recording struct {
	id      uint64
	path    string
	started time.Time
	ch      chan castEvent
	queued  *atomic.Int64 // bytes in ch
	timer   uint64
	paneID  string
	ended   string // why it ended; set before ch is closed
}

// recorder is the pane's recording state and its handlers; it draws on
// the pane's timers and terminal (init).
type recorder struct {
	timers   *kit.Timers
	term     *emulator.Terminal
	next     uint64
	active   *recording
	starter  *actor.PID   // waits for the file to open
	ending   bool         // a recording was closed and its writer has not reported
	waiters  []*actor.PID // pane.record.stop callers waiting for that report
	last     *protocol.PaneRecordStopped
	history  castHistory
	ended    string // why the active recording is being closed
	overflow bool
}

// recordOpened and recordEnded come from a recording's writer goroutine.
type recordOpened struct {
	id  uint64
	err error
}

type recordEnded struct {
	id      uint64
	summary protocol.PaneRecordStopped
}

// recordDue ends a recording with a duration.
type recordDue struct{ id uint64 }

// init gives the recorder the pane's timers and terminal, and the output
// it keeps for pane.history (Spec.HistoryBytes).
func (r *recorder) init(timers *kit.Timers, term *emulator.Terminal, historyBytes int) {
	r.timers, r.term, r.history.limit = timers, term, historyBytes
}

// receive handles the recorder's own messages; it reports whether msg
// was one.
func (r *recorder) receive(ctx actor.Context, msg any) bool {
	switch msg := msg.(type) {
	case *recordOpened:
		if r.starter == nil || r.active == nil || r.active.id != msg.id {
			return true
		}
		starter := r.starter
		r.starter = nil
		if msg.err != nil {
			ctx.Send(starter, kit.Fail(protocol.Errorf(protocol.CodeRecordFailed, "cannot record to %s: %v", r.active.path, msg.err)))
			r.ended = "error"
			r.close()
			return true
		}
		ctx.Send(starter, kit.Done(protocol.PaneRecordStarted{PaneID: r.active.paneID, Path: r.active.path}))
	case *recordEnded:
		s := msg.summary
		r.last, r.ending = &s, false
		for _, w := range r.waiters {
			ctx.Send(w, kit.Done(s))
		}
		r.waiters = nil
	case *recordDue:
		if r.active != nil && r.active.id == msg.id {
			r.active.timer, r.ended = 0, "duration"
			r.close()
		}
	default:
		return false
	}
	return true
}

// recordStart handles pane.record.start: the writer opens the file and
// the caller is answered once it did (recordOpened).
func (r *recorder) start(ctx actor.Context, req *Request, running bool) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneRecordStartParams)
	if r.active != nil || r.ending {
		return kit.Fail(protocol.Errorf(protocol.CodeRecordFailed, "pane %s is already recording; stop that recording first", req.PaneID))
	}
	if !running {
		return kit.Fail(protocol.Errorf(protocol.CodeRecordFailed, "pane %s has exited", req.PaneID))
	}
	r.next++
	rec := &recording{id: r.next, path: prm.Path, paneID: req.PaneID, started: time.Now(), ch: make(chan castEvent, 4096), queued: new(atomic.Int64)}
	cols, rows := r.term.Size()
	root, self := ctx.ActorSystem().Root, ctx.Self()
	go writeCast(root, self, rec, req.PaneID, cols, rows)
	if prm.DurationMS > 0 {
		rec.timer = r.timers.After(ctx, time.Duration(prm.DurationMS)*time.Millisecond, &recordDue{id: rec.id})
	}
	r.active, r.starter, r.ended, r.overflow = rec, ctx.Sender(), "", false
	return nil
}

// recordStop handles pane.record.stop: answered with the recording's
// summary once its file is complete.
func (r *recorder) stop(ctx actor.Context, req *Request) *kit.Reply {
	switch {
	case r.active != nil:
		r.ended = "stopped"
		r.close()
		r.waiters = append(r.waiters, ctx.Sender())
	case r.ending:
		r.waiters = append(r.waiters, ctx.Sender())
	case r.last != nil:
		return kit.Done(*r.last)
	default:
		return kit.Fail(protocol.Errorf(protocol.CodeNotRecording, "pane %s has no recording", req.PaneID))
	}
	return nil
}

// close ends the active recording; its writer flushes the file and
// reports recordEnded.
func (r *recorder) close() {
	if r.active == nil {
		return
	}
	if r.active.timer != 0 {
		r.timers.Cancel(r.active.timer)
	}
	if r.overflow {
		r.ended = "overflow"
	}
	r.active.ended = r.ended // the writer reads it once the channel is closed
	close(r.active.ch)
	r.active, r.ending = nil, true
}

// output hands an applied batch to the recording and the history.
func (r *recorder) output(batch [][]byte) {
	if !r.on() {
		return
	}
	n := 0
	for _, b := range batch {
		n += len(b)
	}
	data := make([]byte, 0, n)
	for _, b := range batch {
		data = append(data, b...)
	}
	r.event(castEvent{at: time.Now(), code: "o", data: data})
}

// resized notes a new size.
func (r *recorder) resized() {
	if r.on() {
		cols, rows := r.term.Size()
		r.event(castEvent{at: time.Now(), code: "r", data: []byte(strconv.Itoa(cols) + "x" + strconv.Itoa(rows))})
	}
}

// on reports whether output has anywhere to go.
func (r *recorder) on() bool {
	return r.active != nil || r.history.on()
}

func (r *recorder) event(ev castEvent) {
	if r.history.on() {
		cols, rows := r.term.Size()
		r.history.push(ev, cols, rows)
	}
	if a := r.active; a != nil {
		if a.queued.Load()+int64(len(ev.data)) > recordBacklog {
			r.overflow = true
			r.close()
			return
		}
		select {
		case a.ch <- ev:
			a.queued.Add(int64(len(ev.data)))
		default:
			r.overflow = true
			r.close()
		}
	}
}

// paneStopped ends a recording when the pane stops.
func (r *recorder) paneStopped() {
	if r.active != nil {
		r.ended = "exited"
		r.close()
	}
}

// writeCast is a recording's writer goroutine.
func writeCast(root *actor.RootContext, pane *actor.PID, rec *recording, paneID string, cols, rows int) {
	sum := protocol.PaneRecordStopped{PaneID: paneID, Path: rec.path, Ended: "stopped"}
	defer func() { root.Send(pane, &recordEnded{id: rec.id, summary: sum}) }()
	f, err := os.OpenFile(rec.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	root.Send(pane, &recordOpened{id: rec.id, err: err})
	if err != nil {
		sum.Ended, sum.Error = "error", err.Error()
		for range rec.ch { // let the pane close it
		}
		return
	}
	w := bufio.NewWriterSize(f, 64<<10)
	head, _ := json.Marshal(protocol.CastHeader{Version: 2, Width: cols, Height: rows, Timestamp: rec.started.Unix(),
		Env: map[string]string{"TERM": "xterm-256color"}})
	w.Write(head)
	w.WriteByte('\n')
	werr := w.Flush() // a reader sees a valid (empty) cast at once
	var line, carry []byte
	for ev := range rec.ch {
		rec.queued.Add(-int64(len(ev.data)))
		data := ev.data
		if ev.code == "o" {
			data = append(carry, data...)
			cut := protocol.UTF8Cut(data)
			carry = append([]byte(nil), data[cut:]...)
			data = data[:cut]
		}
		line = protocol.AppendCastEvent(line[:0], ev.at.Sub(rec.started).Seconds(), ev.code, data)
		if werr == nil {
			_, werr = w.Write(line)
			sum.Events++
			sum.Bytes += int64(len(line))
			if len(rec.ch) == 0 { // a pause: let the file show what came so far
				werr = w.Flush()
			}
		}
	}
	if len(carry) > 0 && werr == nil {
		_, werr = w.Write(protocol.AppendCastEvent(nil, time.Since(rec.started).Seconds(), "o", carry))
	}
	if err := w.Flush(); werr == nil {
		werr = err
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	sum.Ended = rec.ended
	if werr != nil {
		sum.Ended, sum.Error = "error", werr.Error()
	}
}

// castHistory keeps the newest output events up to limit bytes. Events
// are immutable and shared with exports, so evicting only drops them.
type castHistory struct {
	limit  int
	events []castEvent
	bytes  int
	// cols, rows: the size in effect at the oldest event kept.
	cols, rows int
}

func (h *castHistory) on() bool { return h.limit > 0 }

// push keeps ev; cols and rows are the terminal's size now, which is the
// size before ev unless ev is a resize, which sets its own.
func (h *castHistory) push(ev castEvent, cols, rows int) {
	if len(h.events) == 0 {
		h.cols, h.rows = cols, rows
	}
	h.events = append(h.events, ev)
	h.bytes += len(ev.data)
	drop := 0
	for h.bytes > h.limit && drop < len(h.events)-1 {
		old := h.events[drop]
		if old.code == "r" {
			h.cols, h.rows, _ = protocol.CastSize(string(old.data))
		}
		h.bytes -= len(old.data)
		h.events[drop] = castEvent{}
		drop++
	}
	if drop > 0 {
		h.events = append(h.events[:0], h.events[drop:]...)
	}
}

// historyCast handles pane.history: the kept events are encoded on a
// goroutine, which answers the caller.
func (r *recorder) historyCast(ctx actor.Context, req *Request) *kit.Reply {
	h := &r.history
	if !h.on() {
		return kit.Fail(protocol.Errorf(protocol.CodeHistoryOff, "pane history is off; set pane_history = true under [experimental] in config.toml and restart the server"))
	}
	events := append([]castEvent(nil), h.events...)
	cols, rows := h.cols, h.rows
	if len(events) == 0 {
		cols, rows = r.term.Size()
	}
	root, caller, paneID := ctx.ActorSystem().Root, ctx.Sender(), req.PaneID
	go func() {
		root.Send(caller, kit.Done(protocol.PaneHistory{PaneID: paneID, Cast: encodeCast(events, cols, rows)}))
	}()
	return nil
}

// encodeCast renders events as one asciicast v2 document.
func encodeCast(events []castEvent, cols, rows int) string {
	var start time.Time
	if len(events) > 0 {
		start = events[0].at
	}
	head, _ := json.Marshal(protocol.CastHeader{Version: 2, Width: cols, Height: rows, Timestamp: start.Unix(),
		Env: map[string]string{"TERM": "xterm-256color"}})
	out := append(head, '\n')
	var carry []byte
	for _, ev := range events {
		data := ev.data
		if ev.code == "o" {
			data = append(carry, data...)
			cut := protocol.UTF8Cut(data)
			carry = append([]byte(nil), data[cut:]...)
			data = data[:cut]
		}
		out = protocol.AppendCastEvent(out, ev.at.Sub(start).Seconds(), ev.code, data)
	}
	return string(out)
}

// ScreenFrame renders the whole of term as one full frame of the screen
// stream, named paneID (the dashboard's replays draw their emulator so).
func ScreenFrame(term *emulator.Terminal, paneID string, seq uint64) protocol.ScreenFrame {
	rows := term.Rows(nil)
	cols, _ := term.Size()
	cur := term.CursorState()
	f := protocol.ScreenFrame{PaneID: paneID, TerminalID: paneID, Seq: seq, Cols: cols, Rows: len(rows), Full: true,
		Cursor: protocol.ScreenCursor{X: cur.Col, Y: cur.Row, Visible: cur.Visible, Shape: int(cur.Shape)},
		Lines:  make([]protocol.ScreenLine, 0, len(rows))}
	for y := range rows {
		f.Lines = append(f.Lines, wireLine(y, &rows[y]))
	}
	return f
}
