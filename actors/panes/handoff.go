package panes

import "github.com/asynkron/protoactor-go/actor"

// List asks for the pane actors there are, for a live handoff, which
// freezes each: the answer is a *Listed. Asked after the session's
// export, it holds every pane of that topology (the session tells the
// Started of a pane before it answers anything after it).
type List struct{}

// Listed is the answer to List.
type Listed struct {
	PIDs []*actor.PID
}

// list answers List.
func (s *Supervisor) list(ctx actor.Context) {
	out := &Listed{PIDs: make([]*actor.PID, 0, len(s.live))}
	for _, pid := range s.live {
		out.PIDs = append(out.PIDs, pid)
	}
	ctx.Respond(out)
}
