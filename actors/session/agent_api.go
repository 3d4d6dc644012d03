package session

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// The agent API: agents are addressed by the public id of the pane hosting
// them or by name. Reads, explanations and keys are done by the pane;
// names, prompts, launches and waits live here. Waits are event-driven:
// they are re-checked whenever the pane's status changes, never polled,
// and end when the caller's connection goes away.

var agentAPIHandlers = map[string]handler{
	"agent.read":       (*Session).agentRead,
	"agent.explain":    (*Session).agentExplain,
	"agent.send_keys":  (*Session).agentSendKeys,
	"agent.rename":     (*Session).agentRename,
	"agent.focus":      (*Session).agentFocus,
	"agent.start":      (*Session).agentStart,
	"agent.prompt":     (*Session).agentPrompt,
	"agent.wait":       (*Session).agentWait,
	"agent.view.set":   (*Session).agentViewSet,
	"agent.view.clear": (*Session).agentViewClear,
}

// promptStallLimit is how long a prompted agent that was not working has to
// show a change before the prompt counts as stalled.
const promptStallLimit = 5 * time.Second

// defaultLaunchTimeout is how long agent.start keeps a name for an agent
// that has not appeared yet.
const defaultLaunchTimeout = 30 * time.Second

// agentState is the session's agent API state.
type agentState struct {
	nextGen uint64 // metadata TTL generations
	nextID  uint64 // waiters and pending inputs
	waits   map[uint64]*agentWaiter
	inputs  map[uint64]*pendingInput
	root    *actor.RootContext // sends wait answers decided outside a handler's context
	view    *agentView
}

// agentWaiter is a pending agent.wait, or the wait of an agent.prompt.
type agentWaiter struct {
	id     uint64
	sender *actor.PID
	termID string
	agent  string // the agent kind pinned at the start
	until  map[protocol.AgentStatus]bool
	timer  uint64 // api.Timers id; 0 for none
	// Prompt waits: until the agent shows a change (armed) a settled
	// state does not count; stall fires if no change comes in time.
	prompt         bool
	armed          bool
	startSeq       uint64
	stall          uint64
	stallIsTimeout bool
}

// pendingInput is a prompt or launch the pane is typing.
type pendingInput struct {
	id     uint64
	sender *actor.PID
	termID string
	// prompt
	prompt   *protocol.AgentPromptParams
	startSeq uint64
	working  bool // the agent was working when prompted
	// launch
	launch *protocol.AgentStartParams
	argv   []string
}

// agentWaitExpired fires a waiter's timeout (or its prompt stall check).
type agentWaitExpired struct {
	id    uint64
	stall bool
}

// launchExpired ends a launch whose agent never appeared.
type launchExpired struct {
	termID string
	gen    uint64
}

// receiveAgents handles the messages of the agent API and hooks.
func (s *Session) receiveAgents(ctx actor.Context, msg any) {
	before := s.focusNow()
	switch msg := msg.(type) {
	case *metaExpired:
		s.expireMeta(msg)
	case *pane.AgentInput:
		s.inputDone(ctx, msg)
	case *agentWaitExpired:
		s.waitExpired(ctx, msg)
	case *launchExpired:
		if p := s.terms[msg.termID]; p != nil && p.hook != nil && p.hook.launchPending && p.hook.launchGen == msg.gen {
			p.hook.name, p.hook.nameKind, p.hook.launchPending = "", "", false
		}
	case *AgentViewQuery:
		ctx.Respond(&AgentViewList{View: s.viewResult(), Agents: s.viewAgents()})
		return
	case *actor.Terminated:
		s.dropCaller(ctx, msg.Who)
	default:
		return
	}
	s.settle(ctx, before)
}

func (s *Session) paneRequest(p *paneRec, call *api.Call) pane.Request {
	return pane.Request{Call: call, PaneID: p.ID, WorkspaceID: p.WS.ID, TabID: p.Tab.ID}
}

func (s *Session) agentRead(ctx actor.Context, call *api.Call) *api.Reply {
	p, err := s.resolveAgent(call.Params.(*protocol.AgentReadParams).Target)
	if err != nil {
		return api.Fail(err)
	}
	ctx.RequestWithCustomSender(p.pid, &pane.AgentRequest{Op: pane.AgentRead, Req: s.paneRequest(p, call)}, ctx.Sender())
	return nil
}

func (s *Session) agentExplain(ctx actor.Context, call *api.Call) *api.Reply {
	p, err := s.resolveAgent(call.Params.(*protocol.AgentTarget).Target)
	if err != nil {
		return api.Fail(err)
	}
	agent, state, skipped := effective(p)
	if agent == "" {
		return api.Fail(protocol.Errorf(protocol.CodeAgentExplainUnavail, "the agent of %s has not started yet", p.ID))
	}
	r := &pane.AgentRequest{Op: pane.AgentExplain, Req: s.paneRequest(p, call), Agent: agent, State: state, Skipped: skipped}
	if p.hook != nil && p.hook.auth != nil && p.hook.auth.agent == agent {
		r.Authority = p.hook.auth.source
	}
	ctx.RequestWithCustomSender(p.pid, r, ctx.Sender())
	return nil
}

func (s *Session) agentSendKeys(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentSendKeysParams)
	p, err := s.resolveAgent(prm.Target)
	if err != nil {
		return api.Fail(err)
	}
	ctx.RequestWithCustomSender(p.pid, &pane.AgentRequest{Op: pane.AgentSendKeys, Req: s.paneRequest(p, call), Keys: prm.Keys}, ctx.Sender())
	return nil
}

func (s *Session) agentRename(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentRenameParams)
	p, err := s.resolveAgent(prm.Target)
	if err != nil {
		return api.Fail(err)
	}
	h := s.hookOf(p, p.facts)
	if prm.Name == nil || *prm.Name == "" {
		h.name, h.nameKind, h.launchPending = "", "", false
		return api.Done(protocol.AgentInfoResult{Agent: s.agentInfo(p)})
	}
	if other := s.agentNamed(*prm.Name); other != nil && other != p {
		return api.Fail(protocol.Errorf(protocol.CodeAgentNameTaken, "agent name %s is taken by %s", *prm.Name, other.ID))
	}
	if h.launchPending && h.effAgent == "" {
		h.name = *prm.Name // the launch keeps waiting for its agent
	} else {
		h.name, h.nameKind, h.launchPending = *prm.Name, h.effAgent, false
	}
	return api.Done(protocol.AgentInfoResult{Agent: s.agentInfo(p)})
}

func (s *Session) agentFocus(_ actor.Context, call *api.Call) *api.Reply {
	p, err := s.resolveAgent(call.Params.(*protocol.AgentTarget).Target)
	if err != nil {
		return api.Fail(err)
	}
	s.m.FocusPane(p.Pane)
	s.markSeen(p.Tab)
	return api.Done(protocol.AgentInfoResult{Agent: s.agentInfo(p)})
}

// shellQuote quotes a word for POSIX shells when it needs it.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// agentStart types the agent's command line into an idle shell pane and
// names the agent; the name waits for the agent to appear.
func (s *Session) agentStart(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentStartParams)
	p, err := s.resolvePane(prm.PaneID)
	if err != nil {
		return api.Fail(err)
	}
	if other := s.agentNamed(prm.Name); other != nil {
		return api.Fail(protocol.Errorf(protocol.CodeAgentNameTaken, "agent name %s is taken by %s", prm.Name, other.ID))
	}
	if hostsAgent(p) {
		return api.Fail(protocol.Errorf(protocol.CodeAgentPaneBusy, "pane %s already hosts an agent", p.ID))
	}
	argv := append([]string{protocol.AgentExecutable(prm.Kind)}, prm.Args...)
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	h := s.hookOf(p, p.facts)
	h.name, h.nameKind, h.launchPending = prm.Name, prm.Kind, true
	s.ag.nextID++
	in := &pendingInput{id: s.ag.nextID, sender: ctx.Sender(), termID: p.TermID, launch: prm, argv: argv}
	s.addInput(ctx, in)
	ctx.Request(p.pid, &pane.AgentRequest{Op: pane.AgentLaunch, Req: s.paneRequest(p, call), Text: strings.Join(quoted, " "), Token: in.id})
	return nil
}

// agentPrompt types a prompt and Enter; with wait, the answer comes once
// the agent has reacted and settled.
func (s *Session) agentPrompt(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentPromptParams)
	p, err := s.resolveAgent(prm.Target)
	if err != nil {
		return api.Fail(err)
	}
	agent, state, _ := effective(p)
	switch {
	case s.agentStatus(p) == protocol.StatusBlocked:
		return api.Fail(protocol.Errorf(protocol.CodeAgentBlocked, "agent at %s is waiting for an answer; resolve it before prompting", p.ID))
	case agent == "" || (p.hook != nil && p.hook.launchPending):
		return api.Fail(protocol.Errorf(protocol.CodeAgentNotReady, "agent at %s has not started yet", p.ID))
	case state != string(protocol.StatusIdle) && state != string(protocol.StatusWorking):
		return api.Fail(protocol.Errorf(protocol.CodeAgentNotReady, "agent at %s is not ready for input (state %s)", p.ID, state))
	}
	s.ag.nextID++
	in := &pendingInput{id: s.ag.nextID, sender: ctx.Sender(), termID: p.TermID, prompt: prm, startSeq: p.stateSeq,
		working: state == string(protocol.StatusWorking)}
	s.addInput(ctx, in)
	ctx.Request(p.pid, &pane.AgentRequest{Op: pane.AgentPrompt, Req: s.paneRequest(p, call), Text: prm.Text, Token: in.id})
	return nil
}

func (s *Session) addInput(ctx actor.Context, in *pendingInput) {
	if s.ag.inputs == nil {
		s.ag.inputs = map[uint64]*pendingInput{}
	}
	s.ag.inputs[in.id] = in
	s.watch(ctx, in.sender)
}

// inputDone follows a prompt or launch the pane has typed.
func (s *Session) inputDone(ctx actor.Context, msg *pane.AgentInput) {
	in := s.ag.inputs[msg.Token]
	if in == nil {
		return // its caller went away
	}
	delete(s.ag.inputs, in.id)
	p := s.terms[in.termID]
	if p == nil {
		ctx.Send(in.sender, api.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane closed")))
		return
	}
	if in.launch != nil {
		h := s.hookOf(p, p.facts)
		if msg.Err != nil {
			if h.launchPending && h.name == in.launch.Name {
				h.name, h.nameKind, h.launchPending = "", "", false
			}
			ctx.Send(in.sender, api.Fail(msg.Err))
			return
		}
		timeout := defaultLaunchTimeout
		if in.launch.TimeoutMS != nil {
			timeout = time.Duration(*in.launch.TimeoutMS) * time.Millisecond
		}
		s.ag.nextGen++
		h.launchGen = s.ag.nextGen
		s.timers.After(ctx, timeout, &launchExpired{termID: p.TermID, gen: h.launchGen})
		ctx.Send(in.sender, api.Done(protocol.AgentStarted{Agent: s.agentInfo(p), Argv: in.argv}))
		return
	}
	if msg.Err != nil {
		ctx.Send(in.sender, api.Fail(msg.Err))
		return
	}
	if in.prompt.Wait == nil {
		ctx.Send(in.sender, api.Done(protocol.AgentPrompted{Agent: s.agentInfo(p)}))
		return
	}
	w := s.newWaiter(ctx, p, in.sender, in.prompt.Wait.Until, in.prompt.Wait.TimeoutMS)
	w.prompt, w.startSeq, w.armed = true, in.startSeq, in.working
	if !w.armed {
		stall := promptStallLimit
		if t := in.prompt.Wait.TimeoutMS; t != nil && time.Duration(*t)*time.Millisecond <= stall {
			stall, w.stallIsTimeout = time.Duration(*t)*time.Millisecond, true
		}
		w.stall = s.timers.After(ctx, stall, &agentWaitExpired{id: w.id, stall: true})
	}
	s.checkWaits(p)
}

// agentWait answers at once when the agent already has one of the
// statuses, else when it gets one.
func (s *Session) agentWait(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentWaitParams)
	p, err := s.resolveAgent(prm.Target)
	if err != nil {
		return api.Fail(err)
	}
	w := s.newWaiter(ctx, p, ctx.Sender(), prm.Until, prm.TimeoutMS)
	s.checkWaits(p)
	_ = w
	return nil
}

func (s *Session) newWaiter(ctx actor.Context, p *paneRec, sender *actor.PID, until []protocol.AgentStatus, timeoutMS *uint64) *agentWaiter {
	if len(until) == 0 {
		until = protocol.DefaultUntil
	}
	s.ag.nextID++
	w := &agentWaiter{id: s.ag.nextID, sender: sender, termID: p.TermID, agent: effAgent(p), until: map[protocol.AgentStatus]bool{}}
	if w.agent == "" && p.hook != nil {
		w.agent = p.hook.nameKind
	}
	for _, st := range until {
		w.until[st] = true
	}
	if timeoutMS != nil {
		w.timer = s.timers.After(ctx, time.Duration(*timeoutMS)*time.Millisecond, &agentWaitExpired{id: w.id})
	}
	if s.ag.waits == nil {
		s.ag.waits = map[uint64]*agentWaiter{}
	}
	s.ag.waits[w.id] = w
	s.watch(ctx, sender)
	return w
}

// checkWaits answers the waits on a pane whose state may have changed.
func (s *Session) checkWaits(p *paneRec) {
	for _, w := range s.ag.waits {
		if w.termID != p.TermID {
			continue
		}
		current := effAgent(p)
		pending := current == "" && p.hook != nil && p.hook.launchPending && p.hook.nameKind == w.agent
		if current != w.agent && !pending {
			s.endWait(w, api.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent at %s is no longer running", p.ID)))
			continue
		}
		if w.prompt && !w.armed {
			if p.stateSeq == w.startSeq {
				continue
			}
			w.armed = true
		}
		st := s.agentStatus(p)
		switch {
		case w.until[st] && !pending:
			info := s.agentInfo(p)
			if w.prompt {
				s.endWait(w, api.Done(protocol.AgentPrompted{Agent: info}))
			} else {
				s.endWait(w, api.Done(protocol.AgentInfoResult{Agent: info}))
			}
		case w.prompt && st == protocol.StatusBlocked:
			s.endWait(w, api.Fail(protocol.Errorf(protocol.CodeAgentBlocked, "agent at %s is waiting for an answer", p.ID)))
		}
	}
}

// endWait answers a waiter and forgets it. Status changes are applied
// where no actor context is at hand, so the answer goes out through the
// root context (the connection does not look at the sender).
func (s *Session) endWait(w *agentWaiter, r *api.Reply) {
	delete(s.ag.waits, w.id)
	s.timers.Cancel(w.timer)
	s.timers.Cancel(w.stall)
	s.ag.root.Send(w.sender, r)
}

func (s *Session) waitExpired(_ actor.Context, msg *agentWaitExpired) {
	w := s.ag.waits[msg.id]
	if w == nil {
		return
	}
	if !msg.stall {
		s.endWait(w, api.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for the agent")))
		return
	}
	if w.armed {
		return
	}
	if w.stallIsTimeout {
		s.endWait(w, api.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for the agent to react to the prompt")))
		return
	}
	s.endWait(w, api.Fail(protocol.Errorf(protocol.CodeAgentPromptStalled, "the agent showed no change within %v of the prompt", promptStallLimit)))
}

// agentGone ends the waits, prompts and launches on a pane that closed.
func (s *Session) agentGone(p *paneRec) {
	gone := func() *api.Reply {
		return api.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane %s closed", p.ID))
	}
	for _, w := range s.ag.waits {
		if w.termID == p.TermID {
			s.endWait(w, gone())
		}
	}
	for id, in := range s.ag.inputs {
		if in.termID == p.TermID {
			delete(s.ag.inputs, id)
			s.ag.root.Send(in.sender, gone())
		}
	}
}

// dropCaller forgets the waits and inputs of a connection that went away.
func (s *Session) dropCaller(ctx actor.Context, who *actor.PID) {
	for id, w := range s.ag.waits {
		if w.sender.Equal(who) {
			delete(s.ag.waits, id)
			s.timers.Cancel(w.timer)
			s.timers.Cancel(w.stall)
		}
	}
	for id, in := range s.ag.inputs {
		if in.sender.Equal(who) {
			delete(s.ag.inputs, id)
		}
	}
}

// watch follows a caller's connection so its waits end with it (watching
// twice is harmless).
func (s *Session) watch(ctx actor.Context, who *actor.PID) {
	s.ag.root = ctx.ActorSystem().Root
	if who != nil {
		ctx.Watch(who)
	}
}
