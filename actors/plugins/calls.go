package plugins

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// plugin.action.invoke and plugin.pane.* come here from the gateway: the
// actor fills in their context (the workspace, tab and pane a call names
// or the focused ones, their folders and agent) and the tab area, or
// resolves the pane a call names, from the session's newest View
// (Options.Reads), once that View shows every message the session was
// sent before the call (view.ReadSide.AfterCaughtUp), as the session's
// answers did. They never enter the session's mailbox; a plugin pane's
// topology change is asked of the session (panes.go).

// resolving is a plugin call held until the read side caught up with
// it; it is sent to the actor with the caller as its sender.
type resolving struct{ call *kit.Call }

// CarriedCall implements kit.CallCarrier.
func (r *resolving) CarriedCall() *kit.Call { return r.call }

// fromView answers call once the read side shows every change the session
// was sent before it came: at once when it does, else when it has caught
// up, as a resolving message from the caller.
func (p *Plugins) fromView(ctx actor.Context, call *kit.Call) *kit.Reply {
	if p.opts.Reads == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: the plugins actor has no read side", call.Method))
	}
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if p.opts.Reads.AfterCaughtUp(func() { root.RequestWithCustomSender(self, &resolving{call: call}, to) }) {
		return p.resolve(ctx, call)
	}
	return nil
}

// resolve makes call's Invoke from the newest View and answers it. An
// action's context that names what does not exist fails; a pane's is
// left empty. A pane to focus or close must be one the View shows.
func (p *Plugins) resolve(ctx actor.Context, call *kit.Call) *kit.Reply {
	v := p.opts.Reads.Newest()
	inv := &Invoke{Call: call, Cols: v.Area.W, Rows: v.Area.H}
	switch prm := call.Params.(type) {
	case *protocol.PluginActionInvokeParams:
		if prm.Context != nil {
			inv.Context = *prm.Context
		}
		if err := v.FillContext(&inv.Context); err != nil {
			return kit.Fail(err)
		}
		fillPtr(&inv.Context.InvocationSource, "api")
		fillPtr(&inv.Context.CorrelationID, call.ID)
	case *protocol.PluginPaneOpenParams:
		// That of the pane it is opened beside, or of the workspace it is opened in.
		inv.Context = protocol.PluginInvocationContext{WorkspaceID: prm.WorkspaceID, FocusedPaneID: prm.TargetPaneID}
		if v.FillContext(&inv.Context) != nil {
			inv.Context = protocol.PluginInvocationContext{}
		}
		inv.Context.InvocationSource, inv.Context.CorrelationID = protocol.Ptr("api"), protocol.Ptr("plugin-pane")
	case *protocol.PluginPaneTarget:
		i, err := v.ResolvePane(prm.PaneID)
		if err != nil {
			return kit.Fail(protocol.Errorf(protocol.CodePluginPaneNotFound, "%s is not a plugin pane", prm.PaneID))
		}
		inv.TermID = v.Rec(i).Info.TerminalID
	}
	return p.forwarded(ctx, inv)
}

func fillPtr(dst **string, v string) {
	if *dst == nil && v != "" {
		*dst = protocol.Ptr(v)
	}
}
