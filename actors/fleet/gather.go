package fleet

import (
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/herdr-go/herdr/protocol"
)

// Gather asks every other online member for its answer to Method (agent.list
// or session.snapshot, unscoped), so a fleet-scoped answer covers the NATS
// members as it covers the saved machines (one id space). The machines
// actor's gather child sends it; the answer is a *Gathered.
type Gather struct{ Method string }

// MemberPart is one member's share of a fleet answer: its result object
// with every id qualified by its name (JSON, without "type"), or why not.
type MemberPart struct {
	Name   string
	State  string // protocol.FleetMemberOnline, or offline when it did not answer
	Result json.RawMessage
	Err    string
}

// Gathered answers a Gather, the members by name.
type Gathered struct{ Parts []MemberPart }

// gatherTimeout bounds how long a fleet-scoped list waits for members: a
// slow member is left out (its part says why), not the whole answer.
const gatherTimeout = 5 * time.Second

// gather asks the members on goroutines, one request each, and answers
// the sender when all have answered or timed out.
func (f *Fleet) gather(ctx actor.Context, g *Gather) {
	var names []string
	for name, m := range f.members {
		if name != f.opts.Config.Name && time.Since(m.contact) <= f.opts.PresenceTTL {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	sender, root := ctx.Sender(), ctx.ActorSystem().Root
	if sender == nil {
		return
	}
	if len(names) == 0 || f.nc == nil || !f.nc.IsConnected() {
		root.Send(sender, &Gathered{})
		return
	}
	nc, from := f.nc, f.opts.Config.Name
	go func() { root.Send(sender, gatherFrom(nc, from, names, g.Method)) }()
}

// gatherFrom runs on a goroutine: one request per member, at once.
func gatherFrom(nc *nats.Conn, from string, names []string, method string) *Gathered {
	out := &Gathered{Parts: make([]MemberPart, len(names))}
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := MemberPart{Name: name, State: protocol.FleetMemberOnline}
			r := requestWithin(nc, from, name, &protocol.Forwarded{Machine: name, Raw: json.RawMessage(`{}`)}, method, gatherTimeout)
			if r.Err != nil {
				p.State, p.Err = protocol.FleetMemberOffline, r.Err.Error()
			} else if enc, ok := r.Result.(protocol.Encoded); ok {
				p.Result = enc.JSON
			}
			out.Parts[i] = p
		}()
	}
	wg.Wait()
	return out
}
