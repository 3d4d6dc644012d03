package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A pane.graphics.stream turns the connection into a stream of frames: a
// JSON header line (protocol.GraphicsFrameHeader), then exactly
// data_length raw bytes, over and over. The reader goroutine, which alone
// reads the socket, stops after the stream's request line until the
// actor says whether the pane took the stream; then it reads, checks and
// encodes each frame itself (no actor's Receive touches the pixels) and
// reads the next only once the pane has applied this one, so a stream
// holds at most one frame in memory beyond the layer's own.
//
// A frame the pane refuses, or whose data does not match its header, is
// answered with an error line carrying the stream's request id and
// skipped: the layer keeps its last image and the stream goes on. A header
// that is not JSON, or whose data_length is refused, cannot be skipped
// past: its error line ends the stream. Closing the stream removes its
// layer (the pane watches the connection).
//
// A file frame (protocol 22: a header with file.path instead of
// data_length) is read from that file, which must be a private regular
// file of ours in the folder pane.graphics.info offers, and put on the
// layer as every frame is (the inline copy; the terminal is never handed
// the file itself); once the pane took it, the stream gets a
// pane_graphics_frame_ack with the header's sequence and revision, after
// which the producer may reuse the file. The ack, and the refusal of a
// file frame (which ends the stream), carry the id
// "<stream request id>:file:<sequence>", as Herdr's do.

// framesMethods names the methods of shape frames, for the reader's
// quick look at a line before it decodes one.
var framesMethods = sync.OnceValue(func() [][]byte {
	var out [][]byte
	for _, m := range protocol.Methods() {
		if m.Shape == protocol.ShapeFrames {
			out = append(out, []byte(m.Name))
		}
	}
	return out
})

// frameMsg is one frame read by the reader, or why it was refused (fatal:
// the stream cannot go on).
type frameMsg struct {
	layer *protocol.GraphicsLayer
	ack   *protocol.PaneGraphicsFrameAck // a file frame's, written once the pane took it
	// file is a file frame's answer id suffix (":file:<sequence>").
	file  string
	err   error
	fatal bool
}

// isGraphicsStream reports whether a request line opens a graphics
// stream, as the actor will decode it.
func isGraphicsStream(line []byte) bool {
	for _, name := range framesMethods() {
		if bytes.Contains(line, name) {
			req, err := protocol.DecodeRequest(line)
			if err != nil {
				return false
			}
			m, _ := protocol.Lookup(req.Method)
			return m.Shape == protocol.ShapeFrames
		}
	}
	return false
}

// streamVerdict tells the waiting reader whether the stream was accepted
// (nil: refused, go on reading requests).
func (c *conn) streamVerdict(st *kit.GraphicsStream) {
	select {
	case c.gfxVerdict <- st:
	default:
	}
}

// startGraphicsStream switches to the stream after the pane accepted it.
func (c *conn) startGraphicsStream(ctx actor.Context, id string, st kit.GraphicsStream) {
	c.idle.stop() // a stream may pause as long as its producer likes
	c.streamID, c.gfxStream, c.gfxAs = id, &st, kit.Addressee(ctx)
	c.queue = nil
	c.behavior.Become(c.graphicsStreaming)
	c.streamVerdict(&st)
}

// graphicsStreaming is the behaviour of an accepted pane.graphics.stream.
func (c *conn) graphicsStreaming(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *frameMsg:
		switch {
		case msg.layer != nil:
			c.gfxAck, c.gfxAckID = msg.ack, c.streamID+msg.file
			ctx.Send(c.gfxStream.Pane, &kit.GraphicsFrame{Stream: c.gfxAs, Layer: msg.layer})
		case msg.fatal && msg.file != "":
			c.write(protocol.EncodeError(c.streamID+msg.file, msg.err), nil)
			ctx.Stop(ctx.Self())
		case msg.fatal:
			c.endStream(ctx, msg.err)
		default:
			c.write(protocol.EncodeError(c.streamID, msg.err), nil)
			c.nextFrame()
		}
	case *kit.GraphicsFrameDone:
		ack := c.gfxAck
		c.gfxAck = nil
		switch {
		case msg.Err != nil && ack != nil:
			c.write(protocol.EncodeError(c.gfxAckID, msg.Err), nil)
			ctx.Stop(ctx.Self())
			return
		case msg.Err != nil:
			c.write(protocol.EncodeError(c.streamID, msg.Err), nil)
		case ack != nil:
			line, err := protocol.EncodeSuccess(c.gfxAckID, *ack)
			if err != nil {
				c.endStream(ctx, err)
				return
			}
			c.write(line, nil)
		}
		c.nextFrame()
	case *kit.GraphicsStreamEnded:
		c.endStream(ctx, msg.Err)
	case *eofMsg:
		ctx.Stop(ctx.Self()) // the pane watches the connection and drops the layer
	case *lineMsg:
	default:
		c.either(ctx)
	}
}

// nextFrame lets the reader read the next frame.
func (c *conn) nextFrame() {
	select {
	case c.frameSlot <- struct{}{}:
	default:
	}
}

// readFrames is the reader after the stream was accepted.
func (c *conn) readFrames(root *actor.RootContext, self *actor.PID, r *bufio.Reader, st *kit.GraphicsStream) {
	send := func(m *frameMsg) bool {
		root.Send(self, m)
		if m.fatal {
			return false
		}
		select {
		case <-c.frameSlot:
			return true
		case <-c.done:
			return false
		}
	}
	for {
		line, err := readLine(r)
		if errors.Is(err, errLineTooLong) {
			send(&frameMsg{err: protocol.Errorf(protocol.CodeInvalidFrame, "frame header exceeds %d bytes", protocol.MaxLineBytes), fatal: true})
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				root.Send(self, &eofMsg{gone: peerGone(c.c)})
				return
			}
			continue // blank lines between frames are allowed
		}
		h, herr := protocol.DecodeGraphicsFrameHeader(line)
		if herr != nil {
			send(&frameMsg{err: herr, fatal: true})
			return
		}
		var data []byte
		var ack *protocol.PaneGraphicsFrameAck
		var file string
		if h.File != nil {
			file = ":file:" + strconv.FormatUint(h.Sequence, 10)
			var ferr error
			if data, ferr = protocol.ReadGraphicsFrameFile(st.FileDir, h.File.Path, h.FileLength()); ferr == nil {
				ferr = h.CheckFrame(data)
			}
			if ferr != nil {
				send(&frameMsg{err: ferr, file: file, fatal: true})
				return
			}
			ack = &protocol.PaneGraphicsFrameAck{Sequence: h.Sequence, Revision: h.Revision}
		} else {
			data = make([]byte, h.DataLength)
			if _, err := io.ReadFull(r, data); err != nil {
				root.Send(self, &eofMsg{gone: peerGone(c.c)}) // a frame cut short: the stream is over
				return
			}
			if cerr := h.CheckFrame(data); cerr != nil {
				if !send(&frameMsg{err: cerr}) {
					return
				}
				continue
			}
		}
		format := h.Format
		if format == protocol.GraphicsBGRA {
			protocol.BGRAToRGBA(data)
			format = protocol.GraphicsRGBA
		}
		meta := protocol.GraphicsLayerMeta{LayerID: st.Layer, ZIndex: st.ZIndex, Format: format, ImageWidth: h.ImageWidth, ImageHeight: h.ImageHeight}
		if h.Placement != nil {
			meta.Placement = *h.Placement
		}
		layer := protocol.NewGraphicsLayerRaw(meta, data)
		data = nil
		if !send(&frameMsg{layer: layer, ack: ack, file: file}) {
			return
		}
	}
}
