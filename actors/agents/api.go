package agents

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// The agent API's writes: names, launches, prompts and waits. Reads,
// explanations and keys are the session's (its read model has what they
// need) and the pane's. Waits are event-driven: they are re-checked
// whenever the pane's status changes, never polled, and end when the
// caller's connection goes away.

// promptStallLimit is how long a prompted agent that was not working has to
// show a change before the prompt counts as stalled.
const promptStallLimit = 5 * time.Second

// defaultLaunchTimeout is how long agent.start keeps a name for an agent
// that has not appeared yet.
const defaultLaunchTimeout = 30 * time.Second

// waiter is a pending agent.wait, or the wait of an agent.prompt.
type waiter struct {
	id     uint64
	sender *actor.PID
	termID string
	agent  string // the agent kind pinned at the start
	until  map[protocol.AgentStatus]bool
	timer  uint64 // kit.Timers id; 0 for none
	// Prompt waits: until the agent shows a change (armed) a settled
	// state does not count; stall fires if no change comes in time.
	prompt bool
	armed  bool
	// finished (until finished): done, or idle once working was seen.
	finished       bool
	sawWorking     bool
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

// waitExpired fires a waiter's timeout (or its prompt stall check).
type waitExpired struct {
	id    uint64
	stall bool
}

// launchExpired ends a launch whose agent never appeared.
type launchExpired struct {
	termID string
	gen    uint64
}

// paneRequest addresses a call to a pane actor.
func paneRequest(r *rec, call *kit.Call) pane.Request {
	return pane.Request{Call: call, PaneID: r.PaneID, WorkspaceID: r.WorkspaceID, TabID: r.TabID}
}

// named is the pane whose agent has name, or nil.
func (a *Agents) named(name string) *rec {
	if name == "" {
		return nil
	}
	for _, r := range a.recs {
		if r.hook != nil && r.hook.name == name {
			return r
		}
	}
	return nil
}

// agentTarget checks that a forwarded agent target still hosts an agent.
func agentTarget(r *rec, target string) *kit.Reply {
	if !hostsAgent(r) {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", target))
	}
	return nil
}

func (a *Agents) agentRename(ctx actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentRenameParams)
	if fail := agentTarget(r, prm.Target); fail != nil {
		return fail
	}
	h := a.hookOf(r)
	a.touch(r)
	if prm.Name == nil || *prm.Name == "" {
		h.name, h.nameKind, h.launchPending = "", "", false
		a.render(ctx.Sender(), RenderInfo, r)
		return nil
	}
	if other := a.named(*prm.Name); other != nil && other != r {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNameTaken, "agent name %s is taken by %s", *prm.Name, other.PaneID))
	}
	if h.launchPending && r.effAgent == "" {
		h.name = *prm.Name // the launch keeps waiting for its agent
	} else {
		h.name, h.nameKind, h.launchPending = *prm.Name, r.effAgent, false
	}
	a.render(ctx.Sender(), RenderInfo, r)
	return nil
}

// agentStart types the agent's command line into an idle shell pane and
// names the agent; the name waits for the agent to appear.
func (a *Agents) agentStart(ctx actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentStartParams)
	if other := a.named(prm.Name); other != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNameTaken, "agent name %s is taken by %s", prm.Name, other.PaneID))
	}
	if hostsAgent(r) {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentPaneBusy, "pane %s already hosts an agent", r.PaneID))
	}
	argv := append([]string{protocol.AgentExecutable(prm.Kind)}, prm.Args...)
	h := a.hookOf(r)
	h.name, h.nameKind, h.launchPending = prm.Name, prm.Kind, true
	h.failedName, h.failedReason = "", ""
	a.touch(r)
	a.nextID++
	h.launchToken = a.nextID
	in := &pendingInput{id: a.nextID, sender: ctx.Sender(), termID: r.TermID, launch: prm, argv: argv}
	a.addInput(ctx, in)
	ctx.Request(r.PID, &pane.AgentRequest{Op: pane.AgentLaunch, Req: paneRequest(r, call), Argv: argv, Token: in.id})
	return nil
}

// agentPrompt types a prompt and Enter; with wait, the answer comes once
// the agent has reacted and settled. A prompt is text, never keys: it is
// typed through protocol.TypedText, so a control character in it (from a
// task's description, another agent over MCP) cannot end the agent or
// reach the terminal; keys are pane.send_keys' and agent.send_keys'.
func (a *Agents) agentPrompt(ctx actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentPromptParams)
	if fail := agentTarget(r, prm.Target); fail != nil {
		return fail
	}
	agent, state, _ := effective(r)
	switch {
	case r.status == protocol.StatusBlocked:
		return kit.Fail(protocol.Errorf(protocol.CodeAgentBlocked, "agent at %s is blocked on a question; %s, then prompt again", r.PaneID, answerHint(r)))
	case agent == "" || (r.hook != nil && r.hook.launchPending):
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNotReady, "agent at %s has not started yet", r.PaneID))
	case state != string(protocol.StatusIdle) && state != string(protocol.StatusWorking):
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNotReady, "agent at %s is not ready for input (state %s)", r.PaneID, state))
	}
	a.nextID++
	in := &pendingInput{id: a.nextID, sender: ctx.Sender(), termID: r.TermID, prompt: prm, startSeq: r.stateSeq,
		working: state == string(protocol.StatusWorking)}
	a.addInput(ctx, in)
	ctx.Request(r.PID, &pane.AgentRequest{Op: pane.AgentPrompt, Req: paneRequest(r, call), Text: protocol.TypedText(prm.Text), Token: in.id})
	return nil
}

func (a *Agents) addInput(ctx actor.Context, in *pendingInput) {
	a.inputs[in.id] = in
	if in.sender != nil {
		ctx.Watch(in.sender)
	}
}

// inputDone follows a prompt or launch the pane has typed.
func (a *Agents) inputDone(msg *pane.AgentInput) {
	in := a.inputs[msg.Token]
	if in == nil {
		return // its caller went away
	}
	delete(a.inputs, in.id)
	r := a.recs[in.termID]
	if r == nil {
		a.answer(in.sender, kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane closed")))
		return
	}
	if in.launch != nil {
		h := a.hookOf(r)
		if msg.Err != nil {
			if h.launchPending && h.name == in.launch.Name {
				h.name, h.nameKind, h.launchPending = "", "", false
				a.touch(r)
			}
			a.answer(in.sender, kit.Fail(msg.Err))
			return
		}
		timeout := defaultLaunchTimeout
		if in.launch.TimeoutMS != nil {
			timeout = time.Duration(*in.launch.TimeoutMS) * time.Millisecond
		}
		a.nextGen++
		h.launchGen = a.nextGen
		a.after(timeout, &launchExpired{termID: r.TermID, gen: h.launchGen})
		a.answers = append(a.answers, Answer{To: in.sender, Render: RenderStarted, TermID: r.TermID, Argv: in.argv})
		return
	}
	if msg.Err != nil {
		a.answer(in.sender, kit.Fail(msg.Err))
		return
	}
	if in.prompt.Wait == nil {
		a.render(in.sender, RenderPrompted, r)
		return
	}
	w := a.newWaiter(r, in.sender, in.prompt.Wait.Until, in.prompt.Wait.TimeoutMS)
	w.prompt, w.startSeq, w.armed = true, in.startSeq, in.working
	if !w.armed {
		stall := promptStallLimit
		if t := in.prompt.Wait.TimeoutMS; t != nil && time.Duration(*t)*time.Millisecond <= stall {
			stall, w.stallIsTimeout = time.Duration(*t)*time.Millisecond, true
		}
		w.stall = a.after(stall, &waitExpired{id: w.id, stall: true})
	}
	a.checkWaits(r)
}

// launchFailed ends a launch whose program the shell could not run (or
// that ended before it was recognised), keeping why for agent.get.
func (a *Agents) launchFailed(m *pane.LaunchFailed) {
	r := a.recs[m.TerminalID]
	if r != nil && r.hook != nil && m.Token == 0 && r.hook.resuming != "" {
		a.resumeFailed(r, m.Reason)
		return
	}
	if r == nil || r.hook == nil || !r.hook.launchPending || r.hook.launchToken != m.Token {
		return // named since, or another launch's
	}
	h := r.hook
	if a.opts.Log != nil {
		a.opts.Log.Warn("agent start failed", "name", h.name, "pane", r.PaneID, "reason", m.Reason)
	}
	h.failedName, h.failedReason = h.name, m.Reason
	h.name, h.nameKind, h.launchPending = "", "", false
	a.touch(r)
	a.checkWaits(r) // an agent.wait for the agent that was to start ends too
}

func (a *Agents) launchExpired(m *launchExpired) {
	if r := a.recs[m.termID]; r != nil && r.hook != nil && r.hook.launchPending && r.hook.launchGen == m.gen {
		r.hook.name, r.hook.nameKind, r.hook.launchPending = "", "", false
		a.touch(r)
	}
}

// agentWait answers at once when the agent already has one of the
// statuses, else when it gets one.
func (a *Agents) agentWait(ctx actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentWaitParams)
	if fail := agentTarget(r, prm.Target); fail != nil {
		return fail
	}
	if ctx.Sender() != nil {
		ctx.Watch(ctx.Sender())
	}
	a.newWaiter(r, ctx.Sender(), prm.Until, prm.TimeoutMS)
	a.checkWaits(r)
	return nil
}

func (a *Agents) newWaiter(r *rec, sender *actor.PID, until []protocol.AgentStatus, timeoutMS *uint64) *waiter {
	if len(until) == 0 {
		until = protocol.DefaultUntil
	}
	a.nextID++
	w := &waiter{id: a.nextID, sender: sender, termID: r.TermID, agent: effAgent(r), until: map[protocol.AgentStatus]bool{}}
	if w.agent == "" && r.hook != nil {
		w.agent = r.hook.nameKind
	}
	for _, st := range until {
		w.until[st] = true
	}
	w.finished, w.sawWorking = w.until[protocol.UntilFinished], r.status == protocol.StatusWorking
	if timeoutMS != nil {
		w.timer = a.after(time.Duration(*timeoutMS)*time.Millisecond, &waitExpired{id: w.id})
	}
	a.waits[w.id] = w
	return w
}

// checkWaits answers the waits on a pane whose state may have changed.
func (a *Agents) checkWaits(r *rec) {
	for _, w := range a.waits {
		if w.termID != r.TermID {
			continue
		}
		current := effAgent(r)
		pending := current == "" && r.hook != nil && r.hook.launchPending && r.hook.nameKind == w.agent
		if current != w.agent && !pending {
			a.endWait(w, kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent at %s is no longer running", r.PaneID)))
			continue
		}
		if w.prompt && !w.armed {
			if r.stateSeq == w.startSeq {
				continue
			}
			w.armed = true
		}
		if r.status == protocol.StatusWorking {
			w.sawWorking = true
		}
		finished := w.finished && (r.status == protocol.StatusDone || r.status == protocol.StatusIdle && w.sawWorking)
		switch {
		case (w.until[r.status] || finished) && !pending:
			a.forget(w)
			kind := RenderInfo
			if w.prompt {
				kind = RenderPrompted
			}
			a.render(w.sender, kind, r)
		case w.prompt && r.status == protocol.StatusBlocked:
			a.endWait(w, kit.Fail(protocol.Errorf(protocol.CodeAgentBlocked, "agent at %s is blocked on a question; %s", r.PaneID, answerHint(r))))
		}
	}
}

// answerHint tells how to answer a blocked agent's question: read it,
// then send the keys of the answer (agent.send_keys).
func answerHint(r *rec) string {
	return fmt.Sprintf("read it with `herdr agent read %[1]s` and answer with `herdr agent send-keys %[1]s KEY...` (e.g. 1 Enter; agent.send_keys over the API)", r.PaneID)
}

// forget drops a waiter and its timers.
func (a *Agents) forget(w *waiter) {
	delete(a.waits, w.id)
	a.timers.Cancel(w.timer)
	a.timers.Cancel(w.stall)
}

// endWait answers a waiter and forgets it.
func (a *Agents) endWait(w *waiter, r *kit.Reply) {
	a.forget(w)
	a.answer(w.sender, r)
}

func (a *Agents) waitExpired(msg *waitExpired) {
	w := a.waits[msg.id]
	if w == nil {
		return
	}
	switch {
	case !msg.stall:
		a.endWait(w, kit.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for the agent")))
	case w.armed:
	case w.stallIsTimeout:
		a.endWait(w, kit.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for the agent to react to the prompt")))
	default:
		a.endWait(w, kit.Fail(protocol.Errorf(protocol.CodeAgentPromptStalled, "the agent showed no change within %v of the prompt", promptStallLimit)))
	}
}

// gone ends the waits, prompts and launches on a pane that closed.
func (a *Agents) gone(r *rec) {
	gone := func() *kit.Reply {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane %s closed", r.PaneID))
	}
	for _, w := range a.waits {
		if w.termID == r.TermID {
			a.endWait(w, gone())
		}
	}
	for id, in := range a.inputs {
		if in.termID == r.TermID {
			delete(a.inputs, id)
			a.answer(in.sender, gone())
		}
	}
}

// dropCaller forgets the waits and inputs of a connection that went away.
func (a *Agents) dropCaller(who *actor.PID) {
	for _, w := range a.waits {
		if w.sender.Equal(who) {
			a.forget(w)
		}
	}
	for id, in := range a.inputs {
		if in.sender.Equal(who) {
			delete(a.inputs, id)
		}
	}
}
