package pane

import (
	"cmp"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Pane graphics (pane.graphics.*): the pane owns its layers, so they live
// and die with it and change only in its Receive. The images arrive
// checked and encoded (protocol.GraphicsLayer, built by the connection
// that received them), so the pane only files them and tells its screen
// watchers that asked for graphics; the images go out with the next frame
// (screen.go), at most one in flight per watcher, so a client that falls
// behind a stream skips to its newest frame.

// pane.graphics.info also reports what the pane does not know: whether
// it is on screen (the session's published layout) and the cell size of
// the client in front (the clients actor's). The pane fills in its layers
// and hands the answer to the runtime's graphics actor (GraphicsInfo,
// Runtime.SendGraphicsTo: the server's clients actor), which adds the
// rest (GraphicsView.Complete) and answers the caller.

// GraphicsInfo is pane.graphics.info's answer as the pane made it, on its
// way to the runtime's graphics actor, which answers Call's sender.
type GraphicsInfo struct {
	Call   *kit.Call
	TermID string // the pane's terminal, whose visibility the answer reports
	// FileDir is the server's file frame directory ("": file frames are
	// not taken).
	FileDir string
	Info    protocol.PaneGraphicsInfo
}

// CarriedCall implements kit.CallCarrier.
func (m *GraphicsInfo) CarriedCall() *kit.Call { return m.Call }

// GraphicsView is what the graphics actor knows of a GraphicsInfo's pane
// and of the client in front: whether the pane is on screen and the
// client's cell size (0 when it reported none). DirectKitty: the client in
// front is local and its terminal speaks kitty graphics, so info offers
// file frames.
type GraphicsView struct {
	Visible      bool
	CellW, CellH int
	DirectKitty  bool
}

// Complete is m's answer with v's facts.
func (v GraphicsView) Complete(m *GraphicsInfo) protocol.PaneGraphicsInfo {
	res := m.Info
	res.PaneVisible = v.Visible
	if v.CellW > 0 && v.CellH > 0 {
		res.CellWidthPx, res.CellHeightPx, res.CellSizeReported = uint32(v.CellW), uint32(v.CellH), true
	}
	if v.DirectKitty && m.FileDir != "" {
		// File frames are copied onto the layer and drawn as every
		// layer is (the inline fallback), so the direct limit is the
		// inline one; damage metadata is accepted and the whole file
		// read.
		transport, dir, limit := protocol.GraphicsFileTransport, m.FileDir, protocol.GraphicsFrameMaxBytes
		res.FileFrameTransport, res.FileFrameDirectory, res.FileFrameDirectMaxBytes = &transport, &dir, &limit
		res.FileFrameFormats = []string{protocol.GraphicsRGBA, protocol.GraphicsBGRA}
		res.FileFrameDamage = true
	}
	return res
}

// gfxLayer is one layer. Invariant: img is nil only for a stream's layer
// before its first frame (such a layer is not drawn); gen grows with every
// image the layer gets, so a watcher knows which image it was sent.
type gfxLayer struct {
	id    string
	z     int32
	img   *protocol.GraphicsLayer
	gen   uint64
	owner *actor.PID // the connection of the stream that owns the layer, or nil
}

// graphicsState is the pane's layers, in the stable drawing order
// (z_index, layer_id). version grows with every change, so a watcher that
// has seen version v has nothing to learn until it moves.
type graphicsState struct {
	layers  []*gfxLayer
	version uint64
	gens    uint64
}

func (g *graphicsState) find(id string) *gfxLayer {
	for _, l := range g.layers {
		if l.id == id {
			return l
		}
	}
	return nil
}

// add files a new layer in order.
func (g *graphicsState) add(l *gfxLayer) {
	g.layers = append(g.layers, l)
	g.sort()
}

func (g *graphicsState) sort() {
	slices.SortStableFunc(g.layers, func(a, b *gfxLayer) int {
		return cmp.Or(cmp.Compare(a.z, b.z), cmp.Compare(a.id, b.id))
	})
}

func (g *graphicsState) remove(id string) bool {
	n := len(g.layers)
	g.layers = slices.DeleteFunc(g.layers, func(l *gfxLayer) bool { return l.id == id })
	return len(g.layers) != n
}

// setImage gives l a new image.
func (g *graphicsState) setImage(l *gfxLayer, img *protocol.GraphicsLayer) {
	g.gens++
	l.img, l.gen = img, g.gens
	if l.z != img.Meta.ZIndex {
		l.z = img.Meta.ZIndex
		g.sort()
	}
}

// graphicsChanged records a change and tells the watchers.
func (p *Pane) graphicsChanged(ctx actor.Context) {
	p.more().gfx.version++
	if len(p.screenSubs()) == 0 {
		return
	}
	for _, s := range p.screen.subs {
		if s.graphics {
			s.stale = true
		}
	}
	p.scheduleFrames(ctx)
}

// checkPlacement refuses a placement that misses the viewport of term
// entirely; one that reaches past an edge is clipped by the client.
func checkPlacement(term *emulator.Terminal, pl protocol.PaneGraphicsPlacement) error {
	cols, rows := term.Size()
	w, h := int64(max(pl.GridCols, 1)), int64(max(pl.GridRows, 1))
	c, r := int64(pl.ViewportCol), int64(pl.ViewportRow)
	if c >= int64(cols) || r >= int64(rows) || c+w <= 0 || r+h <= 0 {
		return protocol.ParamError("placement", "cells (%d,%d) spanning %d×%d lie outside the pane's %d×%d viewport", c, r, w, h, cols, rows)
	}
	return nil
}

// The handlers of pane.graphics.*: each reports whether the layers
// changed, so the pane tells its watchers (graphicsHandler).

// graphicsHandler makes a pane method of a graphics handler.
func graphicsHandler(h func(g *graphicsState, ctx actor.Context, req *Request, term *emulator.Terminal) (*kit.Reply, bool)) handler {
	return func(p *Pane, ctx actor.Context, req *Request) *kit.Reply {
		reply, changed := h(&p.more().gfx, ctx, req, p.term)
		if changed {
			p.graphicsChanged(ctx)
		}
		return reply
	}
}

func (g *graphicsState) set(_ actor.Context, req *Request, term *emulator.Terminal) (*kit.Reply, bool) {
	img := req.Call.Params.(*protocol.PaneGraphicsSetParams).Layer
	if err := checkPlacement(term, img.Meta.Placement); err != nil {
		return kit.Fail(err), false
	}
	l := g.find(img.Meta.LayerID)
	switch {
	case l != nil && l.owner != nil:
		return kit.Fail(protocol.Errorf(protocol.CodeStreamConflict, "layer %q is owned by a pane.graphics.stream", l.id)), false
	case l == nil && len(g.layers) >= protocol.GraphicsMaxLayers:
		return kit.Fail(protocol.Errorf(protocol.CodeGraphicsLayerLimit, "pane has %d layers, the most it holds; clear one first", protocol.GraphicsMaxLayers)), false
	case l == nil:
		l = &gfxLayer{id: img.Meta.LayerID, z: img.Meta.ZIndex}
		g.add(l)
	}
	g.setImage(l, img)
	return kit.OK(), true
}

func (g *graphicsState) clear(_ actor.Context, req *Request, _ *emulator.Terminal) (*kit.Reply, bool) {
	id := req.Call.Params.(*protocol.PaneGraphicsClearParams).Layer()
	l := g.find(id)
	if l == nil {
		return kit.OK(), false // nothing there: already clear
	}
	if l.owner != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeStreamConflict, "layer %q is owned by a pane.graphics.stream; close the stream to clear it", id)), false
	}
	g.remove(id)
	return kit.OK(), true
}

// graphicsInfo answers pane.graphics.info's layers and limits, through
// the runtime's graphics actor when there is one (GraphicsInfo).
func (p *Pane) graphicsInfo(ctx actor.Context, req *Request) *kit.Reply {
	res := p.more().gfx.info()
	to, dir := p.rt.graphicsActor()
	if to == nil { // no one knows the client: the defaults
		return kit.Done(res)
	}
	ctx.RequestWithCustomSender(to, &GraphicsInfo{Call: req.Call, TermID: p.spec.TerminalID, FileDir: dir, Info: res}, ctx.Sender())
	return nil
}

// info is pane.graphics.info's answer as the pane knows it: the default
// cell size, the limits and the layers.
func (g *graphicsState) info() protocol.PaneGraphicsInfo {
	res := protocol.PaneGraphicsInfo{
		CellWidthPx: protocol.DefaultCellWidthPx, CellHeightPx: protocol.DefaultCellHeightPx,
		MaxLayers: protocol.GraphicsMaxLayers, MaxLayersPerPane: protocol.GraphicsMaxLayers,
		SetMaxBase64Bytes: protocol.GraphicsSetMaxBase64,
		FileFrameMaxBytes: protocol.GraphicsFrameMaxBytes, Revision: g.version, Layers: []protocol.GraphicsLayerInfo{},
	}
	for _, l := range g.layers {
		info := protocol.GraphicsLayerInfo{Streamed: l.owner != nil, Empty: l.img == nil}
		if l.img != nil {
			info.GraphicsLayerMeta = l.img.Meta
		} else {
			info.LayerID, info.ZIndex = l.id, l.z
		}
		res.Layers = append(res.Layers, info)
	}
	return res
}

// graphicsStream makes the calling connection the owner of its layer: a
// new layer (drawn from its first frame on), or one pane.graphics.set
// made, whose image stays until the first frame replaces it. The
// connection takes file frames from the runtime's directory.
func (p *Pane) graphicsStream(ctx actor.Context, req *Request) *kit.Reply {
	_, dir := p.rt.graphicsActor()
	return p.more().gfx.stream(ctx, req, dir)
}

func (g *graphicsState) stream(ctx actor.Context, req *Request, fileDir string) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneGraphicsStreamParams)
	id, z := prm.Layer(), prm.Z()
	conn := ctx.Sender()
	if conn == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInvalidStream, "pane.graphics.stream needs a connection"))
	}
	l := g.find(id)
	switch {
	case l != nil && l.owner != nil:
		return kit.Fail(protocol.Errorf(protocol.CodeStreamConflict, "layer %q already has a stream", id))
	case l == nil && len(g.layers) >= protocol.GraphicsMaxLayers:
		return kit.Fail(protocol.Errorf(protocol.CodeGraphicsLayerLimit, "pane has %d layers, the most it holds; clear one first", protocol.GraphicsMaxLayers))
	case l == nil:
		l = &gfxLayer{id: id, z: z}
		g.add(l)
	}
	l.owner = conn
	ctx.Watch(conn) // its end removes the layer (actor.Terminated)
	return kit.Done(kit.GraphicsStream{Pane: ctx.Self(), Layer: id, ZIndex: z, FileDir: fileDir})
}

// frame applies one frame of a stream and reports whether it did.
func (g *graphicsState) frame(ctx actor.Context, f *kit.GraphicsFrame, term *emulator.Terminal) bool {
	var l *gfxLayer
	for _, c := range g.layers {
		if c.owner != nil && c.owner.Equal(f.Stream) {
			l = c
		}
	}
	var err error
	switch {
	case l == nil:
		err = protocol.Errorf(protocol.CodeStreamClosed, "the stream's layer is gone")
	default:
		if err = checkPlacement(term, f.Layer.Meta.Placement); err != nil {
			err = protocol.Errorf(protocol.CodeInvalidFrame, "frame: %s", protocol.AsError(err).Message)
		}
	}
	if err == nil {
		g.setImage(l, f.Layer)
	}
	ctx.Send(f.Stream, &kit.GraphicsFrameDone{Err: err})
	return err == nil
}

// dropStream removes the layer of a stream whose connection ended, and
// reports whether there was one.
func (g *graphicsState) dropStream(who *actor.PID) bool {
	for _, l := range g.layers {
		if l.owner != nil && l.owner.Equal(who) {
			g.remove(l.id)
			return true
		}
	}
	return false
}

// endStreams tells every stream's connection that the pane is closing.
func (g *graphicsState) endStreams(ctx actor.Context) {
	for _, l := range g.layers {
		if l.owner != nil {
			ctx.Send(l.owner, &kit.GraphicsStreamEnded{Err: protocol.Errorf(protocol.CodeStreamClosed, "the pane closed")})
		}
	}
}

// pieces is the screen.graphics line of terminal termID for s, as pieces
// (see kit.Frames.Joined), the program's own layers k after the API's, or
// nil when s has seen the current layers. Images s was already sent
// travel without their data.
func (g *graphicsState) pieces(s *screenSub, termID string, k *kittyLayers, term *emulator.Terminal) [][]byte {
	if !s.graphics || s.gfxVersion == g.version {
		return nil
	}
	if s.gfxSent == nil {
		s.gfxSent = map[string]uint64{}
	}
	s.gfxSeq++
	pieces := [][]byte{protocol.GraphicsLinePrefix(s.paneID, termID, s.gfxSeq)}
	seen := make(map[string]uint64, len(g.layers)+len(k.layers))
	n := 0
	for _, l := range g.layers {
		if l.img == nil {
			continue
		}
		if n > 0 {
			pieces = append(pieces, comma)
		}
		n++
		if s.gfxSent[l.id] == l.gen {
			pieces = append(pieces, l.img.Bare)
		} else {
			pieces = append(pieces, l.img.WithData)
		}
		seen[l.id] = l.gen
	}
	pieces = k.pieces(term, pieces, n, s, seen)
	s.gfxSent, s.gfxVersion = seen, g.version
	return append(pieces, protocol.GraphicsLineSuffix)
}

var comma = []byte{','}
