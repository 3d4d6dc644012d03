package web

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// wsConn is a browser's WebSocket.
type wsConn = *websocket.Conn

// A browser may call the methods whose table entry allows it
// (protocol.Method.Browser): reading and watching, typing into panes
// (rate-limited), focusing and closing. Nothing that starts a program
// (splits, workspaces, agent.start, plugins) or writes a file
// (pane.record.*) is allowed.

// Input rate: a burst of inputBurst writes, then inputRate a second (a
// fast typist sends about 15; a paste is one).
const (
	inputRate  = 30
	inputBurst = 60
)

// window is how many messages a browser may have sent ahead of their
// answers; past it the reader stops reading. A message larger than
// smallMessage (a .cast upload) takes the whole window, once every
// earlier one is answered: at most one large message is held at a time,
// not window of them.
const (
	window       = 32
	smallMessage = 64 << 10
)

// replayMethod is the dashboard's own method: replay a pane's history or
// an uploaded .cast as a screen stream named ReplayPaneID.
const replayMethod = "web.replay"

// wsMessage is one message read from the browser; wsGone says it left.
type (
	wsMessage struct {
		data    []byte
		credits int // taken from the window, given back with the answer
	}
	wsGone   struct{}
	caughtUp struct{}
)

// request is one call waiting for its turn; internal ones are the
// browser actor's own (the event subscription, a replay's history).
type request struct {
	id       string
	method   string
	params   protocol.Params
	internal bool
	credits  int                  // of the window, given back with the answer
	replay   *replayParams        // for web.replay of a pane: the history's use
	audit    *protocol.AuditEntry // its audit line, sent with its answer (policy.go)
}

type outItem struct {
	lines [][]byte
	after func()
}

// browser is the actor of one browser's WebSocket: it answers the page's
// requests in order, one at a time, by sending kit.Calls to the session
// as a socket connection does, and writes event batches and screen frames
// to the page with the same flow control (one batch, one frame per pane
// in flight).
type browser struct {
	ws      wsConn
	done    chan struct{}
	opts    Options
	ctx     context.Context
	cancel  context.CancelFunc
	out     chan outItem
	backlog []outItem
	behind  atomic.Bool
	credits chan struct{}
	queue   []*request
	current *request
	calls   kit.InFlight // current's call: its deadline, and how its answer is known
	bucket  bucket
	replay  *actor.PID
	root    *actor.RootContext
	self    *actor.PID
	policy  *config.Policy // its token's (policy.go); nil: the full token
}

func newBrowser(ws wsConn, done chan struct{}, opts Options) *browser {
	return &browser{ws: ws, done: done, opts: opts}
}

// Receive implements actor.Actor.
func (b *browser) Receive(ctx actor.Context) {
	msg := ctx.Message()
	switch m := msg.(type) {
	case *kit.Relayed: // sent to the actor's relay (kit.InFlight)
		ctx, msg = kit.Relay(ctx, m), m.Msg
	case *kit.Fired:
		if expired, ok := b.calls.Fired(ctx, m); ok && expired != nil {
			b.finish(ctx, expired)
		}
		return
	}
	switch msg := msg.(type) {
	case *actor.Started:
		b.start(ctx)
	case *wsMessage:
		b.message(ctx, msg)
		b.pump(ctx)
	case *kit.Reply:
		if b.calls.Answers(ctx, msg) {
			b.finish(ctx, msg)
		}
	case *actor.DeadLetterResponse:
		if b.calls.Answers(ctx, msg) {
			b.finish(ctx, kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed before it could answer")))
		}
	case *events.Batch:
		// The bus and the panes know the actor by the identity its
		// subscription went out with (kit.InFlight).
		bus, root, self := b.opts.Events, b.root, kit.Addressee(ctx)
		b.enqueue(outItem{lines: msg.Lines, after: func() { root.Send(bus, &events.Ack{Sub: self}) }})
	case *events.Lost, *events.Failed:
		// The page missed events: it reloads its snapshot and the actor
		// subscribes again.
		b.push("web.resync", struct{}{})
		b.subscribe()
		b.pump(ctx)
	case *kit.Frames:
		root, self, from := b.root, kit.Addressee(ctx), msg.From
		b.enqueue(outItem{lines: msg.Lines, after: func() { root.Send(from, &kit.FramesWritten{Sub: self}) }})
	case *replayDone:
		if msg.From.Equal(b.replay) {
			b.push("web.replay_done", struct{}{})
		}
	case *caughtUp:
		b.refill()
	case *wsGone:
		ctx.Stop(ctx.Self())
	case *actor.Stopping:
		b.calls.Stop()
		b.cancel()
		close(b.out)
	default:
		kit.Unhandled(ctx, msg, b.opts.Log)
	}
}

func (b *browser) start(ctx actor.Context) {
	b.root, b.self = ctx.ActorSystem().Root, ctx.Self()
	b.ctx, b.cancel = context.WithCancel(context.Background())
	b.out = make(chan outItem, 64)
	b.credits = make(chan struct{}, window)
	for range window {
		b.credits <- struct{}{}
	}
	b.bucket = bucket{tokens: inputBurst, at: time.Now()}
	go b.readLoop()
	go b.writeLoop()
	b.subscribe()
	b.pump(ctx)
}

// subscribe queues the subscription to every lifecycle event the page
// draws (not output changes: panes it shows stream their screens), of
// every saved machine too, and each machine's state changes, which the
// fleet view draws.
func (b *browser) subscribe() {
	prm := &protocol.EventsSubscribeParams{FleetScope: protocol.FleetScope{Machines: protocol.MachinesAll}}
	for _, k := range protocol.LifecycleKinds {
		if k != "pane_output_changed" {
			prm.Subscriptions = append(prm.Subscriptions, protocol.Subscription{Type: k})
		}
	}
	b.queue = append(b.queue, &request{method: "events.subscribe", params: prm, internal: true})
}

// message decodes one request of the page and queues it, or answers it
// at once when it is refused.
func (b *browser) message(ctx actor.Context, msg *wsMessage) {
	n := msg.credits
	req, err := protocol.DecodeRequest(msg.data)
	if err != nil {
		b.answer(req.ID, kit.Fail(err), n)
		return
	}
	if req.Method == replayMethod {
		var prm replayParams
		if err := protocol.Unmarshal(req.Params, &prm); err != nil || (prm.PaneID == "") == (prm.Cast == "") {
			b.answer(req.ID, kit.Fail(protocol.ParamError("params", "web.replay takes pane_id or cast")), n)
			return
		}
		if prm.Cast != "" {
			b.answer(req.ID, b.startReplay(ctx, prm.Cast), n)
			return
		}
		r := &request{id: req.ID, method: "pane.history", params: &protocol.PaneTarget{PaneID: prm.PaneID}, replay: &prm, credits: n}
		if m, _ := protocol.Lookup(r.method); b.check(r, m) {
			return
		}
		b.queue = append(b.queue, r)
		return
	}
	// A method this server does not know is answered unknown_method (by
	// DecodeParams below), so a page can tell an older server from a refusal.
	m, known := protocol.Lookup(req.Method)
	if known && m.Browser == protocol.BrowserDenied {
		b.answer(req.ID, kit.Fail(protocol.Errorf(protocol.CodeInvalidRequest, "%s is not available to the web dashboard", req.Method)), n)
		return
	}
	if m.Browser == protocol.BrowserTyping && !b.bucket.take(time.Now()) {
		b.answer(req.ID, kit.Fail(protocol.Errorf("rate_limited", "too much input from this page; at most %d writes a second", inputRate)), n)
		return
	}
	params, err := protocol.DecodeRouted(req.Method, req.Params)
	if err != nil {
		b.answer(req.ID, kit.Fail(err), n)
		return
	}
	r := &request{id: req.ID, method: req.Method, params: params, credits: n}
	if b.check(r, m) {
		return
	}
	b.queue = append(b.queue, r)
}

// pump sends queued calls to the session, one at a time, so answers keep
// the page's order and subscriptions name this actor as their sender.
func (b *browser) pump(ctx actor.Context) {
	for b.current == nil && len(b.queue) > 0 {
		r := b.queue[0]
		b.queue[0] = nil
		b.queue = b.queue[1:]
		b.current = r
		b.calls.Log = b.opts.Log
		deadline := b.opts.CallDeadline
		if deadline <= 0 {
			deadline = kit.DefaultCallDeadline
		}
		owner := b.opts.Session
		m, _ := protocol.Lookup(r.method)
		switch {
		case (protocol.ToMachines(r.params) || m.Owner == protocol.OwnerMachines) && b.opts.Machines != nil:
			owner = b.opts.Machines
		case m.Owner == protocol.OwnerTasks && b.opts.Tasks != nil:
			owner = b.opts.Tasks // the task board (static/tasks.js)
		case m.Owner == protocol.OwnerLoop && b.opts.Loop != nil:
			owner = b.opts.Loop // the inbox (static/inbox.js)
		case m.Owner == protocol.OwnerClients && b.opts.Clients != nil:
			owner = b.opts.Clients // screen.subscribe
		case m.Owner == protocol.OwnerEvents && b.opts.Events != nil:
			owner = b.opts.Events // events.subscribe, events.wait
		case m.Owner == protocol.OwnerReview && b.opts.Review != nil:
			owner = b.opts.Review // the diff view (static/review.js)
		}
		call := &kit.Call{ID: r.id, Method: r.method, Params: r.params}
		if owner == b.opts.Session {
			// Routed from the read side, as a socket's connection routes it.
			b.calls.SendVia(ctx, owner, call, kit.Deadline(r.params, deadline), func(sender *actor.PID) { b.opts.Routes.Send(ctx, owner, call, sender) })
			continue
		}
		b.calls.Send(ctx, owner, call, kit.Deadline(r.params, deadline))
	}
}

func (b *browser) finish(ctx actor.Context, r *kit.Reply) {
	req := b.current
	if req == nil {
		return
	}
	b.current = nil
	b.audited(req, r)
	r = b.narrowed(r)
	switch {
	case req.internal:
		if r.Err != nil {
			b.opts.Log.Warn("web: subscription refused", "err", r.Err)
		} else if s, ok := r.Result.(protocol.SubscriptionStarted); ok && len(s.Initial) > 0 {
			b.enqueue(outItem{lines: s.Initial})
		}
	case req.replay != nil:
		if h, ok := r.Result.(protocol.PaneHistory); ok && r.Err == nil {
			r = b.startReplay(ctx, h.Cast)
		}
		b.answer(req.id, r, req.credits)
	default:
		b.answer(req.id, r, req.credits)
	}
	b.pump(ctx)
}

// answer writes a reply line and gives the request's read credits back.
func (b *browser) answer(id string, r *kit.Reply, credits int) {
	var line []byte
	if r.Err != nil {
		line = protocol.EncodeError(id, r.Err)
	} else {
		var err error
		if line, err = protocol.EncodeSuccess(id, r.Result); err != nil {
			line = protocol.EncodeError(id, err)
		}
	}
	window := b.credits
	b.enqueue(outItem{lines: [][]byte{line}, after: func() {
		for range credits {
			select {
			case window <- struct{}{}:
			default:
			}
		}
	}})
}

// push writes a dashboard event line.
func (b *browser) push(event string, data any) {
	if line, err := protocol.EncodeDedicated(event, data); err == nil {
		b.enqueue(outItem{lines: [][]byte{line}})
	}
}

// enqueue hands lines to the writer without blocking the actor; what does
// not fit waits in order (bounded like a socket connection's: answers
// within the window, one event batch, one frame per pane).
func (b *browser) enqueue(item outItem) {
	if len(b.backlog) == 0 {
		select {
		case b.out <- item:
			return
		default:
		}
	}
	b.backlog = append(b.backlog, item)
	b.behind.Store(true)
	b.refill()
}

func (b *browser) refill() {
	for len(b.backlog) > 0 {
		select {
		case b.out <- b.backlog[0]:
			b.backlog[0] = outItem{}
			b.backlog = b.backlog[1:]
		default:
			b.behind.Store(true)
			return
		}
	}
}

// readLoop reads the page's messages; each takes a credit (a large one
// all of them), returned when its answer is written.
func (b *browser) readLoop() {
	defer b.root.Send(b.self, &wsGone{})
	for {
		if !b.takeCredit() {
			return
		}
		typ, data, err := b.ws.Read(b.ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText || strings.TrimSpace(string(data)) == "" {
			b.credits <- struct{}{}
			continue
		}
		taken := 1
		if len(data) > smallMessage {
			for ; taken < window; taken++ {
				if !b.takeCredit() {
					return
				}
			}
		}
		b.root.Send(b.self, &wsMessage{data: data, credits: taken})
	}
}

// takeCredit waits for a credit of the window; false once the page left.
func (b *browser) takeCredit() bool {
	select {
	case <-b.credits:
		return true
	case <-b.ctx.Done():
		return false
	}
}

// writeLoop writes lines, one WebSocket message each, and closes the
// socket (and lets the HTTP handler return) once the actor stops.
func (b *browser) writeLoop() {
	defer close(b.done)
	failed := false
	for item := range b.out {
		for _, line := range item.lines {
			if !failed {
				ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
				failed = b.ws.Write(ctx, websocket.MessageText, line) != nil
				cancel()
				if failed {
					b.root.Send(b.self, &wsGone{})
				}
			}
		}
		if item.after != nil {
			item.after()
		}
		if len(b.out) == 0 && b.behind.CompareAndSwap(true, false) {
			b.root.Send(b.self, &caughtUp{})
		}
	}
	if failed {
		b.ws.CloseNow()
		return
	}
	b.ws.Close(websocket.StatusNormalClosure, "")
}

// bucket is a token bucket: inputRate a second, at most inputBurst.
type bucket struct {
	tokens float64
	at     time.Time
}

func (k *bucket) take(now time.Time) bool {
	k.tokens = min(inputBurst, k.tokens+now.Sub(k.at).Seconds()*inputRate)
	k.at = now
	if k.tokens < 1 {
		return false
	}
	k.tokens--
	return true
}
