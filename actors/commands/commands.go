package commands

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the methods the table gives the commands actor.
var Registry = kit.NewRegistry(protocol.OwnerCommands, "actors/commands", map[string]func(*Commands, actor.Context, *kit.Call) *kit.Reply{
	"command.invoke": (*Commands).invoke,
})

// Options configure the commands actor.
type Options struct {
	// Reads is the session's read side the calls' ids are resolved from.
	Reads *view.ReadSide
	// Plugins runs the commands (nil: command.invoke is not_implemented).
	Plugins *actor.PID
	// Keys are the [[keys.command]] entries at start-up; a
	// *config.Reloaded the reloads actor sends replaces them and goes on
	// to Reloaded (nil: nowhere). Being told before the reloads actor
	// answers server.reload_config, a command.invoke sent after that
	// answer finds the new entries.
	Keys     []config.KeyCommand
	Reloaded *actor.PID
	Log      *slog.Logger
}

// Commands is the actor.
type Commands struct {
	opts Options
	keys []config.KeyCommand
}

// Props returns the props of the commands actor.
func Props(opts Options) *actor.Props {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return actor.PropsFromProducer(func() actor.Actor { return &Commands{opts: opts, keys: opts.Keys} }, kit.Guarded(opts.Log))
}

// held is a message held until the read side caught up with it.
type held struct {
	to  *actor.PID
	run func(ctx actor.Context, to *actor.PID) *kit.Reply
}

// afterCaughtUp runs run, answering the sender with what it returns (nil:
// run answers, or someone it asked does), once the read side shows every
// message the session was sent before this one came.
func (c *Commands) afterCaughtUp(ctx actor.Context, run func(ctx actor.Context, to *actor.PID) *kit.Reply) {
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if c.opts.Reads == nil {
		ctx.Send(to, kit.Fail(protocol.Errorf(protocol.CodeInternal, "the commands actor has no read side")))
		return
	}
	if c.opts.Reads.AfterCaughtUp(func() { root.Send(self, &held{to: to, run: run}) }) {
		if reply := run(ctx, to); reply != nil {
			ctx.Send(to, reply)
		}
	}
}

// linkFound hands a link pane.link.activate found to the plugins actor,
// with the context of the pane clicked, which runs the first matching
// link handler or answers that none took it.
func (c *Commands) linkFound(ctx actor.Context, m *pane.LinkFound, to *actor.PID) *kit.Reply {
	if c.opts.Plugins == nil {
		return kit.Done(protocol.PaneLinkActivated{URL: protocol.Ptr(m.URL)})
	}
	ic := protocol.PluginInvocationContext{FocusedPaneID: protocol.Ptr(m.PaneID), ClickedURL: protocol.Ptr(m.URL),
		InvocationSource: protocol.Ptr("link_click"), CorrelationID: protocol.Ptr("link_click")}
	_ = c.opts.Reads.Newest().FillContext(&ic) // it names the pane only, which the pane just vouched for
	ctx.RequestWithCustomSender(c.opts.Plugins, &plugins.Invoke{Call: m.Call, Context: ic}, to)
	return nil
}

// caughtUp is a call held until the read side caught up with it.
type caughtUp struct {
	call *kit.Call
	to   *actor.PID
}

// Receive implements actor.Actor.
func (c *Commands) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", msg.Method)))
			return
		}
		if reply := h(c, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *caughtUp:
		if reply := c.resolve(ctx, msg.call, msg.to); reply != nil {
			ctx.Send(msg.to, reply)
		}
	case *pane.LinkFound:
		c.afterCaughtUp(ctx, func(ctx actor.Context, to *actor.PID) *kit.Reply { return c.linkFound(ctx, msg, to) })
	case *held:
		if reply := msg.run(ctx, msg.to); reply != nil {
			ctx.Send(msg.to, reply)
		}
	case *pane.SelectionRead:
		if reply := c.run(ctx, msg.Call, ctx.Sender(), &msg.Text); reply != nil {
			ctx.Respond(reply)
		}
	case *config.Reloaded:
		c.keys = msg.Config.Keys.Commands
		if c.opts.Reloaded != nil {
			ctx.Send(c.opts.Reloaded, msg)
		}
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, c.opts.Log)
	}
}

// invoke answers command.invoke once the read side shows every change
// the session was sent before the call came (a label a workspace actor
// told it, a pane's new folder), as when the session answered it.
func (c *Commands) invoke(ctx actor.Context, call *kit.Call) *kit.Reply {
	if c.opts.Reads == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "command.invoke: no read side"))
	}
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if c.opts.Reads.AfterCaughtUp(func() { root.Send(self, &caughtUp{call: call, to: to}) }) {
		return c.resolve(ctx, call, to)
	}
	return nil
}

// resolve checks the call's context and runs it, after its selection's
// pane read the text (pane.ReadSelection) when it names one.
func (c *Commands) resolve(ctx actor.Context, call *kit.Call, to *actor.PID) *kit.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	if prm.Selection == nil {
		return c.run(ctx, call, to, nil)
	}
	v := c.opts.Reads.Newest()
	_, sel, err := v.CommandContext(prm)
	if err != nil {
		return kit.Fail(err)
	}
	ctx.RequestWithCustomSender(v.Rec(sel).PID, &pane.ReadSelection{Call: call, Selection: *prm.Selection, To: ctx.Self()}, to)
	return nil
}

// run passes command.invoke on to the plugins actor once its selection
// (if any) was read, with its context made from the newest View.
func (c *Commands) run(ctx actor.Context, call *kit.Call, to *actor.PID, selected *string) *kit.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	v := c.opts.Reads.Newest()
	ic, _, err := v.CommandContext(prm)
	if err != nil {
		return kit.Fail(err)
	}
	if c.opts.Plugins == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
	}
	ic.SelectedText = selected
	fill(&ic.InvocationSource, "api")
	fill(&ic.CorrelationID, call.ID)
	m := &plugins.Command{Call: call, Context: ic, Cols: v.Area.W, Rows: v.Area.H}
	for i := range c.keys {
		if c.keys[i].ID == prm.CommandID {
			kc := c.keys[i]
			m.Key = &kc
		}
	}
	ctx.RequestWithCustomSender(c.opts.Plugins, m, to)
	return nil
}

func fill(dst **string, s string) {
	if *dst == nil && s != "" {
		*dst = protocol.Ptr(s)
	}
}
