package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// editRoutes answer pane.edit_scrollback (prefix e in the client): a
// zoomed pane of its own beside the pane (an overlay of the focused pane,
// which gets the focus and its tab's zoom back when it goes), running `herdr pane
// scrollback-editor <pane>` (cli/edit_scrollback.go), which reads the
// pane's whole scrollback, writes it to a private temporary file, runs
// $VISUAL or $EDITOR on it and ends with the editor, closing its pane. It
// needs no client attached, as in Herdr 0.9.
var editRoutes = map[string]paneHandler{
	"pane.edit_scrollback": (*Session).editScrollback,
}

func (s *Session) editScrollback(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	if s.opts.BinPath == "" {
		return kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "this server does not know its own program, so it cannot run the scrollback editor"))
	}
	id, where := p.ID, kit.OpenZoomed
	if p == s.focusedPane() {
		where = kit.OpenOverlay
	}
	return s.openPane(ctx, &kit.OpenPane{Call: call, Where: where, PaneID: &id,
		Argv: []string{s.opts.BinPath, "pane", "scrollback-editor", id}, Label: "scrollback", Focus: true,
		Answer: func(protocol.PaneInfo) protocol.Result { return protocol.OK{} }})
}
