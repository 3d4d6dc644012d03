package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Pane graphics: the session gates the methods ([terminal]
// kitty_graphics, read when the server starts: a reload does not change
// it) and forwards them to the pane, which owns the layers
// (actors/pane/graphics.go); pane.graphics.info also carries what only
// the session knows, whether the pane is on screen and the client's cell
// size.

// gateOpen reports whether the config switch a method's entry names is on.
func (s *Session) gateOpen(gate string) bool {
	switch gate {
	case "":
		return true
	case protocol.GateKittyGraphics:
		return s.opts.Config.Terminal.KittyGraphics
	}
	return false
}

// gateClosed is the answer to a method whose switch is off.
func gateClosed(method, gate string) *kit.Reply {
	return kit.Fail(protocol.Errorf(protocol.CodeFeatureDisabled, "%s is disabled: set [terminal] %s = true and restart the server", method, gate))
}

// graphicsInfo forwards a graphics method (route: forwardPaneMethod)
// with the pane's visibility (its workspace and tab are in front and no
// zoom hides it; brief modes of the client do not count) and the
// client's cell size, which pane.graphics.info reports.
func (s *Session) graphicsInfo(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	t := p.Tab
	visible := s.m.TabFocused(t) && (!t.Zoomed || t.Focused == p.TermID)
	view := &pane.GraphicsView{Visible: visible, CellW: s.client.cellW, CellH: s.client.cellH,
		FileDir: s.opts.GraphicsFileDir, DirectKitty: s.client.directKitty}
	ctx.RequestWithCustomSender(p.pid, &pane.Request{Call: call, PaneID: p.ID, WorkspaceID: p.WS.ID, TabID: p.Tab.ID, Graphics: view}, ctx.Sender())
	return nil
}
