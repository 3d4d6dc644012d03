package clients

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The calls the clients actor answers about the session's panes
// (pane.edit_scrollback, screen.subscribe): it resolves their ids from the
// session's published read side (Options.Reads), never entering the
// session's mailbox, and asks the session only for the topology change a
// call needs (kit.OpenPane), which the session answers the caller with.

// Peers tells the clients actor the session, the plugins actor and the
// keeper, which are started after it.
type Peers struct {
	Session, Plugins, Keeper *actor.PID
}

// caughtUp runs a call held until the read side showed every message the
// session was sent before it came.
type caughtUp struct {
	call *kit.Call
	to   *actor.PID
	run  func(c *Clients, ctx actor.Context, v *view.View, call *kit.Call, to *actor.PID) *kit.Reply
}

// withView runs run with the newest View once it shows every change the
// session was sent before the call came (a write answered before it,
// and what such a write told the session after: a workspace's new label,
// a pane's facts), answering the caller with what run returns (nil: run
// answers, or someone it asked does).
func (c *Clients) withView(ctx actor.Context, call *kit.Call, run func(c *Clients, ctx actor.Context, v *view.View, call *kit.Call, to *actor.PID) *kit.Reply) *kit.Reply {
	if c.opts.Reads == nil || c.session == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: the clients actor has no session", call.Method))
	}
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if c.opts.Reads.AfterCaughtUp(func() { root.Send(self, &caughtUp{call: call, to: to, run: run}) }) {
		return run(c, ctx, c.opts.Reads.Newest(), call, to)
	}
	return nil
}

// caughtUpRun runs a held call (withView).
func (c *Clients) caughtUpRun(ctx actor.Context, m *caughtUp) {
	if reply := m.run(c, ctx, c.opts.Reads.Newest(), m.call, m.to); reply != nil {
		ctx.Send(m.to, reply)
	}
}

// pane.edit_scrollback (prefix e in the client): a zoomed pane of its own
// beside the pane (an overlay of the focused pane, which gets the focus
// and its tab's zoom back when it goes), running `herdr pane
// scrollback-editor <pane>` (cli/edit_scrollback.go), which reads the
// pane's whole scrollback, writes it to a private temporary file, runs
// $VISUAL or $EDITOR on it and ends with the editor, closing its pane. It
// needs no client attached, as in Herdr 0.9.
func (c *Clients) editScrollback(ctx actor.Context, call *kit.Call) *kit.Reply {
	if c.opts.BinPath == "" {
		return kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "this server does not know its own program, so it cannot run the scrollback editor"))
	}
	return c.withView(ctx, call, (*Clients).openScrollbackEditor)
}

func (c *Clients) openScrollbackEditor(ctx actor.Context, v *view.View, call *kit.Call, to *actor.PID) *kit.Reply {
	i, err := v.ResolvePane(call.Params.(*protocol.PaneEditScrollbackParams).PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	id, where := v.Rec(i).Info.PaneID, kit.OpenZoomed
	if i == v.FocusedPane {
		where = kit.OpenOverlay
	}
	ctx.RequestWithCustomSender(c.session, &kit.OpenPane{Call: call, Where: where, PaneID: &id,
		Argv: []string{c.opts.BinPath, "pane", "scrollback-editor", id}, Label: "scrollback", Focus: true,
		Answer: func(protocol.PaneInfo) protocol.Result { return protocol.OK{} }}, to)
	return nil
}

// screen.subscribe replaces the set of panes the calling connection
// streams: every pane the read side shows is told whether the connection
// watches it (the panes send the frames themselves), so no record of the
// connection is kept here and a pane forgets it when the connection ends.
// An id that names no pane is left out of the answer.
func (c *Clients) screenSubscribe(ctx actor.Context, call *kit.Call) *kit.Reply {
	return c.withView(ctx, call, (*Clients).watchScreens)
}

func (c *Clients) watchScreens(ctx actor.Context, v *view.View, call *kit.Call, to *actor.PID) *kit.Reply {
	prm := call.Params.(*protocol.ScreenSubscribeParams)
	want := make(map[int]string, len(prm.PaneIDs)) // index in v.Panes → id the client knows
	res := protocol.ScreenSubscribed{PaneIDs: []string{}}
	for _, id := range prm.PaneIDs {
		if i, err := v.ResolvePane(id); err == nil {
			if _, dup := want[i]; !dup {
				want[i] = id
				res.PaneIDs = append(res.PaneIDs, id)
			}
		}
	}
	graphics := prm.Graphics && c.opts.Config.Terminal.KittyGraphics // read at start, as the gate is
	for i := range v.Panes {
		if pid := v.Rec(i).PID; pid != nil {
			id, watch := want[i]
			ctx.Send(pid, &pane.ScreenWatch{Sub: to, PaneID: id, Watch: watch, Graphics: graphics})
		}
	}
	return kit.Done(res)
}
