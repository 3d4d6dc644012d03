package loop

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// callWithin bounds every call the actor makes.
const callWithin = 30 * time.Second

// answered is a call's answer, with the tag of what it was for.
type answered struct {
	tag   any
	reply *kit.Reply
}

// caller is the child carrying one call.
type caller struct {
	owner  *actor.PID
	routes *kit.SessionRoutes // nil: every call goes to owner
	call   *kit.Call
	tag    any
	timers kit.Timers
	done   bool
}

// Receive implements actor.Actor.
func (c *caller) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		c.routes.Send(ctx, c.owner, c.call, ctx.Self())
		c.timers.After(ctx, callWithin, struct{}{})
	case *actor.Stopping:
		c.timers.StopAll()
	case *kit.Fired:
		c.timers.Fired(msg)
		c.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeTimeout, "%s: no answer within %s", c.call.Method, callWithin)))
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

// send makes one call through the session from a child; the answer comes
// back as *answered with tag.
func (l *Loop) send(ctx actor.Context, tag any, method string, params any) {
	l.seq++
	raw, err := json.Marshal(params)
	var p protocol.Params
	if err == nil {
		p, err = protocol.DecodeParams(method, raw)
	}
	if err != nil || l.opts.Session == nil {
		if err == nil {
			err = protocol.Errorf(protocol.CodeInternal, "%s: no session to call", method)
		}
		ctx.Send(ctx.Self(), &answered{tag: tag, reply: kit.Fail(err)})
		return
	}
	c := &caller{owner: l.opts.Session, routes: l.opts.Routes, call: &kit.Call{ID: "loop:" + strconv.FormatUint(l.seq, 10), Method: method, Params: p}, tag: tag}
	ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }, kit.Guarded(l.opts.Log)))
}

// decode reads a result's wire shape into out.
func decode(r any, out any) error {
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
