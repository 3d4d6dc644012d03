package machines

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/events"
	saved "github.com/herdr-go/herdr/machines"
	"github.com/herdr-go/herdr/protocol"
)

// Timings of a link. Backoff doubles from backoffMin to backoffMax after
// each failed attempt (attentionRetry for a link that needs a person);
// a probe is a ping every probeEvery that must be answered within
// probeWithin (the remote answers a connection's calls in order, so a
// slow call ahead of it delays it).
const (
	backoffMin     = time.Second
	backoffMax     = 30 * time.Second
	attentionRetry = time.Minute
	probeEvery     = 10 * time.Second
	probeWithin    = 20 * time.Second
	dialWithin     = 30 * time.Second
	refreshAfter   = 150 * time.Millisecond
)

// link is the actor of one enabled machine: its ssh sessions (one for
// calls, one for the event stream, one per forwarded wait, all through
// one OpenSSH connection where ControlMaster works), the mirror of its
// read model, and its state. The sessions are read on goroutines, which
// only send it messages; every field here is the actor's.
type link struct {
	p      saved.Profile
	ref    protocol.MachineRef
	opts   *Options
	parent *actor.PID

	state    string
	gen      uint64 // the connection attempt; messages of an older one are dropped
	req, ev  *wire
	backoff  time.Duration
	lastSeq  uint64 // the remote's seq of the last event seen, for since_seq
	contact  time.Time
	told     time.Time // when the parent last heard of contact
	waits    map[string]*wire
	dirty    bool // a mirror refresh is due after the one running
	fetching bool
	probeAt  uint64   // the pending probe's timer
	early    [][]byte // events of the attempt under way, published once it is up
	timers   api.Timers
	log      func(msg string, args ...any)
}

// Messages of a link's goroutines and timers.
type (
	linkUp struct {
		gen      uint64
		req, ev  *wire
		pong     protocol.Pong
		snapshot any
		agents   []any
	}
	linkDown struct {
		gen       uint64
		err       error
		attention bool
	}
	remoteLine struct {
		gen  uint64
		line []byte
	}
	mirrored struct {
		gen      uint64
		snapshot any
		agents   []any
		err      error
	}
	probed struct {
		gen uint64
		err error
	}
	waitOver  struct{ caller string }
	redial    struct{}
	refreshIt struct{}
	probeIt   struct{}
)

func newLink(p saved.Profile, opts *Options, parent *actor.PID) *link {
	return &link{p: p, ref: protocol.MachineRef{ID: p.ID, Label: p.Label}, opts: opts, parent: parent,
		state: protocol.MachineConnecting, backoff: backoffMin, waits: map[string]*wire{},
		log: func(msg string, args ...any) { opts.Log.Info(msg, append([]any{"machine", p.Label}, args...)...) }}
}

// Receive implements actor.Actor.
func (l *link) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		l.tell(ctx, "")
		l.dial(ctx)
	case *actor.Stopping:
		l.timers.StopAll()
		l.drop()
	case *api.Fired:
		l.Receive(firedContext{ctx, l.timers.Fired(msg)})
	case *linkUp:
		l.up(ctx, msg)
	case *linkDown:
		if msg.gen == l.gen {
			l.down(ctx, msg.err, msg.attention)
		}
	case *remoteLine:
		switch {
		case msg.gen != l.gen:
		case l.req == nil:
			// Resumed events arrive while the attempt reads the mirror:
			// they follow the machine_state_changed that says it is back.
			l.early = append(l.early, msg.line)
		default:
			l.event(ctx, msg.line)
		}
	case *mirrored:
		l.mirrored(ctx, msg)
	case *probed:
		l.probed(ctx, msg)
	case *redial:
		l.dial(ctx)
	case *refreshIt:
		l.refresh(ctx)
	case *probeIt:
		l.probe(ctx)
	case *api.Call:
		l.forward(ctx, msg)
	case *waitOver:
		delete(l.waits, msg.caller)
	case *actor.Terminated:
		// A caller of a forwarded wait left: its ssh session goes too.
		if w := l.waits[msg.Who.Id]; w != nil {
			delete(l.waits, msg.Who.Id)
			go w.close()
		}
	default:
		api.Unhandled(ctx, msg, l.opts.Log)
	}
}

// firedContext hands a timer's message to Receive as if sent.
type firedContext struct {
	actor.Context
	msg any
}

func (f firedContext) Message() any { return f.msg }

// argv is the ssh command line of one session to the machine's bridge:
// BatchMode (a background connection never asks anyone), keep-alives,
// and the shared connection where the platform has it.
func (l *link) argv() ([]string, error) {
	extra := []string{"-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"}
	extra = append(extra, controlOptions(l.opts.ControlDir)...)
	return saved.Command(l.opts.SSH, extra, l.p.Target, saved.RemoteBridge(l.p.RemoteBin, l.p.RemoteSession))
}

// dial starts a connection attempt on a goroutine.
func (l *link) dial(ctx actor.Context) {
	l.gen++
	gen, since, self, root := l.gen, l.lastSeq, ctx.Self(), ctx.ActorSystem().Root
	argv, err := l.argv()
	if err != nil {
		l.down(ctx, err, true)
		return
	}
	go func() {
		root.Send(self, connect(gen, argv, since, l.ref, func(line []byte) { root.Send(self, &remoteLine{gen: gen, line: line}) }))
	}()
}

// connect is one attempt: the calls session and a ping (the remote's
// bridge starts its server when none runs), the protocol checked, the
// event stream subscribed (resumed after since when the remote still has
// it), then the mirror read. It runs on a goroutine and touches no field
// of the link.
func connect(gen uint64, argv []string, since uint64, ref protocol.MachineRef, onEvent func([]byte)) any {
	req, err := dialWire(argv, nil)
	if err != nil {
		return &linkDown{gen: gen, err: err, attention: true}
	}
	raw, err := req.call("ping", nil, dialWithin)
	if err != nil {
		req.close()
		return classify(gen, req, err)
	}
	var pong protocol.Pong
	if json.Unmarshal(raw, &pong) != nil || pong.Version == "" {
		req.close()
		return &linkDown{gen: gen, err: errors.New("the remote answered ping, but not as herdr"), attention: true}
	}
	if pong.Protocol != protocol.ProtocolVersion {
		req.close()
		return &linkDown{gen: gen, err: fmt.Errorf("the remote herdr %s speaks protocol %d, this one %d", protocol.Printable(pong.Version), pong.Protocol, protocol.ProtocolVersion), attention: true}
	}
	ev, err := subscribe(argv, since, onEvent)
	if err != nil {
		req.close()
		return &linkDown{gen: gen, err: err}
	}
	snapshot, agents, err := readMirror(req, ref)
	if err != nil {
		req.close()
		ev.close()
		return &linkDown{gen: gen, err: err}
	}
	return &linkUp{gen: gen, req: req, ev: ev, pong: pong, snapshot: snapshot, agents: agents}
}

// streamKinds are the remote events a link asks for: every lifecycle
// kind but output changes, which are not retained or streamed.
func streamKinds() []protocol.Subscription {
	var subs []protocol.Subscription
	for _, k := range protocol.LifecycleKinds {
		if k != "pane_output_changed" {
			subs = append(subs, protocol.Subscription{Type: k})
		}
	}
	return subs
}

// subscribe opens the event session, resuming after since when the
// remote still retains it, else from now.
func subscribe(argv []string, since uint64, onEvent func([]byte)) (*wire, error) {
	for {
		ev, err := dialWire(argv, onEvent)
		if err != nil {
			return nil, err
		}
		params := protocol.EventsSubscribeParams{Subscriptions: streamKinds()}
		if since > 0 {
			params.SinceSeq = &since
		}
		_, err = ev.call("events.subscribe", params, dialWithin)
		if err == nil {
			return ev, nil
		}
		ev.close()
		if since > 0 && protocol.AsError(err).Code == "events_lost" {
			since = 0 // too far behind: a fresh stream, and the mirror is read anew anyway
			continue
		}
		return nil, fmt.Errorf("events.subscribe: %w", err)
	}
}

// readMirror reads the remote's snapshot and agents, qualified.
func readMirror(req *wire, ref protocol.MachineRef) (any, []any, error) {
	raw, err := req.call("session.snapshot", nil, dialWithin)
	if err != nil {
		return nil, nil, fmt.Errorf("session.snapshot: %w", err)
	}
	snap, err := protocol.DecodeJSON(raw)
	if err != nil {
		return nil, nil, err
	}
	raw, err = req.call("agent.list", nil, dialWithin)
	if err != nil {
		return nil, nil, fmt.Errorf("agent.list: %w", err)
	}
	list, err := protocol.DecodeJSON(raw)
	if err != nil {
		return nil, nil, err
	}
	var snapshot any
	if m, ok := snap.(map[string]any); ok {
		snapshot = protocol.QualifyValue(m["snapshot"], ref)
	}
	var agents []any
	if m, ok := list.(map[string]any); ok {
		agents, _ = protocol.QualifyValue(m["agents"], ref).([]any)
	}
	return snapshot, agents, nil
}

// classify turns a failed first ping into a down: ssh refusing the key or
// the host, or a far side without herdr, needs a person; anything else
// (a network, a host down) is retried as offline.
func classify(gen uint64, w *wire, err error) *linkDown {
	<-w.done
	tail := w.stderr.last()
	attention := false
	for _, s := range []string{"Permission denied", "Host key verification failed", "IDENTIFICATION HAS CHANGED", "command not found", "not found", "No such file"} {
		if strings.Contains(tail, s) {
			attention = true
		}
	}
	if code := w.cmd.ProcessState; code != nil && code.ExitCode() == 127 {
		attention = true
	}
	if tail != "" {
		err = errors.New(tail)
	}
	return &linkDown{gen: gen, err: err, attention: attention}
}

// up takes a connection that came up.
func (l *link) up(ctx actor.Context, m *linkUp) {
	if m.gen != l.gen {
		go m.req.close()
		go m.ev.close()
		return
	}
	l.req, l.ev, l.backoff = m.req, m.ev, backoffMin
	l.touch(ctx)
	ctx.Request(l.parent, &mirrorMsg{id: l.p.ID, snapshot: m.snapshot, agents: m.agents})
	ctx.Request(l.parent, &remoteFacts{id: l.p.ID, pong: m.pong})
	l.log("machine online", "version", m.pong.Version)
	l.setState(ctx, protocol.MachineOnline, "")
	early := l.early
	l.early = nil
	for _, line := range early {
		l.event(ctx, line)
	}
	gen, self, root := l.gen, ctx.Self(), ctx.ActorSystem().Root
	for _, w := range []*wire{l.req, l.ev} {
		go func() {
			<-w.done
			root.Send(self, &linkDown{gen: gen, err: w.closed()})
		}()
	}
	l.probeAt = l.timers.After(ctx, probeEvery, &probeIt{})
}

// down drops the connection and schedules the next attempt.
func (l *link) down(ctx actor.Context, err error, attention bool) {
	l.drop()
	l.timers.Cancel(l.probeAt)
	l.gen++ // what the dropped sessions still send is stale
	state, wait := protocol.MachineOffline, l.backoff
	if attention {
		state, wait = protocol.MachineAttention, attentionRetry
	} else {
		l.backoff = min(2*l.backoff, backoffMax)
	}
	reason := "connection lost"
	if err != nil {
		reason = err.Error()
	}
	if l.state != state {
		l.log("machine "+state, "err", reason, "retry_in", wait)
	}
	l.setState(ctx, state, reason)
	l.timers.After(ctx, wait, &redial{})
}

// drop closes every session of the connection, off the actor.
func (l *link) drop() {
	for _, w := range []*wire{l.req, l.ev} {
		if w != nil {
			go w.close()
		}
	}
	for caller, w := range l.waits {
		delete(l.waits, caller)
		go w.close()
	}
	l.req, l.ev, l.fetching, l.dirty, l.early = nil, nil, false, false, nil
}

// setState tells the parent, and the bus's fleet subscribers, of a change.
func (l *link) setState(ctx actor.Context, state, reason string) {
	if state == l.state {
		return
	}
	prev := l.state
	l.state = state
	l.tell(ctx, reason)
	ctx.Send(l.opts.Events, &events.Publish{
		Data:   protocol.MachineStateChanged{Machine: l.ref, State: state, Previous: prev, Error: reason},
		Fields: events.Fields{Machine: l.p.ID},
	})
}

func (l *link) tell(ctx actor.Context, reason string) {
	ctx.Request(l.parent, &stateMsg{id: l.p.ID, state: l.state, err: reason, at: time.Now()})
}

// touch notes an answer from the machine; the parent hears at most once a
// second.
func (l *link) touch(ctx actor.Context) {
	l.contact = time.Now()
	if l.contact.Sub(l.told) >= time.Second {
		l.told = l.contact
		ctx.Request(l.parent, &contactMsg{id: l.p.ID, at: l.contact})
	}
}

// event publishes one line of the remote's stream on the local bus,
// qualified, and schedules a mirror refresh.
func (l *link) event(ctx actor.Context, line []byte) {
	v, err := protocol.DecodeJSON(line)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return
	}
	kind, _ := obj["event"].(string)
	data, _ := obj["data"].(map[string]any)
	if kind == "" || data == nil {
		// Not an event: the stream's end (events_lost, the remote
		// stopping). Reconnecting resumes it or reads everything anew.
		l.down(ctx, fmt.Errorf("event stream ended: %s", protocol.Printable(string(clip(line, 200)))), false)
		return
	}
	if n, ok := obj["seq"].(json.Number); ok {
		if seq, err := n.Int64(); err == nil && seq > 0 {
			l.lastSeq = uint64(seq)
		}
	}
	l.touch(ctx)
	delete(data, "type")
	protocol.QualifyValue(data, l.ref)
	data["machine"] = l.ref
	body, err := json.Marshal(data)
	if err != nil {
		return
	}
	ctx.Send(l.opts.Events, &events.Publish{Data: protocol.RemoteEvent{Kind: kind, Data: body}, Fields: events.Fields{Machine: l.p.ID}})
	if !l.dirty {
		l.dirty = true
		if !l.fetching {
			l.timers.After(ctx, refreshAfter, &refreshIt{})
		}
	}
}

// refresh reads the mirror anew on a goroutine, one read at a time.
func (l *link) refresh(ctx actor.Context) {
	if l.req == nil || l.fetching {
		return
	}
	l.dirty, l.fetching = false, true
	gen, req, ref, self, root := l.gen, l.req, l.ref, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		snapshot, agents, err := readMirror(req, ref)
		root.Send(self, &mirrored{gen: gen, snapshot: snapshot, agents: agents, err: err})
	}()
}

func (l *link) mirrored(ctx actor.Context, m *mirrored) {
	if m.gen != l.gen {
		return
	}
	l.fetching = false
	if m.err == nil {
		l.touch(ctx)
		ctx.Request(l.parent, &mirrorMsg{id: l.p.ID, snapshot: m.snapshot, agents: m.agents})
	}
	if l.dirty {
		l.timers.After(ctx, refreshAfter, &refreshIt{})
	}
}

// probe pings the machine, off the actor; a link whose probe goes
// unanswered is down.
func (l *link) probe(ctx actor.Context) {
	if l.req == nil {
		return
	}
	gen, req, self, root := l.gen, l.req, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		_, err := req.call("ping", nil, probeWithin)
		root.Send(self, &probed{gen: gen, err: err})
	}()
}

func (l *link) probed(ctx actor.Context, m *probed) {
	if m.gen != l.gen {
		return
	}
	if m.err != nil {
		l.down(ctx, fmt.Errorf("health probe: %w", m.err), false)
		return
	}
	l.touch(ctx)
	l.probeAt = l.timers.After(ctx, probeEvery, &probeIt{})
}

// forward sends a call for this machine to its server and answers the
// caller with the remote's answer, qualified. A wait gets a session of
// its own, so it holds up neither the other calls nor the probes, and is
// closed when its caller leaves.
func (l *link) forward(ctx actor.Context, call *api.Call) {
	fwd, ok := call.Params.(*protocol.Forwarded)
	if !ok {
		ctx.Respond(api.Fail(protocol.Errorf(protocol.CodeInternal, "machine %s: %s is not a forwarded call", l.p.Label, call.Method)))
		return
	}
	if l.state != protocol.MachineOnline || l.req == nil {
		ctx.Respond(api.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q is %s", l.p.Label, l.state)))
		return
	}
	sender, ref, root, method := ctx.Sender(), l.ref, ctx.ActorSystem().Root, call.Method
	answer := func(raw json.RawMessage, err error) {
		root.Send(sender, remoteReply(ref, raw, err))
	}
	m, _ := protocol.Lookup(method)
	if m.Shape != protocol.ShapeWait {
		req := l.req
		go func() { answer(req.call(method, fwd.Raw, 0)) }()
		return
	}
	argv, err := l.argv()
	if err != nil {
		ctx.Respond(api.Fail(err))
		return
	}
	key, self := sender.Id, ctx.Self()
	if l.waits[key] != nil {
		ctx.Respond(api.Fail(protocol.Errorf(protocol.CodeInternal, "machine %s: a wait of this caller is already running", l.p.Label)))
		return
	}
	w, err := dialWire(argv, nil)
	if err != nil {
		ctx.Respond(api.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q: %v", l.p.Label, err)))
		return
	}
	l.waits[key] = w
	ctx.Watch(sender)
	go func() {
		answer(w.call(method, fwd.Raw, 0))
		w.close()
		root.Send(self, &waitOver{caller: key})
	}()
}

// remoteReply turns a remote answer into a local one: the result
// qualified, the remote's errors as they came, a lost connection
// machine_offline.
func remoteReply(ref protocol.MachineRef, raw json.RawMessage, err error) *api.Reply {
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return api.Fail(pe)
		}
		return api.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q: %v", ref.Label, err))
	}
	res, err := protocol.QualifyResult(raw, ref)
	if err != nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "machine %q: %v", ref.Label, err))
	}
	return api.Done(res)
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
