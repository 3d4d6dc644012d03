package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A connection's surface interest (client_shell.surface.set, protocol
// 22) is its own state, so the connection owns it: a multi-machine client
// says whether it is showing this server, and while it is not, the screen
// frames its panes send are held back instead of written. A held frame is
// not acknowledged, so its pane computes nothing more for the connection
// meanwhile. Turning the surface on again acknowledges every pane that
// streamed here with Resend, and each answers at once with a full frame.
// A connection starts active: a protocol-20 client sees no change.

// surface is the connection's side of it.
type surface struct {
	hidden   bool
	revision uint64 // the projection revision: one per change of hidden
	// streams are the panes that sent frames here, by pane actor id, with
	// the identity the frames were addressed to (what the pane knows the
	// connection by). Reset at each re-activation: the full frames that
	// follow fill it again with the panes still streaming.
	streams map[string]frameSource
}

type frameSource struct{ pane, sub *actor.PID }

// held records a pane that streams frames here and reports whether its
// frames are to be held back (the surface is off).
func (c *conn) held(pane, sub *actor.PID) bool {
	if known, ok := c.surface.streams[pane.Id]; !ok || !known.sub.Equal(sub) { // a map read per frame, no allocation
		if c.surface.streams == nil {
			c.surface.streams = map[string]frameSource{}
		}
		c.surface.streams[pane.Id] = frameSource{pane: pane, sub: sub}
	}
	return c.surface.hidden
}

func (c *conn) surfaceSet(ctx actor.Context, req *protocol.Request, params protocol.Params) {
	// As in Herdr, only a client shell has a surface: here, a connection
	// that watches screens (screen.subscribe). A plain API connection
	// shows nothing, so it is refused rather than told ok.
	if !c.watching {
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeConnectionLocalOnly,
			"client_shell.surface.set is only available to a client shell connection (one that has called screen.subscribe)")))
		return
	}
	active := *params.(*protocol.ClientShellSurfaceSetParams).Active
	if active == c.surface.hidden {
		c.surface.hidden = !active
		c.surface.revision++
		if active {
			for _, s := range c.surface.streams {
				ctx.Send(s.pane, &kit.FramesWritten{Sub: s.sub, Resend: true})
			}
			c.surface.streams = nil
		}
	}
	c.reply(req.ID, kit.Done(protocol.ClientShellSurfaceSet{Active: active, ProjectionRevision: c.surface.revision}))
}
