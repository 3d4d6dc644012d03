package kit

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Answered is a Caller's one answer: the reply, with the tag of what the
// call was for.
type Answered struct {
	Tag   any
	Reply *Reply
}

// Caller is a short-lived actor carrying one call to the actor that owns
// it, for an actor that calls others as a client would (the dispatcher,
// the loop) or a job goroutine (review): the call is sent from an actor of
// its own, so the owner may watch the sender (agent.prompt does) and the
// caller's other work keeps flowing meanwhile. It answers exactly once --
// the owner's reply, a timeout after Within, its owner gone, or (with
// Deliver) stopped first -- then stops; a reply after that is dropped.
type Caller struct {
	Owner *actor.PID
	// Routes routes a read or an owner call from the session's read side
	// (nil: the call goes to Owner).
	Routes *SessionRoutes
	Call   *Call
	Tag    any
	Within time.Duration
	// Deliver takes the answer; nil sends it to the parent as *Answered.
	Deliver func(*Answered)

	timers Timers
	done   bool
}

// Receive implements actor.Actor.
func (c *Caller) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		c.Routes.Send(ctx, c.Owner, c.Call, ctx.Self())
		c.timers.After(ctx, c.Within, struct{}{})
	case *actor.Stopping:
		c.timers.StopAll()
		if c.Deliver != nil { // a waiting goroutine is never left waiting
			c.answer(ctx, Fail(protocol.Errorf(protocol.CodeInternal, "%s: stopped before an answer", c.Call.Method)))
		}
	case *Fired:
		c.timers.Fired(msg)
		c.answer(ctx, Fail(protocol.Errorf(protocol.CodeTimeout, "%s: no answer within %s", c.Call.Method, c.Within)))
	case *Reply:
		c.answer(ctx, msg)
	case *actor.DeadLetterResponse:
		c.answer(ctx, Fail(protocol.Errorf(protocol.CodeInternal, "%s: its owner is gone", c.Call.Method)))
	case *actor.Stopped, *actor.Restarting:
	default:
		Unhandled(ctx, msg, nil)
	}
}

func (c *Caller) answer(ctx actor.Context, r *Reply) {
	if c.done {
		return
	}
	c.done = true
	a := &Answered{Tag: c.Tag, Reply: r}
	if c.Deliver != nil {
		c.Deliver(a)
	} else {
		ctx.Send(ctx.Parent(), a)
	}
	ctx.Stop(ctx.Self())
}

// Spawn starts c as a child of ctx; its answer comes back to ctx as
// *Answered (or to Deliver).
func (c *Caller) Spawn(ctx actor.SpawnerContext, log *slog.Logger) {
	ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }, Guarded(log)))
}

// Ask makes call to owner from a Caller and waits for its answer: for a
// goroutine (never an actor's Receive, which must not block).
func Ask(root *actor.RootContext, owner *actor.PID, routes *SessionRoutes, call *Call, within time.Duration, log *slog.Logger) *Reply {
	got := make(chan *Answered, 1)
	c := &Caller{Owner: owner, Routes: routes, Call: call, Within: within, Deliver: func(a *Answered) { got <- a }}
	c.Spawn(root, log)
	return (<-got).Reply
}

// EncodeCall makes the Call a client sending params as JSON would make: a
// bad param is an error here, as on the wire.
func EncodeCall(id, method string, params any) (*Call, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	p, err := protocol.DecodeParams(method, raw)
	if err != nil {
		return nil, err
	}
	return &Call{ID: id, Method: method, Params: p}, nil
}

// DecodeResult reads a result's wire shape into out, whichever way its
// owner gave it (a Go value or encoded once already).
func DecodeResult(r any, out any) error {
	if e, ok := r.(protocol.Encoded); ok {
		return protocol.Unmarshal(e.JSON, out)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := protocol.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode %T: %w", r, err)
	}
	return nil
}
