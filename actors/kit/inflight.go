package kit

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// InFlight is the one call a connection (a socket's conn, a browser's
// WebSocket) has in flight at a time, answered in request order. It gives
// the call a safety deadline: an owner that never answers (a lost
// message, a dead owner) costs the caller an internal_error after it, not
// the connection for ever, and the requests pipelined behind it go on.
//
// A late answer to a call given up must not pass for the answer of the
// next one. Owners answer whoever sent the call, so after a call is given
// up the later calls go out with a new relay, a child of the connection,
// as their sender: the relay hands the connection what it is sent wrapped
// in a Relayed naming it, and only an answer that came the way the call in
// flight went out is taken for its answer. Until a call is given up the
// connection is its own sender, so the usual path costs nothing.
type InFlight struct {
	timers Timers
	timer  uint64
	call   *Call
	owner  *actor.PID
	within time.Duration
	via    *actor.PID // the relay calls go out through, nil: the connection itself
	// Log names the calls given up; nil: the actor system's.
	Log *slog.Logger
}

// Relayed is a message that reached a connection through its relay.
type Relayed struct {
	Via *actor.PID
	Msg any
}

// CallExpired is the deadline of a call going off, wrapped in a *Fired.
type CallExpired struct{ call *Call }

// Busy reports whether a call is in flight.
func (f *InFlight) Busy() bool { return f.call != nil }

// Send sends call to owner and arms its deadline (within ≤ 0: none, for
// a wait the client may hold as long as it likes).
func (f *InFlight) Send(ctx actor.Context, owner *actor.PID, call *Call, within time.Duration) {
	f.SendCarried(ctx, owner, call, call, within)
}

// SendCarried is Send of msg, a message that carries call (a PaneCall).
func (f *InFlight) SendCarried(ctx actor.Context, owner *actor.PID, call *Call, msg any, within time.Duration) {
	f.call, f.owner, f.within = call, owner, within
	ctx.RequestWithCustomSender(owner, msg, f.Sender(ctx))
	if within > 0 {
		f.timer = f.timers.After(Unrelayed(ctx), within, &CallExpired{call: call})
	}
}

// SendVia is Send of a call whose sending send does (a routing), given
// the sender the answer must reach.
func (f *InFlight) SendVia(ctx actor.Context, owner *actor.PID, call *Call, within time.Duration, send func(sender *actor.PID)) {
	f.call, f.owner, f.within = call, owner, within
	send(f.Sender(ctx))
	if within > 0 {
		f.timer = f.timers.After(Unrelayed(ctx), within, &CallExpired{call: call})
	}
}

// Sender is the identity the connection's calls go out with: a pane or a
// bus that keeps the caller to push to (screen frames, event batches)
// knows the connection by it.
func (f *InFlight) Sender(ctx actor.Context) *actor.PID {
	if f.via != nil {
		return f.via
	}
	return ctx.Self()
}

// Answers reports whether msg, an *Reply or an *actor.DeadLetterResponse
// the connection is handling in ctx, answers the call in flight; if so,
// the call is over.
func (f *InFlight) Answers(ctx actor.Context, msg any) bool {
	if f.call == nil || !Addressee(ctx).Equal(f.Sender(ctx)) {
		return false
	}
	if r, ok := msg.(*Reply); ok && r.For != nil && r.For != f.call {
		return false // a guard's answer to an earlier call, which was answered already
	}
	f.timers.Cancel(f.timer)
	f.call, f.owner, f.timer = nil, nil, 0
	return true
}

// Fired takes a timer message of the connection's; ok is false when it
// is not one of InFlight's.
func (f *InFlight) Fired(ctx actor.Context, fired *Fired) (expired *Reply, ok bool) {
	e, ok := fired.Msg.(*CallExpired)
	if !ok {
		return nil, false
	}
	f.timers.Fired(fired)
	if e.call != f.call {
		return nil, true // answered in the meantime
	}
	owner := "its owner"
	if f.owner != nil {
		owner = f.owner.Id
	}
	msg := protocol.Errorf(protocol.CodeInternal, "internal error: no answer from %s to %s within %s; the request was given up", owner, e.call.Method, f.within)
	log := f.Log
	if log == nil {
		log = ctx.Logger()
	}
	log.Warn("call given up: no answer within its deadline", "actor", ctx.Self().Id, "owner", owner, "method", e.call.Method, "call_id", e.call.ID, "deadline", f.within)
	f.call, f.owner, f.timer = nil, nil, 0
	f.via = ctx.Spawn(relayProps())
	return Fail(msg), true
}

// Stop cancels the deadline; the actor stops.
func (f *InFlight) Stop() { f.timers.StopAll() }

// relayProps are a relay's: it forwards what it is sent to its parent.
func relayProps() *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
			return
		}
		ctx.Send(ctx.Parent(), &Relayed{Via: ctx.Self(), Msg: ctx.Message()})
	}, Guarded(nil))
}

// viaRelay is the context a connection handles a relayed message in: its
// Message is the one the relay was sent.
type viaRelay struct {
	actor.Context
	r *Relayed
}

func (v viaRelay) Message() any { return v.r.Msg }

// Relay returns the context to handle r in: the same actor, with r's
// message as the message.
func Relay(ctx actor.Context, r *Relayed) actor.Context { return viaRelay{Unrelayed(ctx), r} }

// Addressee is the identity the message in ctx was sent to: the relay it
// came through, else the actor itself.
func Addressee(ctx actor.Context) *actor.PID {
	if v, ok := ctx.(viaRelay); ok {
		return v.r.Via
	}
	return ctx.Self()
}

// Unrelayed is the actor's own context under a relayed message's.
func Unrelayed(ctx actor.Context) actor.Context {
	if v, ok := ctx.(viaRelay); ok {
		return v.Context
	}
	return ctx
}
