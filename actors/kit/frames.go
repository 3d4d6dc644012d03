package kit

import "github.com/asynkron/protoactor-go/actor"

// Frames carries screen-stream lines from a pane to a connection. Once they
// are written the connection tells From FramesWritten, so a pane has at
// most one batch in flight per connection and coalesces the rest.
type Frames struct {
	Lines [][]byte
	// Joined, when set, is one more line written piece by piece: a
	// screen.graphics line, whose images are shared by every connection
	// and never copied into a line of their own.
	Joined [][]byte
	From   *actor.PID
}

// FramesWritten says the connection Sub wrote the last Frames. Resend says
// instead that the connection did not show them (its surface was off,
// client_shell.surface.set) and wants a full frame now.
type FramesWritten struct {
	Sub    *actor.PID
	Resend bool
	// Post, when set, posts to the connection with its mailbox run on the
	// pane's goroutine if it is idle (the connection's dispatcher): the
	// pane's next frames go that way.
	Post func(send func())
}
