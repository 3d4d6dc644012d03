package agents

import (
	"log/slog"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the agents actor.
type Options struct {
	// Events is the bus status and detection events are published to.
	Events *actor.PID
	Log    *slog.Logger
	// Carried is what a live handoff brought for panes the session is
	// about to place (handoff.go).
	Carried *Carried
	// Clients is told (kit.Push) when the agent view is set or cleared, for
	// the interactive client in front; nil in tests without one.
	Clients *actor.PID
	// Answer sends an answer that carries an agent record, rendered from
	// the session's read side once the session took what the actor told
	// it before (view.ReadSide.Answerer); nil: the session renders it.
	Answer func(*Answer)
}

// Place is where one pane is, as the session last told it.
type Place struct {
	TermID, PaneID, TabID, WorkspaceID string
	Label                              string // the pane's custom label
	PID                                *actor.PID
	// Restored is the agent session a restored pane's agent had reported
	// before the restart; set only the first time the pane is placed.
	Restored *protocol.AgentSessionInfo
}

// Placement is every pane in workspace, tab and layout order, and the tab
// on screen. The session sends it whenever any of it changed.
type Placement struct {
	Panes            []Place
	FocusedWorkspace string
	FocusedTab       string
}

// Request is an agent or hook method whose target the session resolved
// to a terminal. The caller is the message's sender.
type Request struct {
	Call   *kit.Call
	TermID string
}

// CarriedCall implements kit.CallCarrier.
func (r *Request) CarriedCall() *kit.Call { return r.Call }

// SetSession names the session, which gets Shown and Answer messages.
type SetSession struct{ PID *actor.PID }

// SetEnabledPlugins is the set of plugins an agent view may name as its
// source (plugin:<id>), IDs, and of those linked; a view whose plugin is
// no longer enabled ends. Reply, when set, is the answer of the call that
// changed the set, sent to To once that is done.
type SetEnabledPlugins struct {
	IDs, Linked map[string]bool
	Reply       *kit.Reply
	To          *actor.PID
}

// Render says which agent record an Answer carries.
type Render uint8

const (
	RenderReply    Render = iota // Reply as it is
	RenderInfo                   // protocol.AgentInfoResult
	RenderPrompted               // protocol.AgentPrompted
	RenderStarted                // protocol.AgentStarted with Argv
)

// Answer is a reply for the session to send to To: Reply as it is, or an
// agent record rendered from the session's read model.
type Answer struct {
	To     *actor.PID
	Reply  *kit.Reply
	Render Render
	TermID string
	Argv   []string
}

// Sync passes an Answer back to the session after everything the actor
// received before it: the session uses it to answer a call only once the
// actor has applied a focus change the call made (the seen rule).
type Sync struct{ Answer Answer }

// rec is the actor's record of one pane. Its small fields sit together
// (and positions are int32) so that it fits a 256-byte allocation: a
// thousand idle panes each carry one.
type rec struct {
	Place
	agent, state string // the screen's agent and state, from the pane's facts
	// The effective agent and internal state as of the last reconcile
	// (hook authority applied).
	effAgent, effState string
	status             protocol.AgentStatus
	stateSeq           uint64       // state_change_seq of its last public status change
	completions        uint64       // completion_seq: its agent's finished turns
	hook               *hookState   // hook authority, metadata, name (hooks.go)
	ws, tab, pos       int32        // positions, for views
	job                pane.JobKind // what holds the terminal, from the pane's facts
	seen               bool         // the user has seen its latest state
	dirty              bool         // its Shown is to be sent at the end of the message
	placed             bool         // in the placement being applied (place)
}

// Agents is the agents actor.
type Agents struct {
	opts    Options
	ctx     actor.Context // the message being handled, for timers
	session *actor.PID
	root    *actor.RootContext
	timers  kit.Timers

	recs       map[string]*rec // by terminal id
	order      []*rec          // placement order
	focusedWS  string
	focusedTab string
	stateSeq   uint64 // global counter of public status changes
	nextGen    uint64 // metadata TTL and launch generations
	nextID     uint64 // waiters and pending inputs
	waits      map[uint64]*waiter
	inputs     map[uint64]*pendingInput
	view       *view
	enabled    map[string]bool // enabled plugins
	linked     map[string]bool // linked plugins, enabled or not
	// resumes wait for a client (resume.go); resumeTaken are the
	// session references already resumed.
	resumes     []pendingResume
	resumeTaken map[string]bool
	resumeChain bool // a resumeNext is timed: the next resume waits for it
	// queued are the queue lengths by terminal (QueueLengths).
	queued map[string]int

	// What one message produced, sent once it is applied, in this order.
	dirty   []*rec
	outbox  []*events.Publish
	answers []Answer
}

// Props returns the props of the agents actor.
func Props(opts Options) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &Agents{opts: opts, recs: map[string]*rec{}, waits: map[uint64]*waiter{}, inputs: map[uint64]*pendingInput{}}
	}, kit.GuardedKeep(opts.Log))
}

// handler answers one forwarded call about rec r; nil means it answers
// later (a wait, a prompt) or through an Answer.
type handler func(a *Agents, ctx actor.Context, call *kit.Call, r *rec) *kit.Reply

// Registry is every method the actor answers (the table's owner agents),
// each with its handler; the session forwards them to it with their
// target resolved.
var Registry = kit.NewRegistry(protocol.OwnerAgents, "actors/agents", map[string]handler{
	"pane.report_agent":          (*Agents).reportAgent,
	"pane.report_agent_session":  (*Agents).reportAgentSession,
	"pane.report_metadata":       (*Agents).reportMetadata,
	"pane.clear_agent_authority": (*Agents).clearAgentAuthority,
	"pane.release_agent":         (*Agents).releaseAgent,
	"agent.rename":               (*Agents).agentRename,
	"agent.start":                (*Agents).agentStart,
	"agent.prompt":               (*Agents).agentPrompt,
	"agent.wait":                 (*Agents).agentWait,
	"agent.view.set":             (*Agents).agentViewSet,
	"agent.view.clear":           (*Agents).agentViewClear,
	"agent.view.get":             (*Agents).agentViewGet,
})

// Receive implements actor.Actor.
func (a *Agents) Receive(ctx actor.Context) {
	a.ctx = ctx
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = a.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		a.root = ctx.ActorSystem().Root
		if c := a.opts.Carried; c != nil {
			a.stateSeq = c.StateSeq
		}
		return
	case *Export:
		ctx.Respond(a.export())
		return
	case *actor.Stopping:
		a.timers.StopAll()
		return
	case *SetSession:
		a.session = msg.PID
		return
	case *SetEnabledPlugins:
		a.pluginsChanged(ctx, msg)
		return
	case *Placement:
		a.place(msg)
	case *Resume:
		a.planResume(msg)
	case *ClientAttached:
		a.startResumes()
	case *resumeDue:
		a.startResumes()
	case *resumeNext:
		a.resumeOne()
	case *pane.Facts:
		if r := a.recs[msg.TerminalID]; r != nil {
			a.jobChanged(r, msg.Job)
			a.screenChanged(r, msg.Agent, msg.AgentState)
		}
	case *Request:
		a.request(ctx, msg)
	case *Sync:
		a.answers = append(a.answers, msg.Answer)
	case *pane.AgentInput:
		a.inputDone(msg)
	case *metaExpired:
		a.expireMeta(msg)
	case *waitExpired:
		a.waitExpired(msg)
	case *launchExpired:
		a.launchExpired(msg)
	case *pane.LaunchFailed:
		a.launchFailed(msg)
	case *QueueLengths:
		a.queueLengths(msg)
	case *actor.Terminated:
		a.dropCaller(msg.Who)
	default:
		kit.Unhandled(ctx, msg, a.opts.Log)
	}
	a.flush(ctx)
}

// request runs a forwarded call. A panic is answered internal_error by
// the actor's guard (kit.GuardedKeep), which keeps the actor and its
// state; what the message did before it is still sent as the panic
// unwinds, but for answers to this caller, whom the guard answers.
func (a *Agents) request(ctx actor.Context, req *Request) {
	sender := ctx.Sender()
	returned := false
	defer func() {
		if !returned { // the handler panicked
			a.answers = slices.DeleteFunc(a.answers, func(ans Answer) bool { return ans.To != nil && ans.To.Equal(sender) })
			a.flush(ctx)
		}
	}()
	a.serve(ctx, req, sender)
	returned = true
}

func (a *Agents) serve(ctx actor.Context, req *Request, sender *actor.PID) {
	h, ok := Registry.Lookup(req.Call.Method)
	if !ok {
		a.answer(sender, kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", req.Call.Method)))
		return
	}
	var r *rec
	if req.TermID != "" {
		if r = a.recs[req.TermID]; r == nil {
			// The pane closed between the session's resolution and now.
			a.answer(sender, kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed")))
			return
		}
	}
	if reply := h(a, ctx, req.Call, r); reply != nil {
		a.answer(sender, reply)
	}
}

// answer queues a reply for the end of the message.
func (a *Agents) answer(to *actor.PID, r *kit.Reply) {
	a.answers = append(a.answers, Answer{To: to, Reply: r})
}

// render queues an agent record for the session to render and send.
func (a *Agents) render(to *actor.PID, kind Render, r *rec) {
	a.answers = append(a.answers, Answer{To: to, Render: kind, TermID: r.TermID})
}

// flush ends a message: the session learns what changed, then events are
// published, then callers are answered, so whoever reacts to an answer or
// an event finds the session's read model up to date.
func (a *Agents) flush(ctx actor.Context) {
	for _, r := range a.dirty {
		r.dirty = false
		if a.recs[r.TermID] == r && a.session != nil {
			ctx.Send(a.session, a.shown(r))
		}
	}
	a.dirty = a.dirty[:0]
	for _, e := range a.outbox {
		if a.opts.Events != nil {
			ctx.Send(a.opts.Events, e)
		}
	}
	clear(a.outbox)
	a.outbox = a.outbox[:0]
	for _, ans := range a.answers {
		switch {
		case ans.To == nil:
		case ans.Render == RenderReply && ans.Reply != nil:
			ctx.Send(ans.To, ans.Reply)
		case a.opts.Answer != nil:
			a.opts.Answer(&ans)
		case a.session != nil:
			ctx.Send(a.session, &ans)
		}
	}
	clear(a.answers)
	a.answers = a.answers[:0]
}

// after sends msg to the actor after d, returning the timer's id.
func (a *Agents) after(d time.Duration, msg any) uint64 { return a.timers.After(a.ctx, d, msg) }

// touch marks a record whose Shown changed.
func (a *Agents) touch(r *rec) {
	if !r.dirty {
		r.dirty = true
		a.dirty = append(a.dirty, r)
	}
}

// emit queues an event about a pane.
func (a *Agents) emit(d protocol.EventData, r *rec) {
	f := events.Fields{WorkspaceID: r.WorkspaceID, TabID: r.TabID, PaneID: r.PaneID, TermID: r.TermID, Label: r.Label}
	f.Agent, f.AgentStatus = effAgent(r), string(r.status)
	a.outbox = append(a.outbox, &events.Publish{Data: d, Fields: f})
}

// place applies a new placement: new panes get a record, closed ones end
// their waits, and a newly focused tab marks its panes seen.
func (a *Agents) place(pl *Placement) {
	a.order = a.order[:0]
	ws, tab, pos := int32(-1), int32(-1), int32(0)
	lastWS, lastTab := "", ""
	for _, p := range pl.Panes {
		r := a.recs[p.TermID]
		if r == nil {
			r = &rec{Place: p, status: protocol.StatusUnknown, seen: true}
			a.recs[p.TermID] = r
			if p.Restored != nil {
				ref := *p.Restored
				a.hookOf(r).session = &ref
				a.touch(r)
			}
			if c := a.opts.Carried; c != nil {
				if cp, ok := c.Panes[p.TermID]; ok {
					a.adopt(r, cp)
					delete(c.Panes, p.TermID)
				}
			}
		} else {
			r.Place = p
		}
		r.Restored = nil
		if p.WorkspaceID != lastWS {
			ws, tab, pos, lastWS, lastTab = ws+1, -1, 0, p.WorkspaceID, ""
		}
		if p.TabID != lastTab {
			tab, lastTab = tab+1, p.TabID
		}
		pos++
		r.ws, r.tab, r.pos, r.placed = ws, tab, pos, true
		a.order = append(a.order, r)
	}
	// The records not placed now are gone: a mark on each record, not a
	// set of the placed ids made at every placement (one per topology
	// change, as big as the session).
	for id, r := range a.recs {
		if !r.placed {
			a.gone(r)
			delete(a.recs, id)
		}
		r.placed = false
	}
	newTab := pl.FocusedTab != a.focusedTab
	a.focusedWS, a.focusedTab = pl.FocusedWorkspace, pl.FocusedTab
	if newTab && a.focusedTab != "" {
		a.markSeen(a.focusedTab)
	}
}

// PassOn implements kit.PassOn.
func (*Answer) PassOn() {}
