package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// dismiss answers release_notes.dismiss and product_announcement.dismiss
// once the server has recorded them (Options.Dismiss), the connection's
// next request waiting meanwhile, as for a handoff.
// As in Herdr, what is dismissed must be what the server holds: the
// release notes of the Herdr version it speaks (protocol.Version), and no
// product announcement (this server publishes none); anything else is
// refused stale, with nothing recorded.
func (c *conn) dismiss(ctx actor.Context, req *protocol.Request, params protocol.Params) {
	switch p := params.(type) {
	case *protocol.ReleaseNotesDismissParams:
		if p.Version != protocol.Version {
			c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeStaleReleaseNotes, "the release notes are no longer current (this server holds those of %s)", protocol.Version)))
			return
		}
	case *protocol.ProductAnnouncementDismissParams:
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeStaleAnnouncement, "the product announcement is no longer current (this server holds none)")))
		return
	}
	if c.opts.Dismiss == nil {
		c.reply(req.ID, kit.OK())
		return
	}
	c.current = req
	root, self := ctx.ActorSystem().Root, ctx.Self()
	c.opts.Dismiss(params, func(err error) { root.Send(self, &handoffDone{reply: kit.OkOrFail(err)}) })
}
