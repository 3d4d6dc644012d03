package clients

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// client.resize and pane.graphics.info: the client that resized last is the one in front (it
// gets toasts, window titles and the popup), and its frame geometry is
// kept here: the pixel size of its cells and whether its terminal, on
// this machine, speaks kitty graphics. The tab area it reports is a
// topology change, so the session gets it (kit.SetArea) and answers the
// client once every tab is laid out in it. A pane's answer to
// pane.graphics.info comes through here (pane.GraphicsInfo) to get the
// cell size and whether the pane is on screen.

// geometry is what the client in front reported with client.resize.
type geometry struct {
	// cellW and cellH are the pixel size of a cell (0: unknown).
	cellW, cellH int
	// directKitty: the client is local and its terminal speaks kitty
	// graphics, so pane.graphics.info offers file frames.
	directKitty bool
}

func (c *Clients) clientResize(ctx actor.Context, call *kit.Call) *kit.Reply {
	if c.session == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: the clients actor has no session", call.Method))
	}
	prm := call.Params.(*protocol.ClientResizeParams)
	to := ctx.Sender()
	c.foreground(ctx, &Foreground{PID: to, Cols: prm.Cols, Rows: prm.Rows})
	c.geo = geometry{cellW: prm.CellWidthPx, cellH: prm.CellHeightPx, directKitty: prm.KittyGraphicsLocal}
	ctx.RequestWithCustomSender(c.session, &kit.SetArea{Call: call, Cols: prm.Cols, Rows: prm.Rows}, to)
	return nil
}

// graphicsInfo completes a pane's pane.graphics.info answer with what the
// pane does not know: whether it is on screen (the session's newest View,
// which shows every change the session made before it forwarded the call)
// and the cell size of the client in front.
func (c *Clients) graphicsInfo(ctx actor.Context, m *pane.GraphicsInfo) {
	v := pane.GraphicsView{CellW: c.geo.cellW, CellH: c.geo.cellH, DirectKitty: c.geo.directKitty}
	if c.opts.Reads != nil {
		if view := c.opts.Reads.Newest(); view != nil {
			v.Visible = view.Visible(m.TermID)
		}
	}
	ctx.Respond(kit.Done(v.Complete(m)))
}
