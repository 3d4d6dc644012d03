package machines

import (
	"encoding/json"
	"maps"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// A fleet-scoped agent.list or session.snapshot is the session's local
// answer plus every machine's mirror. A gather child asks the session
// (so the fleet's mailbox never waits) and merges; the mirrors it is
// handed are never changed after they are made, so it reads them safely.

// part is one machine's share of a fleet answer.
type part struct {
	ref      protocol.MachineRef
	state    string
	snapshot any
	agents   []any
}

type gather struct {
	call    *api.Call
	caller  *actor.PID
	session *actor.PID
	parts   []part
	timers  api.Timers
}

// gatherExpired gives up on a session that never answers.
type gatherExpired struct{}

func (f *Fleet) gather(ctx actor.Context, call *api.Call) {
	g := &gather{call: call, caller: ctx.Sender(), session: f.opts.Session}
	for _, p := range f.profiles {
		v := f.views[p.ID]
		if v == nil || !p.Enabled {
			continue
		}
		g.parts = append(g.parts, part{ref: protocol.MachineRef{ID: p.ID, Label: p.Label}, state: v.state, snapshot: v.snapshot, agents: v.agents})
	}
	ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return g }, api.Guarded(f.opts.Log)))
}

// Receive implements actor.Actor.
func (g *gather) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		// The local half, without the fleet scope.
		ctx.Request(g.session, &api.Call{ID: g.call.ID, Method: g.call.Method, Params: &protocol.FleetParams{}})
		g.timers.After(ctx, api.DefaultCallDeadline, &gatherExpired{})
	case *actor.Stopping:
		g.timers.StopAll()
	case *api.Fired:
		g.timers.Fired(msg)
		g.answer(ctx, api.Fail(protocol.Errorf(protocol.CodeInternal, "%s: no answer from the session", g.call.Method)))
	case *api.Reply:
		if msg.Err != nil {
			g.answer(ctx, msg)
			return
		}
		merged, err := g.merge(msg.Result)
		if err != nil {
			g.answer(ctx, api.Fail(protocol.Errorf(protocol.CodeInternal, "%s: %v", g.call.Method, err)))
			return
		}
		g.answer(ctx, api.Done(merged))
	case *actor.Stopped, *actor.Restarting:
	default:
		api.Unhandled(ctx, msg, nil)
	}
}

func (g *gather) answer(ctx actor.Context, r *api.Reply) {
	ctx.Send(g.caller, r)
	ctx.Stop(ctx.Self())
}

// merge adds the machines to the local result.
func (g *gather) merge(local protocol.Result) (protocol.Encoded, error) {
	raw, err := protocol.MarshalResult(local)
	if err != nil {
		return protocol.Encoded{}, err
	}
	v, err := protocol.DecodeJSON(raw)
	if err != nil {
		return protocol.Encoded{}, err
	}
	obj, _ := v.(map[string]any)
	delete(obj, "type")
	switch g.call.Method {
	case "agent.list":
		agents, _ := obj["agents"].([]any)
		for _, p := range g.parts {
			stale := p.state != protocol.MachineOnline
			for _, a := range p.agents {
				if m, ok := a.(map[string]any); ok && stale {
					m = maps.Clone(m) // the mirror is shared: never written
					m["stale"] = true
					a = m
				}
				agents = append(agents, a)
			}
		}
		if agents == nil {
			agents = []any{}
		}
		obj["agents"] = agents
	case "session.snapshot":
		list := make([]any, 0, len(g.parts))
		for _, p := range g.parts {
			e := map[string]any{"machine": p.ref, "state": p.state, "stale": p.state != protocol.MachineOnline}
			if p.snapshot != nil {
				e["snapshot"] = p.snapshot
			}
			list = append(list, e)
		}
		obj["machines"] = list
	}
	body, err := json.Marshal(obj)
	return protocol.Encoded{Type: local.ResultType(), JSON: body}, err
}
