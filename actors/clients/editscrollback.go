package clients

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// SetSession names the session, which opens the panes this actor asks for
// (pane.edit_scrollback's).
type SetSession struct{ PID *actor.PID }

// editScrollback answers pane.edit_scrollback: the session opens, zoomed
// beside the pane, a pane of its own running `herdr pane
// scrollback-editor <pane>` (cli/edit_scrollback.go), which puts the
// pane's whole scrollback in a temporary file, runs $VISUAL or $EDITOR on
// it and closes with the editor. It needs no client: the pane shows
// wherever the session is drawn. The session resolves the pane and
// answers the call (pane_not_found for one that does not exist).
func (c *Clients) editScrollback(ctx actor.Context, call *api.Call) *api.Reply {
	id := call.Params.(*protocol.PaneEditScrollbackParams).PaneID
	if c.session == nil || c.opts.BinPath == "" {
		return api.Fail(protocol.Errorf(protocol.CodeNotSupported, "this server opens no editor panes"))
	}
	env := map[string]string{}
	if c.opts.SocketPath != "" {
		env["HERDR_SOCKET_PATH"] = c.opts.SocketPath
	}
	ctx.RequestWithCustomSender(c.session, &api.OpenPane{Call: call, Where: api.OpenZoomed, PaneID: &id,
		Argv: []string{c.opts.BinPath, "pane", "scrollback-editor", id}, Env: env, Label: "scrollback", Focus: true,
		Answer: func(protocol.PaneInfo) protocol.Result { return protocol.OK{} }}, ctx.Sender())
	return nil
}
