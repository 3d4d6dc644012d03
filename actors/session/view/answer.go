package view

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Agent answers: the agents actor decides an answer that carries an agent
// record (agents.Answer) and has it rendered from the read side here,
// once the session has taken the Shown the actor sent it before (the View
// then shows it), not by a trip through the session's mailbox.

// AgentAnswer is a's reply, an agent record rendered from v when a asks
// for one.
func AgentAnswer(v *View, a *agents.Answer) *kit.Reply {
	if a.Render == agents.RenderReply {
		return a.Reply
	}
	rec := v.Term(a.TermID)
	if rec == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane closed"))
	}
	info := rec.Showing().Info(rec.Info)
	switch a.Render {
	case agents.RenderPrompted:
		return kit.Done(protocol.AgentPrompted{Agent: info})
	case agents.RenderStarted:
		return kit.Done(protocol.AgentStarted{Agent: info, Argv: a.Argv})
	}
	return kit.Done(protocol.AgentInfoResult{Agent: info})
}

// Answerer is the agents actor's Options.Answer: it sends a's reply,
// rendered from the first View that shows every message sent to the
// session before a was given.
func (r *ReadSide) Answerer(root *actor.RootContext) func(a *agents.Answer) {
	return func(a *agents.Answer) {
		send := func() {
			defer kit.RecoverTo(root, a.To, "agent answer")
			root.Send(a.To, AgentAnswer(r.Newest(), a))
		}
		// The wait ends on the session's goroutine: rendering runs on one
		// of its own.
		if r.AfterCaughtUp(func() { go send() }) {
			send()
		}
	}
}

// ScrolledInfo is pane.scroll's answer, the pane's record in v.
func ScrolledInfo(v *View, m *pane.InfoAnswer) *kit.Reply {
	rec := v.Term(m.TerminalID)
	if rec == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed"))
	}
	return kit.Done(protocol.PaneInfoResult{Pane: rec.Info})
}

// AnswerScrolled is the panes' pane.Spec.Scrolled: it answers to with the
// pane's record from the first View that shows the facts with the new
// scroll position, which the pane sent the session before.
func (r *ReadSide) AnswerScrolled(root *actor.RootContext, to *actor.PID, m *pane.InfoAnswer) {
	send := func() {
		defer kit.RecoverTo(root, to, "pane.scroll")
		root.Send(to, ScrolledInfo(r.Newest(), m))
	}
	if r.AfterCaughtUp(func() { go send() }) {
		send()
	}
}
