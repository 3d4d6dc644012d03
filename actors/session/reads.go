package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The read side (package view): after each message that changed the read
// model the session's records (view.Records) publish a view.View with
// every record already rendered, and connections answer reads from the
// newest one without entering the session's mailbox. settle publishes
// before the message's answer and events go out, so every read that
// starts after a write's answer sees it; nothing is published until the
// restore (the session's first message) is done, so reads until then wait
// for it in the mailbox, as every call does.

// viewHandler is the one handler of the session's methods the View
// routes (view.Methods): fromView, whatever their target kind.
type viewHandler func(s *Session, ctx actor.Context, call *kit.Call, m protocol.Method) *kit.Reply

func (viewHandler) takes(protocol.Target) bool { return true }

// viewRoutes registers fromView for the methods the View routes.
func viewRoutes() map[string]viewHandler {
	out := map[string]viewHandler{}
	for _, name := range view.Methods() {
		out[name] = (*Session).fromView
	}
	return out
}

// fromView routes a call another actor sent the session (a connection
// routes its own from the read side) from the newest View, which shows
// every message the session handled before this one: its answer, or the
// message for its owner's actor, which answers the caller.
func (s *Session) fromView(ctx actor.Context, call *kit.Call, m protocol.Method) *kit.Reply {
	v := s.reads.Newest()
	if v == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: the session has published nothing yet", call.Method))
	}
	r := v.Route(call, m, kit.Owners{Agents: s.opts.Agents, Entities: s.ents})
	switch {
	case r.Reply != nil:
		return r.Reply
	case r.To == nil:
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s (owner %s)", call.Method, m.Owner))
	}
	ctx.RequestWithCustomSender(r.To, r.Msg, ctx.Sender())
	return nil
}
