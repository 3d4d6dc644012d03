package dispatcher

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The dispatcher speaks the public API: each call is a request a
// coordinator client could send, its params decoded and validated by the
// method table from their JSON, routed as the gateway routes it (the
// session for what it resolves, else the method's owner). Each goes out
// from a short-lived child, so its answer comes back tagged with what it
// was for while the dispatcher's other calls and events keep flowing.

// answered is a call's answer, handed to the dispatcher with its tag.
type answered struct {
	tag   any
	reply *kit.Reply
}

// callExpired gives up on an owner that never answers.
type callExpired struct{}

// caller is the child carrying one call.
type caller struct {
	owner  *actor.PID
	routes *kit.SessionRoutes // nil: every call goes to owner
	call   *kit.Call
	tag    any
	within time.Duration
	timers kit.Timers
	done   bool
}

// encodeCall makes the kit.Call a client sending params as JSON would
// make: a bad param is an error here, as on the wire.
func encodeCall(id, method string, params any) (*kit.Call, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	p, err := protocol.DecodeParams(method, raw)
	if err != nil {
		return nil, err
	}
	return &kit.Call{ID: id, Method: method, Params: p}, nil
}

// Receive implements actor.Actor.
func (c *caller) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		c.routes.Send(ctx, c.owner, c.call, ctx.Self())
		c.timers.After(ctx, c.within, &callExpired{})
	case *actor.Stopping:
		c.timers.StopAll()
	case *kit.Fired:
		c.timers.Fired(msg)
		c.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: no answer within %s", c.call.Method, c.within)))
	case *kit.Reply:
		c.answer(ctx, msg)
	case *actor.DeadLetterResponse:
		c.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: its owner is gone", c.call.Method)))
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

func (c *caller) answer(ctx actor.Context, r *kit.Reply) {
	if c.done {
		return
	}
	c.done = true
	ctx.Send(ctx.Parent(), &answered{tag: c.tag, reply: r})
	ctx.Stop(ctx.Self())
}

// decodeResult reads a result's (or params') wire shape into out.
func decodeResult(r any, out any) error {
	if e, ok := r.(protocol.Encoded); ok { // encoded once already
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

// errorCode is an API error's code ("" for none or another error).
func errorCode(err error) string {
	if e, ok := err.(*protocol.Error); ok {
		return e.Code
	}
	return ""
}
