package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// dismiss answers release_notes.dismiss and product_announcement.dismiss
// once the server has recorded them (Options.Dismiss), the connection's
// next request waiting meanwhile, as for a handoff.
func (c *conn) dismiss(ctx actor.Context, req *protocol.Request, params protocol.Params) {
	if c.opts.Dismiss == nil {
		c.reply(req.ID, kit.OK())
		return
	}
	c.current = req
	root, self := ctx.ActorSystem().Root, ctx.Self()
	c.opts.Dismiss(params, func(err error) { root.Send(self, &handoffDone{reply: kit.OkOrFail(err)}) })
}
