package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
)

// frames writes a pane's screen frames between the connection's answers
// (a screen.subscribe connection keeps taking requests) and acknowledges
// them to the pane once flushed.
func (c *conn) frames(ctx actor.Context, f *api.Frames) {
	root, self, from := ctx.ActorSystem().Root, ctx.Self(), f.From
	c.enqueue(outItem{lines: f.Lines, joined: f.Joined, after: func() { root.Send(from, &api.FramesWritten{Sub: self}) }, inlineAfter: true})
}
