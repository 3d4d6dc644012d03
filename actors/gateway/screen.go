package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// frames writes a pane's screen frames between the connection's answers
// (a screen.subscribe connection keeps taking requests) and acknowledges
// them to the pane once flushed.
func (c *conn) frames(ctx actor.Context, f *kit.Frames) {
	// The pane knows the connection by the identity its screen.subscribe
	// went out with (kit.InFlight).
	root, self, from := ctx.ActorSystem().Root, kit.Addressee(ctx), f.From
	if c.held(from, self) {
		return // not shown (client_shell.surface.set): not acknowledged either (surface.go)
	}
	// A pane that knows the connection by its own identity may post its
	// next frames with this mailbox run on the pane's goroutine.
	var post func(func())
	if c.disp != nil && self.Equal(ctx.Self()) {
		post = c.disp.post
	}
	c.enqueue(outItem{lines: f.Lines, joined: f.Joined, after: func() { root.Send(from, &kit.FramesWritten{Sub: self, Post: post}) }, inlineAfter: true})
}
