package pane

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The scrolled view: screen.scroll moves the terminal's viewport back into
// its history (emulator/view.go). The frames show the viewport, the facts
// carry its offset (PaneInfo.scroll, pane.scroll_changed), and input sent
// to the pane returns it to the live screen, like tmux leaving copy mode.
// Reads keep reading the live screen.

// scroll answers screen.scroll with the new scroll position.
func (p *Pane) scroll(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.ScreenScrollParams)
	var moved bool
	if prm.Bottom {
		moved = p.term.ResetView()
	} else {
		moved = p.term.ScrollView(prm.Lines)
	}
	if moved {
		p.viewMoved(ctx)
	}
	off, maxOff, rows := p.term.ScrollInfo()
	return kit.Done(protocol.ScreenScrolled{PaneID: req.PaneID, Scroll: protocol.PaneScrollInfo{
		OffsetFromBottom: off, MaxOffsetFromBottom: maxOff, ViewportRows: rows,
	}})
}

// typed returns the view to the live screen before input is sent.
func (p *Pane) typed(ctx actor.Context) {
	if p.term != nil && p.term.ResetView() {
		p.viewMoved(ctx)
	}
}

// viewMoved republishes the facts (the scroll position changed) and sends
// the watchers the rows the viewport now shows.
func (p *Pane) viewMoved(ctx actor.Context) {
	p.publishFacts(ctx)
	p.screenChanged(ctx)
}
