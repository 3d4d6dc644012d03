package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// server.ssh_agent.register (Herdr 0.9.2): a client lends the server its
// ssh agent socket for as long as the connection stays open, so the
// server's own ssh sessions (saved machines' links) authenticate as the
// person at the client. As in Herdr the connection is then held: it
// takes no further request, and a line sent on it (like its close) ends
// the loan and the connection. The newest loan still open is the one
// used (saved.SSHAgents).

// agentChecked carries the socket check, made off the mailbox, back.
type agentChecked struct {
	req  *protocol.Request
	path string
	err  *protocol.Error
}

func (c *conn) sshAgentRegister(ctx actor.Context, req *protocol.Request, params protocol.Params) {
	if c.opts.Agents == nil {
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeSSHAgentUnavailable, "ssh agent registration is unavailable on this server")))
		return
	}
	path := *params.(*protocol.ServerSSHAgentRegisterParams).SocketPath
	c.current = req
	root, self := ctx.ActorSystem().Root, ctx.Self()
	go func() { root.Send(self, &agentChecked{req: req, path: path, err: saved.CheckAgentSocket(path)}) }()
}

// agentLent answers the registration once its socket was checked.
func (c *conn) agentLent(ctx actor.Context, msg *agentChecked) {
	if c.current != msg.req {
		return // the request was answered otherwise (the connection hung up)
	}
	id := c.current.ID
	c.current = nil
	if msg.err != nil {
		c.opts.Log.Warn("ssh agent registration refused", "code", msg.err.Code, "err", msg.err.Message)
		c.reply(id, kit.Fail(msg.err))
		c.pump(ctx)
		return
	}
	if c.giveBackAgent != nil {
		c.giveBackAgent() // a second loan on one connection replaces its first
	}
	c.giveBackAgent = c.opts.Agents.Lend(msg.path)
	c.reply(id, kit.OK())
	c.pump(ctx)
}
