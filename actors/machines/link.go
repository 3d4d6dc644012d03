package machines

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/machines/saved"
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
	// settleAfter: an agent's status change is patched into the mirror at
	// once; the full re-read that settles everything else it may touch
	// (the snapshot's copy) waits this long, so a busy machine is re-read
	// every 2 s, not after every change.
	settleAfter = 2 * time.Second
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

	state      string
	reason     string // why the state is what it is ("" while online)
	gen        uint64 // the connection attempt; messages of an older one are dropped
	req, ev    *wire
	backoff    time.Duration
	lastSeq    uint64 // the remote's seq of the last event seen, for since_seq
	contact    time.Time
	told       time.Time // when the parent last heard of contact
	waits      map[string]*wire
	mirror     *mirror
	fetching   bool          // a re-read runs
	again      time.Duration // a re-read is wanted within this after the one running (0: none)
	refreshT   uint64        // the pending re-read's timer
	refreshD   time.Time     // when it fires
	probeAt    uint64        // the pending probe's timer
	early      [][]byte      // events of the attempt under way, published once it is up
	earlyBytes int
	floods     int // the cuts for flooding since the link last stayed up
	timers     kit.Timers
	log        func(msg string, args ...any)
	// stopped is closed when the link stops: a connection or a wait's
	// session that comes up after it is closed at once, not leaked.
	stopped chan struct{}
}

// Messages of a link's goroutines and timers.
type (
	linkUp struct {
		gen     uint64
		req, ev *wire
		pong    protocol.Pong
		mirror  *mirror
	}
	linkDown struct {
		gen       uint64
		err       error
		attention bool
	}
	remoteLine struct {
		gen  uint64
		line []byte
		q    *inbox // the wire's, whose room the line holds until taken
	}
	mirrored struct {
		gen    uint64
		mirror *mirror
		err    error
	}
	probed struct {
		gen uint64
		err error
	}
	waitOver struct{ caller string }
	waitWire struct {
		caller string
		w      *wire
	}
	redial    struct{}
	refreshIt struct{}
	probeIt   struct{}
)

func newLink(p saved.Profile, opts *Options, parent *actor.PID) *link {
	return &link{p: p, ref: protocol.MachineRef{ID: p.ID, Label: p.Label}, opts: opts, parent: parent,
		state: protocol.MachineConnecting, backoff: backoffMin, waits: map[string]*wire{}, stopped: make(chan struct{}),
		// Attempts of an instance before a restart must not pass for this one's.
		gen: uint64(time.Now().UnixNano()),
		log: func(msg string, args ...any) { opts.Log.Info(msg, append([]any{"machine", p.Label}, args...)...) }}
}

// Receive implements actor.Actor.
func (l *link) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		l.tell(ctx, "")
		l.dial(ctx)
	case *actor.Stopping, *actor.Restarting:
		// A restart (after a panic) makes a fresh link from the profile:
		// this one's sessions go with it.
		close(l.stopped)
		l.timers.StopAll()
		l.drop()
	case *kit.Fired:
		l.Receive(firedContext{ctx, l.timers.Fired(msg)})
	case *linkUp:
		l.up(ctx, msg)
	case *linkDown:
		if msg.gen == l.gen {
			l.down(ctx, msg.err, msg.attention)
		}
	case *remoteLine:
		msg.q.take(len(msg.line))
		switch {
		case msg.gen != l.gen:
		case l.req == nil:
			// Resumed events arrive while the attempt reads the mirror:
			// they follow the machine_state_changed that says it is back.
			// A remote that sends more than it could have retained is
			// flooding.
			if len(l.early) >= floodBurstLines || l.earlyBytes+len(msg.line) > floodBurstBytes {
				l.down(ctx, &floodError{fmt.Sprintf("sent more than %d events while the link came up (flooding)", floodBurstLines)}, true)
				return
			}
			l.early = append(l.early, msg.line)
			l.earlyBytes += len(msg.line)
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
	case *kit.Call:
		l.forward(ctx, msg)
	case *waitWire:
		if _, wanted := l.waits[msg.caller]; wanted {
			l.waits[msg.caller] = msg.w
		} else {
			go msg.w.close() // its caller left, or the link dropped, meanwhile
		}
	case *waitOver:
		delete(l.waits, msg.caller)
	case *actor.Terminated:
		// A caller of a forwarded wait left: its ssh session goes too.
		if w, ok := l.waits[msg.Who.Id]; ok {
			delete(l.waits, msg.Who.Id)
			if w != nil {
				go w.close()
			}
		}
	default:
		kit.Unhandled(ctx, msg, l.opts.Log)
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
	extra = append(extra, controlOptions(l.opts.ControlDir, l.p.ID)...)
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
	stopped, env := l.stopped, l.opts.Agents.Env()
	go func() {
		result := connect(gen, argv, env, since, l.ref, func(line []byte, q *inbox) { root.Send(self, &remoteLine{gen: gen, line: line, q: q}) })
		if up, ok := result.(*linkUp); ok && isClosed(stopped) {
			up.req.close()
			up.ev.close()
			return
		}
		root.Send(self, result)
	}()
}

// connect is one attempt: the calls session and a ping (the remote's
// bridge starts its server when none runs), the protocol checked, the
// event stream subscribed (resumed after since when the remote still has
// it), then the mirror read. It runs on a goroutine and touches no field
// of the link.
func connect(gen uint64, argv, env []string, since uint64, ref protocol.MachineRef, onEvent func([]byte, *inbox)) any {
	req, err := dialWire(argv, env, nil)
	if err != nil {
		return &linkDown{gen: gen, err: err, attention: true}
	}
	raw, err := req.call("ping", nil, dialWithin)
	if err != nil {
		return classify(gen, req, err)
	}
	var pong protocol.Pong
	if protocol.Unmarshal(raw, &pong) != nil || pong.Version == "" {
		req.close()
		return &linkDown{gen: gen, err: errors.New("the remote answered ping, but not as herdr"), attention: true}
	}
	if pong.Protocol != protocol.ProtocolVersion {
		req.close()
		return &linkDown{gen: gen, err: fmt.Errorf("the remote herdr %s speaks protocol %d, this one %d", protocol.Printable(pong.Version), pong.Protocol, protocol.ProtocolVersion), attention: true}
	}
	ev, err := subscribe(argv, env, since, onEvent)
	if err != nil {
		req.close()
		return &linkDown{gen: gen, err: err}
	}
	mirror, err := readMirror(req, ref)
	if err != nil {
		req.close()
		ev.close()
		return &linkDown{gen: gen, err: err}
	}
	return &linkUp{gen: gen, req: req, ev: ev, pong: pong, mirror: mirror}
}

// streamKinds are the remote events a link asks for: every lifecycle
// kind but output changes, which are not retained or streamed, and the
// task board's, which a remote Herdr would refuse.
func streamKinds() []protocol.Subscription {
	var subs []protocol.Subscription
	for _, k := range protocol.LifecycleKinds {
		if k != "pane_output_changed" && protocol.HerdrEventKind(k) {
			subs = append(subs, protocol.Subscription{Type: k})
		}
	}
	return subs
}

// subscribe opens the event session, resuming after since when the
// remote still retains it, else from now.
func subscribe(argv, env []string, since uint64, onEvent func([]byte, *inbox)) (*wire, error) {
	for {
		ev, err := dialWire(argv, env, onEvent)
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

// mirror is a machine's read model as the fleet serves it: encoded once,
// qualified, when it is read (on a goroutine), so a fleet-scoped answer
// only joins bytes. It is never changed after it is made.
type mirror struct {
	snapshot   []byte   // the remote's session.snapshot "snapshot" object
	agents     [][]byte // each agent.list entry
	panes      []string // each agent's qualified pane id, to patch it
	workspaces int
}

// readMirror reads the remote's snapshot and agents, qualified.
func readMirror(req *wire, ref protocol.MachineRef) (*mirror, error) {
	raw, err := req.call("session.snapshot", nil, dialWithin)
	if err != nil {
		return nil, fmt.Errorf("session.snapshot: %w", err)
	}
	var snap struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := protocol.Unmarshal(raw, &snap); err != nil {
		return nil, fmt.Errorf("session.snapshot: %w", err)
	}
	raw, err = req.call("agent.list", nil, dialWithin)
	if err != nil {
		return nil, fmt.Errorf("agent.list: %w", err)
	}
	var list struct {
		Agents []json.RawMessage `json:"agents"`
	}
	if err := protocol.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("agent.list: %w", err)
	}
	m := &mirror{agents: make([][]byte, 0, len(list.Agents))}
	if len(snap.Snapshot) > 0 {
		v, err := protocol.DecodeJSON(snap.Snapshot)
		if err != nil {
			return nil, err
		}
		if obj, ok := v.(map[string]any); ok {
			ws, _ := obj["workspaces"].([]any)
			m.workspaces = len(ws)
		}
		if m.snapshot, err = json.Marshal(protocol.QualifyValue(v, ref)); err != nil {
			return nil, err
		}
	}
	for _, a := range list.Agents {
		v, err := protocol.DecodeJSON(a)
		if err != nil {
			return nil, err
		}
		v = protocol.QualifyValue(v, ref)
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		pane := ""
		if obj, ok := v.(map[string]any); ok {
			pane, _ = obj["pane_id"].(string)
		}
		m.agents, m.panes = append(m.agents, b), append(m.panes, pane)
	}
	return m, nil
}

// classify turns a failed first ping into a down. ssh's own failure
// (exit 255) is the network's, retried as offline, unless ssh refused the
// key or the host; a far command that ended without answering is not
// herdr (or not this session's): both need a person.
func classify(gen uint64, w *wire, err error) *linkDown {
	w.close()
	tail := w.stderr.last()
	exit := w.child.ExitCode()
	attention := false
	var flood *floodError
	switch {
	case errors.As(err, &flood):
		attention = true
	case exit == 255:
		for _, s := range []string{"Permission denied", "Host key verification failed", "IDENTIFICATION HAS CHANGED"} {
			attention = attention || strings.Contains(tail, s)
		}
	case exit >= 0:
		attention = true
		err = fmt.Errorf("the remote command ended (exit %d) without answering as herdr", exit)
	}
	if tail != "" && !strings.Contains(err.Error(), tail) {
		err = fmt.Errorf("%v: %s", err, tail)
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
	l.req, l.ev, l.backoff, l.mirror = m.req, m.ev, backoffMin, m.mirror
	l.touch(ctx)
	ctx.Request(l.parent, &mirrorMsg{id: l.p.ID, mirror: m.mirror})
	ctx.Request(l.parent, &remoteFacts{id: l.p.ID, pong: m.pong})
	l.log("machine online", "version", m.pong.Version)
	l.setState(ctx, protocol.MachineOnline, "")
	early := l.early
	l.early, l.earlyBytes = nil, 0
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
	var flood *floodError
	switch {
	case errors.As(err, &flood):
		// Cut off: marked for a person, retried later and later while
		// it keeps flooding.
		l.floods++
		state, wait = protocol.MachineAttention, attentionRetry<<min(l.floods-1, 3)
	case attention:
		state, wait = protocol.MachineAttention, attentionRetry
	default:
		l.backoff = min(2*l.backoff, backoffMax)
	}
	reason := "connection lost"
	if err != nil {
		reason = err.Error()
	}
	switch {
	case flood != nil:
		l.opts.Log.Warn("machine cut off", "machine", l.p.Label, "err", reason, "retry_in", wait)
	case l.state != state:
		l.log("machine "+state, "err", reason, "retry_in", wait)
	}
	if l.state == state && l.reason != reason {
		l.reason = reason
		l.tell(ctx, reason) // the same state for another reason: machine.list says the new one
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
		if w != nil {
			go w.close()
		}
	}
	l.timers.Cancel(l.refreshT)
	l.req, l.ev, l.fetching, l.again, l.refreshT, l.early, l.earlyBytes = nil, nil, false, 0, 0, nil, 0
}

// setState tells the parent, and the bus's fleet subscribers, of a change.
func (l *link) setState(ctx actor.Context, state, reason string) {
	if state == l.state {
		return
	}
	prev := l.state
	l.state, l.reason = state, reason
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
	// The remote's own pane id and status, for fleet subscribers that
	// named the pane (events.StatusFilter).
	fields := events.Fields{Machine: l.p.ID}
	fields.PaneID, _ = data["pane_id"].(string)
	fields.AgentStatus, _ = data["agent_status"].(string)
	protocol.QualifyValue(data, l.ref)
	data["machine"] = l.ref
	body, err := json.Marshal(data)
	if err != nil {
		return
	}
	// Decoded once, here: the actors of this server get the typed value,
	// subscribers the bytes as they are.
	typed, err := protocol.DecodeEventData(kind, body)
	if err != nil {
		l.opts.Log.Debug("machine event kept untyped", "machine", l.p.Label, "kind", kind, "err", err)
	}
	ctx.Send(l.opts.Events, &events.Publish{Data: protocol.RemoteEvent{Kind: kind, Data: body, Event: typed}, Fields: fields})
	if kind == "pane_agent_status_changed" && l.patch(ctx, data) {
		l.want(ctx, settleAfter)
		return
	}
	l.want(ctx, refreshAfter)
}

// statusFields are what a status change carries of an agent.list entry.
var statusFields = []string{"agent_status", "agent", "display_agent", "title", "state_labels"}

// patch applies a status change (data qualified) to the agent it names in
// a new mirror; false when the mirror does not list that pane.
func (l *link) patch(ctx actor.Context, data map[string]any) bool {
	pane, _ := data["pane_id"].(string)
	if l.mirror == nil || pane == "" {
		return false
	}
	i := slices.Index(l.mirror.panes, pane)
	if i < 0 {
		return false
	}
	v, err := protocol.DecodeJSON(l.mirror.agents[i])
	agent, ok := v.(map[string]any)
	if err != nil || !ok {
		return false
	}
	for _, k := range statusFields {
		if x, ok := data[k]; ok {
			agent[k] = x
		}
	}
	b, err := json.Marshal(agent)
	if err != nil {
		return false
	}
	next := *l.mirror
	next.agents = slices.Clone(l.mirror.agents)
	next.agents[i] = b
	l.mirror = &next
	ctx.Request(l.parent, &mirrorMsg{id: l.p.ID, mirror: l.mirror})
	return true
}

// want asks for a re-read of the mirror within d: one timer, moved only
// earlier; while a re-read runs, the wish waits for its end.
func (l *link) want(ctx actor.Context, d time.Duration) {
	if l.fetching {
		if l.again == 0 || d < l.again {
			l.again = d
		}
		return
	}
	due := time.Now().Add(d)
	if l.refreshT != 0 && !l.refreshD.After(due) {
		return
	}
	l.timers.Cancel(l.refreshT)
	l.refreshT, l.refreshD = l.timers.After(ctx, d, &refreshIt{}), due
}

// refresh reads the mirror anew on a goroutine, one read at a time.
func (l *link) refresh(ctx actor.Context) {
	l.refreshT = 0
	if l.req == nil || l.fetching {
		return
	}
	l.fetching = true
	gen, req, ref, self, root := l.gen, l.req, l.ref, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		mirror, err := readMirror(req, ref)
		root.Send(self, &mirrored{gen: gen, mirror: mirror, err: err})
	}()
}

func (l *link) mirrored(ctx actor.Context, m *mirrored) {
	if m.gen != l.gen {
		return
	}
	l.fetching = false
	if m.err == nil {
		l.touch(ctx)
		l.mirror = m.mirror
		ctx.Request(l.parent, &mirrorMsg{id: l.p.ID, mirror: m.mirror})
	}
	if d := l.again; d > 0 {
		l.again = 0
		l.want(ctx, d)
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
	l.floods = 0 // up a whole probe's time without flooding
	l.probeAt = l.timers.After(ctx, probeEvery, &probeIt{})
}

// forward sends a call for this machine to its server and answers the
// caller with the remote's answer, qualified. A wait gets a session of
// its own, so it holds up neither the other calls nor the probes, and is
// closed when its caller leaves.
func (l *link) forward(ctx actor.Context, call *kit.Call) {
	fwd, ok := call.Params.(*protocol.Forwarded)
	if !ok {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "machine %s: %s is not a forwarded call", l.p.Label, call.Method)))
		return
	}
	if l.state != protocol.MachineOnline || l.req == nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q is %s", l.p.Label, l.state)))
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
		ctx.Respond(kit.Fail(err))
		return
	}
	key, self := sender.Id, ctx.Self()
	if _, busy := l.waits[key]; busy {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "machine %s: a wait of this caller is already running", l.p.Label)))
		return
	}
	l.waits[key] = nil // its session is being started
	ctx.Watch(sender)
	stopped, env := l.stopped, l.opts.Agents.Env()
	go func() {
		// waitOver goes before the answer, so the caller's next wait
		// finds its slot free.
		w, err := dialWire(argv, env, nil)
		if err != nil {
			root.Send(self, &waitOver{caller: key})
			answer(nil, err)
			return
		}
		if isClosed(stopped) {
			w.close()
			answer(nil, errWireClosed)
			return
		}
		root.Send(self, &waitWire{caller: key, w: w})
		raw, err := w.call(method, fwd.Raw, 0)
		root.Send(self, &waitOver{caller: key})
		answer(raw, err)
		w.close()
	}()
}

// remoteReply turns a remote answer into a local one: the result
// qualified, the remote's errors as they came, a lost connection
// machine_offline.
func remoteReply(ref protocol.MachineRef, raw json.RawMessage, err error) *kit.Reply {
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return kit.Fail(pe)
		}
		return kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q: %v", ref.Label, err))
	}
	res, err := protocol.QualifyResult(raw, ref)
	if err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "machine %q: %v", ref.Label, err))
	}
	return kit.Done(res)
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
