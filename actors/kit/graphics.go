package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// The messages of a pane.graphics.stream between the connection that
// carries it and the pane whose layer it owns.

// GraphicsStream is the result of an accepted pane.graphics.stream: on the
// wire {"type":"ok"}; for the connection, the pane to send frames to and
// the layer they go on.
type GraphicsStream struct {
	protocol.OK
	Pane   *actor.PID `json:"-"`
	Layer  string     `json:"-"`
	ZIndex int32      `json:"-"`
	// FileDir is where the stream's file frames must be ("": none taken).
	FileDir string `json:"-"`
}

// GraphicsFrame is one checked frame of a stream, for the pane; Layer was
// built off every actor's Receive (the connection's reader).
type GraphicsFrame struct {
	Stream *actor.PID
	Layer  *protocol.GraphicsLayer
}

// GraphicsFrameDone tells the stream's connection that the pane took its
// last frame (Err nil) or refused it; the connection then reads the next.
type GraphicsFrameDone struct{ Err error }

// GraphicsStreamEnded tells a stream's connection that its layer is gone
// (the pane closed): the connection writes Err and closes.
type GraphicsStreamEnded struct{ Err error }
