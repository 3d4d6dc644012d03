package machines

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/fleet"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A fleet-scoped agent.list or session.snapshot is the session's local
// answer plus every machine's mirror. A gather child asks the session
// (so the fleet's mailbox never waits) and merges; the mirrors it is
// handed are never changed after they are made, so it reads them safely.

// part is one machine's share of a fleet answer.
type part struct {
	ref    protocol.MachineRef
	state  string
	mirror *mirror // nil: never reached
}

type gather struct {
	call    *kit.Call
	caller  *actor.PID
	session *actor.PID
	routes  *kit.SessionRoutes // nil: the local half goes to the session
	parts   []part
	timers  kit.Timers

	// fleet, when this server is a NATS member, is asked for the other
	// members' answers (one id space with the saved machines); members
	// is what it answered, local the session's answer, both awaited.
	fleet   *actor.PID
	members []fleet.MemberPart
	local   *kit.Reply
}

// gatherExpired gives up on a session that never answers.
type gatherExpired struct{}

func (f *Fleet) gather(ctx actor.Context, call *kit.Call) {
	g := &gather{call: call, caller: ctx.Sender(), session: f.opts.Session, routes: f.opts.Routes, fleet: f.opts.Fleet}
	for _, p := range f.profiles {
		v := f.views[p.ID]
		if v == nil || !p.Enabled {
			continue
		}
		g.parts = append(g.parts, part{ref: protocol.MachineRef{ID: p.ID, Label: p.Label}, state: v.state, mirror: v.mirror})
	}
	ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return g }, kit.Guarded(f.opts.Log)))
}

// Receive implements actor.Actor.
func (g *gather) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		// The local half, without the fleet scope.
		g.routes.Send(ctx, g.session, &kit.Call{ID: g.call.ID, Method: g.call.Method, Params: &protocol.FleetParams{}}, ctx.Self())
		if g.fleet != nil {
			ctx.Request(g.fleet, &fleet.Gather{Method: g.call.Method})
		}
		g.timers.After(ctx, kit.DefaultCallDeadline, &gatherExpired{})
	case *actor.Stopping:
		g.timers.StopAll()
	case *kit.Fired:
		g.timers.Fired(msg)
		g.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: no answer from the session", g.call.Method)))
	case *fleet.Gathered:
		g.members, g.fleet = msg.Parts, nil
		g.done(ctx)
	case *kit.Reply:
		if msg.Err != nil {
			g.answer(ctx, msg)
			return
		}
		g.local = msg
		g.done(ctx)
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// done answers once the session and the fleet (when asked) have.
func (g *gather) done(ctx actor.Context) {
	if g.local == nil || g.fleet != nil {
		return
	}
	merged, err := g.merge(g.local.Result)
	if err != nil {
		g.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: %v", g.call.Method, err)))
		return
	}
	g.answer(ctx, kit.Done(merged))
}

func (g *gather) answer(ctx actor.Context, r *kit.Reply) {
	ctx.Send(g.caller, r)
	ctx.Stop(ctx.Self())
}

// merge adds the machines to the local result, joining the mirrors'
// bytes: the local answer is encoded as usual, and only its list (or its
// end) is opened to let them in.
func (g *gather) merge(local protocol.Result) (protocol.Encoded, error) {
	body, err := json.Marshal(local)
	if err != nil {
		return protocol.Encoded{}, err
	}
	var out bytes.Buffer
	switch g.call.Method {
	case "agent.list":
		var members map[string]json.RawMessage
		if err := protocol.Unmarshal(body, &members); err != nil {
			return protocol.Encoded{}, err
		}
		out.Grow(len(body) + g.size())
		out.WriteString(`{"agents":[`)
		n := 0
		sep := func() {
			if n > 0 {
				out.WriteByte(',')
			}
			n++
		}
		if list := bytes.TrimSpace(members["agents"]); len(list) > 2 && !bytes.Equal(list, []byte("null")) {
			sep()
			out.Write(list[1 : len(list)-1])
		}
		for _, p := range g.parts {
			if p.mirror == nil {
				continue
			}
			stale := p.state != protocol.MachineOnline
			for _, a := range p.mirror.agents {
				sep()
				if stale && len(a) > 2 {
					out.WriteString(`{"stale":true,`)
					out.Write(a[1:])
				} else {
					out.Write(a)
				}
			}
		}
		for _, m := range g.members {
			var res struct {
				Agents []json.RawMessage `json:"agents"`
			}
			if len(m.Result) == 0 || protocol.Unmarshal(m.Result, &res) != nil {
				continue
			}
			for _, a := range res.Agents {
				sep()
				out.Write(a)
			}
		}
		out.WriteString("]}")
	case "session.snapshot":
		// {"snapshot":{…}} + ,"machines":[…]}
		if len(body) < 2 || body[len(body)-1] != '}' {
			return protocol.Encoded{}, fmt.Errorf("unexpected snapshot encoding")
		}
		out.Grow(len(body) + g.size())
		out.Write(body[:len(body)-1])
		out.WriteString(`,"machines":[`)
		for i, p := range g.parts {
			if i > 0 {
				out.WriteByte(',')
			}
			ref, _ := json.Marshal(p.ref)
			fmt.Fprintf(&out, `{"machine":%s,"state":%q,"stale":%t`, ref, p.state, p.state != protocol.MachineOnline)
			if p.mirror != nil && p.mirror.snapshot != nil {
				out.WriteString(`,"snapshot":`)
				out.Write(p.mirror.snapshot)
			}
			out.WriteByte('}')
		}
		for i, m := range g.members {
			if i > 0 || len(g.parts) > 0 {
				out.WriteByte(',')
			}
			ref, _ := json.Marshal(protocol.MachineRef{ID: m.Name, Label: m.Name})
			state := protocol.MachineOnline
			var res struct {
				Snapshot json.RawMessage `json:"snapshot"`
			}
			if len(m.Result) == 0 || protocol.Unmarshal(m.Result, &res) != nil || len(res.Snapshot) == 0 {
				state = protocol.MachineOffline
			}
			fmt.Fprintf(&out, `{"machine":%s,"fleet_member":true,"state":%q,"stale":%t`, ref, state, state != protocol.MachineOnline)
			if m.Err != "" {
				fmt.Fprintf(&out, `,"error":%q`, m.Err)
			}
			if len(res.Snapshot) > 0 {
				out.WriteString(`,"snapshot":`)
				out.Write(res.Snapshot)
			}
			out.WriteByte('}')
		}
		out.WriteString("]}")
	default:
		return protocol.Encoded{}, fmt.Errorf("%s has no fleet scope", g.call.Method)
	}
	return protocol.Encoded{Type: local.ResultType(), JSON: out.Bytes()}, nil
}

// size is about what the mirrors add.
func (g *gather) size() int {
	n := 0
	for _, p := range g.parts {
		if p.mirror != nil {
			n += len(p.mirror.snapshot) + 64
			for _, a := range p.mirror.agents {
				n += len(a) + 16
			}
		}
	}
	return n
}
