package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// window is how many request lines a client may have read ahead of their
// answers being written; past it the reader stops reading, so a client
// that sends and never reads holds at most window answers in memory.
const window = 64

// writeGrace is how long a stopped connection's writer may still take to
// hand its last lines to the client (Herdr's write timeout).
const writeGrace = 5 * time.Second

// lineMsg is the request lines the reader found together (a client that
// writes ahead sends many in one go), or the news that a line was too
// long.
type lineMsg struct {
	lines     [][]byte
	tooLong   bool
	tooLongID string // the too long line's id, when it begins with one
}

// queuedLine is a request line waiting for its turn.
type queuedLine struct {
	line      []byte
	tooLong   bool
	tooLongID string
}

// writerCaughtUp says the writer emptied its channel while a backlog waited.
type writerCaughtUp struct{}

// eofMsg says the client will send nothing more; gone says it also stopped
// reading, so a pending wait has nobody to answer and is cancelled (when
// not set, the requests behaviour asks the socket itself, for a wait).
type eofMsg struct{ gone bool }

// outItem is one or more lines for the writer; after runs once they are
// written and flushed. credits counts the answers in it whose requests'
// read-ahead credits the writer returns once they are on their way to the
// socket.
type outItem struct {
	line    []byte
	lines   [][]byte
	joined  [][]byte // one more line, written piece by piece
	raw     []byte   // the rest of a line the actor began writing, newline included
	after   func()
	credits int
	// inlineAfter: after only sends a message, so the actor may run it
	// when it wrote the item itself.
	inlineAfter bool
	// size is what hold counted for the item (budget.go).
	size int64
}

// pongs are ping's two possible answers, by whether live handoff is
// offered, encoded once: a client polling ping costs no marshalling.
var pongs = sync.OnceValue(func() map[bool]protocol.Encoded {
	out := map[bool]protocol.Encoded{}
	for _, handoff := range []bool{false, true} {
		out[handoff], _ = protocol.Encode(protocol.Pong{Version: protocol.Version, Protocol: protocol.ProtocolVersion,
			Capabilities: protocol.Capabilities(handoff), PID: os.Getpid(), StartedAt: processStart.Format(time.RFC3339), Build: protocol.Build()})
	}
	return out
})

// processStart is when this server process began (near enough: when the
// gateway package was loaded), for the pong's started_at.
var processStart = time.Now().UTC()

// conn is the actor of one client connection.
type conn struct {
	c       net.Conn
	opts    Options
	queue   []queuedLine
	current *protocol.Request // the request its owner is working on
	shape   protocol.Shape    // the current request's
	calls   kit.InFlight      // its call: the deadline, and how its answer is known
	routes  paneRoutes        // panes whose calls go to them directly (paneroute.go)
	closing bool
	long    bool // its current call or stream counts against the long share (peers.go)
	// awaiting: awaitWritable's goroutine looks at the socket (budget.go).
	awaiting bool
	out      chan outItem
	credits  chan struct{}
	done     chan struct{} // closed when the actor stops: the reader quits
	// watching: a screen.subscribe made this an interactive client, whose
	// quiet spells are not idleness.
	watching bool
	// observer: it watches screens or streams events, so its writes stall
	// out after ObserverStall (budget.go); read by the writer goroutine.
	observer atomic.Bool

	// An events.subscribe turns the connection into a stream fed by a sub
	// actor of the bus.
	streamID string          // the subscribe request's id, once streaming
	early    []*events.Batch // batches that arrived before the acknowledgement
	ending   error           // the stream's end, when it came before the acknowledgement
	ackToBus func()          // tells the bus (for the sub) the last batch is written

	// A pane.graphics.stream (graphics.go): the reader waits on gfxVerdict
	// after the stream's request line, then on frameSlot after each frame.
	gfxVerdict chan *kit.GraphicsStream
	frameSlot  chan struct{}
	gfxStream  *kit.GraphicsStream
	gfxAs      *actor.PID                     // the identity the stream's request went out with
	gfxAck     *protocol.PaneGraphicsFrameAck // the file frame's ack, once the pane took it
	gfxAckID   string                         // and the id it is written with

	surface surface // client_shell.surface.set: whether frames are written (surface.go)
	// giveBackAgent ends the ssh agent loan this connection made
	// (sshagent.go); set, the connection is held and takes no request.
	giveBackAgent func()

	lim     limits // its policy and audit line (policy.go)
	peerPID int    // the process at the other end, when known

	behavior actor.Behavior // requests, then perhaps streaming
	idle     idleClock      // closes a connection that waits for nothing (idle.go)

	backlog      []outItem   // items waiting for room in out
	writerBehind atomic.Bool // backlog is non-empty: the writer should call back
	// queued counts the items handed to the writer and not yet written
	// and flushed: at 0 the actor may write to the socket itself.
	queued atomic.Int32
	// gathering: pump is answering lines; one-line answers gather in
	// gathered (credits in gatheredCredits) and leave in one write when
	// it is done, not one syscall each.
	gathering       bool
	gathered        [][]byte
	gatheredCredits int
	// writerStarted: the writer goroutine runs; it starts when an item
	// first has to wait for the socket, so a connection whose answers
	// all went out directly (one ping, say) never costs one.
	writerStarted bool
	disp          *connDispatcher // runs the mailbox; nil in tests that spawn a conn bare
	root          *actor.RootContext
	self          *actor.PID

	// unsent counts the bytes of items handed to the writer or waiting in
	// backlog (budget.go); drainAt is the count at which the writer tells
	// the actor it caught up (-1: nobody waits).
	unsent   atomic.Int64
	peak     int64 // the most unsent it held (the actor's own count)
	drainAt  atomic.Int64
	stopping atomic.Bool // the actor stops: the writer keeps its grace deadline
}

// connProps are a conn's props, with the dispatcher that runs its mailbox
// (the gateway spawns it through d.post).
func connProps(c net.Conn, opts Options, peerPID int) (props *actor.Props, d *connDispatcher) {
	d = &connDispatcher{}
	return actor.PropsFromProducer(func() actor.Actor { cn := newConn(c, opts); cn.disp = d; cn.peerPID = peerPID; return cn }, actor.WithDispatcher(d), kit.Guarded(opts.Log)), d
}

func newConn(c net.Conn, opts Options) *conn {
	opts.defaults()
	cn := &conn{c: c, opts: opts, behavior: actor.NewBehavior()}
	cn.drainAt.Store(-1)
	cn.behavior.Become(cn.requests)
	return cn
}

// Receive implements actor.Actor. A connection has two behaviours: it
// starts answering requests, and an accepted events.subscribe switches it
// for good to streaming the subscription's batches.
func (c *conn) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kit.Relayed: // sent to the connection's relay (kit.InFlight)
		ctx = kit.Relay(ctx, msg)
	case *kit.Fired:
		if expired, ok := c.calls.Fired(ctx, msg); ok {
			if expired != nil {
				c.finish(ctx, expired)
			}
			return
		}
		if c.idle.fired(ctx, msg, c.opts.IdleTimeout) {
			c.idleOut(ctx)
		}
		return
	}
	c.idle.lastSeen = time.Now()
	c.behavior.Receive(ctx)
}

// requests is the first behaviour: lines are requests, answered in order,
// one at a time.
func (c *conn) requests(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *lineMsg:
		c.queueLines(msg)
		c.pump(ctx)
	case *kit.Reply:
		if c.calls.Answers(ctx, msg) {
			c.routes.sent = nil
			c.finish(ctx, msg)
		}
	case *caughtUp:
		c.caughtUpWith(ctx, msg)
	case *kit.PaneRoute:
		c.learnRoute(msg)
	case *kit.NotThisPane:
		if c.calls.Answers(ctx, msg) && !c.resend(ctx) {
			c.finish(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "a pane refused a call the read side routed to it")))
		}
	case *handoffDone:
		c.finishHandoff(ctx, msg)
	case *agentChecked:
		c.agentLent(ctx, msg)
	case *drained:
		c.pump(ctx)
	case *writable:
		c.awaiting = false
		c.pump(ctx)
	case *actor.DeadLetterResponse:
		if c.calls.Answers(ctx, msg) && !c.resend(ctx) {
			c.finish(ctx, kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed before it could answer")))
		}
	case *events.Batch:
		// The subscription's sub can be quicker than its acknowledgement.
		c.early = append(c.early, msg)
	case *events.Lost:
		c.ending = lostError(msg)
	case *events.Failed:
		c.ending = subFailed(msg)
	case *eofMsg:
		c.closing = true
		// Stopping cancels what waits on this connection: the panes and
		// the agents' waits watch it.
		if c.current != nil && c.shape == protocol.ShapeWait && (msg.gone || peerGone(c.c)) {
			ctx.Stop(ctx.Self())
			return
		}
		c.pump(ctx)
	default:
		c.either(ctx)
	}
}

// streaming is the behaviour after an accepted events.subscribe: the
// connection carries its sub's batches and takes no more requests.
func (c *conn) streaming(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *lineMsg:
		for range msg.lines {
			c.credits <- struct{}{} // read and dropped
		}
	case *events.Batch:
		c.stream(msg)
	case *events.Lost:
		c.endStream(ctx, lostError(msg))
	case *events.Failed:
		c.endStream(ctx, subFailed(msg))
	case *eofMsg:
		ctx.Stop(ctx.Self()) // the bus watches the connection and drops the sub
	default:
		c.either(ctx)
	}
}

var errEventsLost = protocol.Errorf("events_lost", "subscriber fell behind the retained event history; resubscribe")

// lostError is the events_lost line of a sub that fell behind, or that
// was dropped because its connection wrote nothing for the stall timeout.
func lostError(l *events.Lost) error {
	if l.Stalled > 0 {
		return protocol.Errorf("events_lost", "subscriber made no progress for %s; resubscribe", l.Stalled)
	}
	return errEventsLost
}

func subFailed(f *events.Failed) error {
	return protocol.Errorf(protocol.CodeInternal, "internal error in event subscription: %s; resubscribe", f.Reason)
}

// either handles what both behaviours handle alike.
func (c *conn) either(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		c.done = make(chan struct{})
		c.credits = make(chan struct{}, window)
		c.gfxVerdict = make(chan *kit.GraphicsStream, 1)
		c.frameSlot = make(chan struct{}, 1)
		for i := 0; i < window; i++ {
			c.credits <- struct{}{}
		}
		root, self, bus := ctx.ActorSystem().Root, ctx.Self(), c.opts.Events
		c.root, c.self = root, self
		c.ackToBus = func() { root.Send(bus, &events.Ack{Sub: self}) }
		c.idle.start(ctx, c.opts.IdleTimeout)
		r := c.newReader()
		if msg := c.bufferedLines(&r.Reader, nil); msg != nil {
			// Requests the client wrote before it was accepted are answered
			// in this run, on the goroutine that accepted it; the reader
			// starts after them, off the path of their answers.
			ctx.Send(self, msg)
			ctx.Send(self, &startReader{r})
			return
		}
		c.opts.readLoops.Go(func() { c.readLoop(root, self, r) })
	case *startReader:
		c.opts.readLoops.Go(func() { c.readLoop(c.root, c.self, msg.r) })
	case *hangup:
		c.hangupWith(ctx, msg.err)
	case *writerCaughtUp:
		c.refill()
	case *writeFailed:
		if msg.stalled && c.observer.Load() {
			c.opts.Log.Warn("observer dropped: its client took nothing", "for", c.opts.ObserverStall)
		}
		ctx.Stop(ctx.Self()) // nobody to answer: gone, or taking nothing for StallTimeout
	case *kit.Frames:
		c.frames(ctx, msg)
	case *kit.Toast:
		c.push("client.toast", msg)
	case *kit.WindowTitle:
		c.push("client.window_title", msg)
	case *kit.Push:
		c.push(msg.Event, msg.Data)
	case *clients.TakenOver:
		c.push(protocol.TerminalTakenOver, msg)
	case *actor.Stopping:
		c.auditAnswer(c.lim.entryID, kit.Fail(protocol.Errorf("unanswered", "the connection ended first")))
		c.dropLong()
		if c.giveBackAgent != nil {
			c.giveBackAgent()
		}
		if c.peak > 0 {
			c.opts.freed.Add(c.peak) // for the gateway's trim (trim.go)
		}
		c.stopping.Store(true)
		c.farewell()
		c.flushGathered()
		if c.writerStarted {
			// The writer still flushes what is queued, but a client that
			// does not read gets writeGrace, not the fd for ever. (Without
			// a writer everything went out directly: no deadline, whose
			// runtime timer cost a wake-up of the poller per connection.)
			_ = c.c.SetWriteDeadline(time.Now().Add(writeGrace))
		}
		for i := range c.backlog {
			c.release(c.backlog[i].size)
		}
		c.backlog = nil
		if c.out != nil {
			close(c.out)
		}
		if !c.writerStarted {
			c.c.Close() // everything went out directly: no writer to close it
		}
		close(c.done)
	case *actor.Stopped:
		c.idle.stop()
		c.calls.Stop()
		c.disp.stop()
	default:
		kit.Unhandled(ctx, msg, c.opts.Log)
	}
}

// serverStoppingEvent tells an interactive client the server is stopping,
// not handing over: it exits instead of looking for a new server.
const serverStoppingEvent = "client.server_stopping"

// farewell pushes serverStoppingEvent to an interactive client (one that
// watches screens) when this connection stops because the server does.
// Other clients see the socket close as before. A client so far behind
// that the line waits in the backlog loses it with the rest.
func (c *conn) farewell() {
	select {
	case <-c.opts.stopping:
	default:
		return
	}
	if c.watching {
		c.push(serverStoppingEvent, struct{}{})
	}
}

// queueLines queues the lines of msg for pump.
func (c *conn) queueLines(msg *lineMsg) {
	for _, line := range msg.lines {
		c.queue = append(c.queue, queuedLine{line: line})
	}
	if msg.tooLong {
		c.queue = append(c.queue, queuedLine{tooLong: true, tooLongID: msg.tooLongID})
	}
}

// pump answers queued lines in order until one needs the session, or
// until the client's unread answers are over budget (budget.go). The
// answers it writes itself gather and leave together when it stops.
func (c *conn) pump(ctx actor.Context) {
	c.gathering = true
	defer c.flushGathered()
	if c.giveBackAgent != nil && len(c.queue) > 0 {
		c.queue, c.closing = nil, true // a held connection: a further line ends it (sshagent.go)
	}
	for c.current == nil && len(c.queue) > 0 && !c.heldBack() {
		msg := c.queue[0]
		c.queue[0] = queuedLine{}
		c.queue = c.queue[1:]
		if msg.tooLong {
			c.write(protocol.EncodeError(msg.tooLongID, protocol.Errorf(protocol.CodeInvalidRequest, "invalid request: line exceeds %d bytes", protocol.MaxLineBytes)), nil)
			c.closing = true
			c.queue = nil
			break
		}
		c.handleLine(ctx, msg.line)
	}
	if c.closing && c.current == nil && len(c.queue) == 0 {
		ctx.Stop(ctx.Self())
	}
}

// handleLine decodes one request and answers it or sends it on.
func (c *conn) handleLine(ctx actor.Context, line []byte) {
	req, err := protocol.DecodeRequest(line)
	if err != nil {
		c.reply(req.ID, kit.Fail(err))
		return
	}
	m, known := protocol.Lookup(req.Method)
	if known && c.checkMethod(&req, m) {
		if m.Shape == protocol.ShapeFrames {
			c.streamVerdict(nil)
		}
		return
	}
	params, err := protocol.DecodeRouted(req.Method, req.Params)
	if err == nil && c.checkCall(&req, m, params) {
		err = errRefused
	}
	if err != nil {
		if err != errRefused {
			c.reply(req.ID, kit.Fail(err))
		}
		if m.Shape == protocol.ShapeFrames {
			c.streamVerdict(nil)
		}
		return
	}
	c.shape = m.Shape
	if h, ok := Registry.Lookup(req.Method); ok && !protocol.ToMachines(params) {
		h(c, ctx, &req, params)
		return
	}
	call := &kit.Call{ID: req.ID, Method: req.Method, Params: params}
	var routed kit.Routed
	here, ready := c.routesHere(m, call), false
	if here {
		if routed, ready = c.routeNow(m, call); ready && routed.Reply != nil {
			c.reply(req.ID, routed.Reply) // a read, or an id that names nothing
			if m.Shape == protocol.ShapeFrames {
				c.streamVerdict(nil)
			}
			return
		}
	}
	if holdsConn(m.Shape) && !c.takeLong() {
		c.opts.Log.Warn("wait or stream refused: the long share is full", "method", req.Method, "share", c.opts.longLimit)
		c.reply(req.ID, kit.Fail(longRefusal(c.opts.longLimit)))
		if m.Shape == protocol.ShapeFrames {
			c.streamVerdict(nil)
		}
		return
	}
	owner := c.opts.ownerPID(m, params)
	if owner == nil {
		c.dropLong()
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s (owner %s)", req.Method, m.Owner)))
		if m.Shape == protocol.ShapeFrames {
			c.streamVerdict(nil)
		}
		return
	}
	c.current = &req
	if here {
		c.sendRouted(ctx, m, call, routed, ready)
		return
	}
	c.calls.Send(ctx, owner, call, kit.Deadline(call.Params, c.opts.CallDeadline))
}

// finish writes the answer of the current request and moves on. An
// accepted subscription turns the connection into a stream; a rejected one
// closes it.
func (c *conn) finish(ctx actor.Context, r *kit.Reply) {
	if c.current == nil {
		return // nothing asked
	}
	req, shape := c.current, c.shape
	c.reply(req.ID, r)
	c.current = nil
	if !keepsConn(shape, r) {
		c.dropLong() // a wait answered, a stream refused: the connection is short again
	}
	if shape == protocol.ShapeFrames {
		if st, ok := r.Result.(kit.GraphicsStream); ok && r.Err == nil {
			c.startGraphicsStream(ctx, req.ID, st)
			return
		}
		c.streamVerdict(nil)
	}
	if shape == protocol.ShapeStream {
		if r.Err != nil {
			c.closing = true
			c.queue = nil
		} else {
			c.idle.stop()
			// The bus knows the connection by the identity the subscribe
			// went out with (kit.InFlight).
			root, bus, sub := c.root, c.opts.Events, kit.Addressee(ctx)
			c.ackToBus = func() { root.Send(bus, &events.Ack{Sub: sub}) }
			c.streamID = req.ID
			c.observer.Store(true)
			c.queue = nil
			c.behavior.Become(c.streaming)
			for _, line := range r.Result.(protocol.SubscriptionStarted).Initial {
				c.write(line, nil)
			}
			for _, b := range c.early {
				c.stream(b)
			}
			c.early = nil
			if c.ending != nil {
				c.endStream(ctx, c.ending)
			}
			return
		}
	}
	if shape == protocol.ShapeWatch && r.Err == nil {
		c.watching = true
		c.observer.Store(true)
	}
	c.pump(ctx)
}

// idleOut runs when the connection received nothing for IdleTimeout; one
// that waits for nothing is closed.
func (c *conn) idleOut(ctx actor.Context) {
	if c.current != nil || c.watching || c.giveBackAgent != nil {
		c.idle.start(ctx, c.opts.IdleTimeout)
		return
	}
	ctx.Stop(ctx.Self())
}

// push writes a line for the interactive client between its answers.
func (c *conn) push(event string, data any) {
	if line, err := protocol.EncodeDedicated(event, data); err == nil {
		c.write(line, nil)
	}
}

// stream writes one batch of events; the sub sends the next once the
// writer has flushed this one and the bus has passed the Ack on.
func (c *conn) stream(b *events.Batch) {
	c.enqueue(outItem{lines: b.Lines, after: c.ackToBus, inlineAfter: true})
}

// endStream writes the error line that ends a stream (events_lost, or
// internal_error when its sub failed) after what is queued, and closes the
// connection. (An end that overtakes the subscription's acknowledgement
// is kept by the requests behaviour until then, so the line carries the
// subscribe request's id.)
func (c *conn) endStream(ctx actor.Context, err error) {
	c.write(protocol.EncodeError(c.streamID, err), nil)
	ctx.Stop(ctx.Self())
}

// reply encodes an answer; its request's read-ahead credit returns when
// the writer has written it, not now, or a client that never reads would
// have the server queue answers without end.
func (c *conn) reply(id string, r *kit.Reply) {
	c.auditAnswer(id, r)
	r = c.narrowed(r)
	c.enqueue(outItem{line: encodeReply(id, r), credits: 1})
}

func encodeReply(id string, r *kit.Reply) []byte {
	if r.Err != nil {
		return protocol.EncodeError(id, r.Err)
	}
	line, err := protocol.EncodeSuccess(id, r.Result)
	if err != nil {
		return protocol.EncodeError(id, err)
	}
	return line
}

func (c *conn) write(line []byte, after func()) {
	c.enqueue(outItem{line: line, after: after})
}

// enqueue hands an item to the writer without ever blocking the actor:
// when the writer's channel is full (a slow client with many panes'
// frames in flight) items wait in backlog, in order, and the writer asks
// for them once it has caught up. What can be pending is bounded: 64
// answers, one event batch, one frame per watched pane. With nothing
// pending, a one-line item is written here, as far as the socket takes it
// without waiting: the hop to the writer goroutine and back was a tenth of
// a keystroke's echo.
func (c *conn) enqueue(item outItem) {
	if c.gathering {
		if item.line != nil && item.lines == nil && item.joined == nil && item.raw == nil && item.after == nil {
			c.gathered = append(c.gathered, item.line)
			c.gatheredCredits += item.credits
			return
		}
		c.flushGathered() // what gathered goes first
	}
	// Written here only when nothing else waits: with requests queued
	// behind this answer (a pipelining client) the writer's syscalls run
	// beside the next request's work instead of before it.
	if len(c.backlog) == 0 && c.queued.Load() == 0 && len(c.queue) == 0 && !c.direct(&item) {
		return
	}
	item.size = item.bytes()
	c.hold(item.size)
	c.startWriter()
	if len(c.backlog) == 0 {
		c.queued.Add(1)
		select {
		case c.out <- item:
			return
		default:
			c.queued.Add(-1)
		}
	}
	c.backlog = append(c.backlog, item)
	c.writerBehind.Store(true)
	c.refill() // the writer may have emptied the channel before the flag was set
}

// flushGathered hands what pump gathered on as one item and stops
// gathering.
func (c *conn) flushGathered() {
	c.gathering = false
	if len(c.gathered) == 0 {
		return
	}
	item := outItem{lines: c.gathered, credits: c.gatheredCredits}
	if len(c.gathered) == 1 {
		item = outItem{line: c.gathered[0], credits: c.gatheredCredits}
	}
	c.gathered, c.gatheredCredits = nil, 0
	c.enqueue(item)
}

// startWriter starts the writer goroutine the first time an item has to
// wait for it. Its channel is made with it: 2*window items of 128 bytes,
// zeroed, were most of what a connection that asks one ping and leaves
// allocated.
func (c *conn) startWriter() {
	if !c.writerStarted {
		c.writerStarted = true
		c.out = make(chan outItem, 2*window)
		go c.writeLoop()
	}
}

// refill moves the backlog into the writer's channel as far as it fits.
func (c *conn) refill() {
	for len(c.backlog) > 0 {
		c.queued.Add(1)
		select {
		case c.out <- c.backlog[0]:
			c.backlog[0] = outItem{}
			c.backlog = c.backlog[1:]
		default:
			c.queued.Add(-1)
			c.writerBehind.Store(true)
			return
		}
	}
}

// direct writes a one-line item to the idle socket from the actor and
// reports whether some of it is left for the writer (item then holds the
// rest). Only the actor hands out items, so with none queued nothing can
// come between.
func (c *conn) direct(item *outItem) (rest bool) {
	if item.after != nil && !item.inlineAfter {
		return true // after may block (server.stop): the writer runs it
	}
	var one [2][]byte // a single line's pieces, without an allocation
	var bufs [][]byte
	switch {
	case item.line != nil && item.lines == nil && item.joined == nil && item.raw == nil:
		one[0], one[1] = item.line, newline
		bufs = one[:]
	case item.line == nil && len(item.lines) > 0 && item.joined == nil && item.raw == nil:
		bufs = make([][]byte, 0, 2*len(item.lines))
		for _, l := range item.lines {
			bufs = append(bufs, l, newline)
		}
	default:
		return true
	}
	n := tryWrite(c.c, bufs...)
	if total := item.bytes(); n < int(total) {
		*item = outItem{raw: unwrittenBytes(bufs, n, int(total)), after: item.after, credits: item.credits, inlineAfter: item.inlineAfter}
		return true
	}
	c.returnCredits(item.credits)
	if item.after != nil {
		item.after()
	}
	return false
}

// unwrittenBytes is what is left of bufs (total bytes) after the first n.
func unwrittenBytes(bufs [][]byte, n, total int) []byte {
	rest := make([]byte, 0, total-n)
	for _, b := range bufs {
		if n >= len(b) {
			n -= len(b)
			continue
		}
		rest = append(rest, b[n:]...)
		n = 0
	}
	return rest
}

// returnCredits gives back the read-ahead credits of n answers written.
func (c *conn) returnCredits(n int) {
	for ; n > 0; n-- {
		select {
		case c.credits <- struct{}{}: // at most one per line read: always room
		default:
		}
	}
}

// startReader starts the reader once the requests read at acceptance
// are answered.
type startReader struct{ r *reader }

// reader is a connection's buffered reader and what it reads from;
// readers of ended connections are reused (Options.readers), their 4 KiB
// buffers being most of what a short-lived connection allocates.
type reader struct {
	bufio.Reader
	src socketReader
}

// errNotYet is readNow's answer when nothing waits to be read.
var errNotYet = errors.New("nothing to read yet")

// socketReader reads the socket; while now is set it takes only what the
// socket already holds (readNow), never waiting.
type socketReader struct {
	c   net.Conn
	now bool
}

func (s *socketReader) Read(p []byte) (int, error) {
	if s.now {
		return readNow(s.c, p)
	}
	return s.c.Read(p)
}

// newReader is the connection's reader, holding what the client had
// already written when it was accepted.
func (c *conn) newReader() *reader {
	r := c.opts.readers.Get().(*reader)
	r.src = socketReader{c: c.c, now: true}
	r.Reset(&r.src)
	_, _ = r.Peek(1) // one read that does not wait
	r.src.now = false
	return r
}

// putReader hands the reader back once its goroutine is done with it:
// every line it read was copied out (readLine), so nothing else holds
// its buffer.
func (c *conn) putReader(r *reader) {
	r.src = socketReader{}
	r.Reset(&r.src)
	c.opts.readers.Put(r)
}

// readLoop reads request lines; each takes a credit, so at most window
// lines wait in the actor's mailbox. Lines the client wrote ahead that
// are already read from the socket go to the actor together, as far as
// credits allow, so it answers them in one turn and one write.
func (c *conn) readLoop(root *actor.RootContext, self *actor.PID, rd *reader) {
	defer c.putReader(rd)
	r := &rd.Reader
	for {
		select {
		case <-c.credits:
		case <-c.done:
			return
		}
		line, err := readLine(r)
		if errors.Is(err, errLineTooLong) {
			c.send(root, self, &lineMsg{tooLong: true, tooLongID: protocol.LeadingID(line)})
			return
		}
		if len(bytes.TrimSpace(line)) > 0 {
			msg := &lineMsg{lines: [][]byte{line}}
			graphics := err == nil && isGraphicsStream(line)
			if err == nil && !graphics {
				msg = c.bufferedLines(r, msg)
			}
			c.send(root, self, msg)
			if graphics {
				// The bytes after it are frames if the pane takes the stream.
				var st *kit.GraphicsStream
				select {
				case st = <-c.gfxVerdict:
				case <-c.done:
					return
				}
				if st != nil {
					c.readFrames(root, self, r, st)
					return
				}
			}
		} else {
			c.credits <- struct{}{}
		}
		if err != nil {
			// Whether the client is gone matters only to a wait: the
			// actor asks then (a fresh connection's end costs no poll).
			c.send(root, self, &eofMsg{})
			return
		}
	}
}

// bufferedLines adds to msg the request lines whole in r's buffer, as far
// as credits allow, without waiting for the socket. It stops before a
// graphics stream's line: the reader takes that one alone, since the
// bytes after it may be frames. Nil when it took no line and msg was nil.
func (c *conn) bufferedLines(r *bufio.Reader, msg *lineMsg) *lineMsg {
	for {
		buf, _ := r.Peek(r.Buffered())
		end := bytes.IndexByte(buf, '\n')
		if end < 0 || isGraphicsStream(buf[:end]) {
			return msg
		}
		select {
		case <-c.credits:
		default:
			return msg
		}
		line, _ := readLine(r) // whole in the buffer: no wait, never too long
		if len(bytes.TrimSpace(line)) == 0 {
			c.credits <- struct{}{}
			continue
		}
		if msg == nil {
			msg = &lineMsg{}
		}
		msg.lines = append(msg.lines, line)
	}
}

// send gives the actor what the reader read; when its mailbox is idle
// the reader runs it here (connDispatcher) instead of waking another
// goroutine for it.
func (c *conn) send(root *actor.RootContext, self *actor.PID, msg any) {
	c.disp.post(func() { root.Send(self, msg) })
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its newline, failing past
// protocol.MaxLineBytes without buffering the rest.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > protocol.MaxLineBytes+1 {
			if len(line) == 0 {
				line = chunk // valid until the next read: the caller looks for the id at once
			}
			return line, errLineTooLong // the head, for its id
		}
		line = append(line, chunk...)
		if err == nil {
			return line[:len(line)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if err == io.EOF && len(line) > 0 {
				return line, io.EOF
			}
			return line, err
		}
	}
}

// writeLoop writes answers, flushing when no more are queued, and closes
// the connection when the actor stops.
func (c *conn) writeLoop() {
	w := bufio.NewWriterSize(&stallWriter{c: c.c, timeout: c.opts.StallTimeout, observerTimeout: c.opts.ObserverStall, observer: &c.observer, stopping: &c.stopping}, 4<<10)
	failed := false
	for item := range c.out {
		if !failed {
			if item.line != nil {
				w.Write(item.line)
				w.WriteByte('\n')
			}
			for _, line := range item.lines {
				w.Write(line)
				w.WriteByte('\n')
			}
			for _, piece := range item.joined {
				w.Write(piece)
			}
			if item.joined != nil {
				w.WriteByte('\n')
			}
			w.Write(item.raw)
			var err error
			if len(c.out) == 0 || w.Buffered() == 0 {
				err = w.Flush()
				failed = err != nil
			}
			if failed {
				c.root.Send(c.self, &writeFailed{stalled: errors.Is(err, os.ErrDeadlineExceeded)})
			}
		}
		c.release(item.size)
		c.returnCredits(item.credits)
		if len(c.out) == 0 && c.writerBehind.CompareAndSwap(true, false) {
			c.root.Send(c.self, &writerCaughtUp{})
		}
		if item.after != nil {
			w.Flush()
			item.after()
		}
		c.queued.Add(-1) // after the flush: at 0 nothing is left in w
	}
	w.Flush()
	c.c.Close()
}
