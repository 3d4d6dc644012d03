package gateway

import (
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Routing: a connection answers the methods the table gives the gateway
// itself (Registry), routes the session's reads and the calls whose
// target the session's ids name from the session's read side
// (paneroute.go), sends the session's writes to the session, and the rest
// to their owner's actor (Options.Owners).

// Registry holds the methods a connection answers itself.
var Registry = kit.NewRegistry(protocol.OwnerGateway, "actors/gateway", map[string]func(c *conn, ctx actor.Context, req *protocol.Request, params protocol.Params){
	"ping":                         (*conn).ping,
	"server.stop":                  (*conn).serverStop,
	"server.live_handoff":          (*conn).serverLiveHandoff,
	"server.ssh_agent.register":    (*conn).sshAgentRegister,
	"client_shell.surface.set":     (*conn).surfaceSet,
	"release_notes.dismiss":        (*conn).dismiss,
	"product_announcement.dismiss": (*conn).dismiss,
	"connection.policy":            (*conn).connectionPolicy,
})

func (c *conn) ping(_ actor.Context, req *protocol.Request, _ protocol.Params) {
	c.reply(req.ID, kit.Done(pongs()[c.opts.Handoff != nil]))
}

func (c *conn) serverStop(_ actor.Context, req *protocol.Request, _ protocol.Params) {
	line, _ := protocol.EncodeSuccess(req.ID, protocol.OK{})
	c.auditAnswer(req.ID, kit.Done(protocol.OK{}))
	c.write(line, c.opts.Stop)
	c.closing = true
}

func (c *conn) serverLiveHandoff(ctx actor.Context, req *protocol.Request, params protocol.Params) {
	c.startHandoff(ctx, req, params)
}

// ownerPID is the actor a call of m with params goes to; nil when none is
// known (Options.Check refuses that at start-up). Calls for another
// machine and fleet-scoped ones go to the machines actor.
func (o *Options) ownerPID(m protocol.Method, params protocol.Params) *actor.PID {
	if protocol.ToMachines(params) {
		return o.Owners[protocol.OwnerMachines]
	}
	if m.Owner.ThroughSession() {
		return o.Session
	}
	return o.Owners[m.Owner]
}

// Check reports what the options cannot route: an owner of a method in
// the table with no actor given, or an actor given for an owner the
// gateway does not send calls to. The server runs it before it starts
// the gateway.
func (o *Options) Check() error { return o.checkAgainst(protocol.Methods()) }

func (o *Options) checkAgainst(table []protocol.Method) error {
	var errs []error
	if o.Session == nil {
		errs = append(errs, errors.New("gateway: no session actor given"))
	}
	for owner := range o.Owners {
		if owner == protocol.OwnerGateway || owner.ThroughSession() || o.Owners[owner] == nil {
			errs = append(errs, fmt.Errorf("gateway: an actor is given for owner %s, which the gateway does not send calls to", owner))
		}
	}
	missing := map[protocol.Owner]bool{}
	for _, m := range table {
		if m.Owner == protocol.OwnerGateway || m.Owner.ThroughSession() || missing[m.Owner] {
			continue
		}
		if o.Owners[m.Owner] == nil {
			missing[m.Owner] = true
			errs = append(errs, fmt.Errorf("gateway: method %s: the method table (protocol) gives it to %s, and no actor is given for that owner (gateway.Options.Owners)", m.Name, m.Owner))
		}
	}
	return errors.Join(errs...)
}
