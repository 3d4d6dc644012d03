package session

import (
	"log/slog"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detect"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session/model"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the session actor.
type Options struct {
	SocketPath string
	ConfigPath string
	BinPath    string
	Env        func(string) string
	Log        *slog.Logger
	// Config is the configuration loaded at start-up.
	Config config.Config
	// Area is the tab area in cells when no client is attached.
	Cols, Rows int
	// Catalog holds the agent manifests panes detect with.
	Catalog *detect.Catalog
	// CatalogDir is where local manifest overrides live.
	CatalogDir string
	// Events is the event bus every change is published to.
	Events *actor.PID
	// Clients is told which connection is the interactive client in front.
	Clients *actor.PID
	// Plugins runs plugin actions, and its startup hooks once the session
	// is restored.
	Plugins *actor.PID
	// Agents is the agents actor: the session places panes for it,
	// forwards agent writes and hook reports to it, and keeps what it
	// shows of each pane (agent.go).
	Agents *actor.PID
	// PaneProps starts a terminal and makes its actor; nil means pane.Start. Tests of
	// the structure alone pass an actor without a PTY.
	PaneProps func(pane.Spec) (props *actor.Props, abort func(), err error)
	// WorkspaceProps and TabProps make entity actors; nil means
	// wsactor.Props and tabactor.Props (tests wrap them).
	WorkspaceProps func(*api.Reseed[wsactor.Seed]) *actor.Props
	TabProps       func(*api.Reseed[tabactor.Seed]) *actor.Props
	// SessionFile is the session.json to keep the session in; "" keeps
	// nothing. Restore is what it held at start (nil for nothing).
	SessionFile string
	Restore     *model.Saved
	// Adopt holds, by terminal id, the terminals a live handoff brought:
	// restored panes with one go on with it instead of a new shell.
	Adopt map[string]pane.Adoption
}

// Session is the actor that owns the session's structure.
type Session struct {
	worker  *api.Worker // runs this actor's mailbox; stopped with it
	opts    Options
	cfg     config.Config
	catalog *detect.Catalog
	home    string
	// timers holds every pending timer, cancelled when the session stops.
	timers api.Timers

	persist  *persister   // nil when nothing is kept (persist.go)
	lines    *linesKeeper // nil unless pane history is kept (history.go)
	trim     trimmer      // memory handed back after the panes changed (trim.go)
	stopping bool         // the session is stopping, and its children with it
	// overlays are the overlay panes open, by terminal id (open.go).
	overlays map[string]overlay
	// m is the topology; terms are the session's records of its panes.
	m        *model.Model
	terms    map[string]*paneRec // by terminal id
	entities map[string]*entity  // workspace and tab actors, by id

	// Events raised while handling one message, sent once it is applied.
	outbox     []*events.Publish
	dirtyTabs  []*tab
	newborn    []any             // workspaces and tabs whose actors start at settle
	retired    []*actor.PID      // entity actors to stop at settle
	retiredIDs []string          // and the ids of their entities
	gitOps     map[uint64]*gitOp // worktree calls waiting for git (worktree.go)
	nextGit    uint64
	spawned    uint64 // entity actors started, for their names
	nextMatch  uint64

	// placed is the placement the agents actor last got; synced says this
	// message sent it a new focused tab, so the answer goes through it
	// (see answerCall); deferred is an answer a handler left for it.
	placed   agents.Placement
	synced   bool
	deferred *agents.Answer

	client screenClient // the interactive client's frame around panes (screen.go)
}

// Props returns the props of the session actor. Its children are the
// pane, workspace and tab actors, supervised by HandleFailure.
// Its mailbox runs on a goroutine of its own (api.Worker): every request
// passes through it, and protoactor's default dispatcher would start a
// goroutine, and grow its stack again, for every burst.
func Props(opts Options) *actor.Props {
	w := api.NewWorker()
	return actor.PropsFromProducer(func() actor.Actor { s := newSession(opts); s.worker = w; return s }, actor.WithDispatcher(w))
}

func newSession(opts Options) *Session {
	cols, rows := opts.Cols, opts.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 200, 50
	}
	if opts.PaneProps == nil {
		opts.PaneProps = pane.Start
	}
	if opts.WorkspaceProps == nil {
		opts.WorkspaceProps = wsactor.Props
	}
	if opts.TabProps == nil {
		opts.TabProps = tabactor.Props
	}
	return &Session{
		opts:     opts,
		cfg:      opts.Config,
		catalog:  opts.Catalog,
		home:     opts.Env("HOME"),
		m:        model.New(layout.Rect{W: cols, H: rows}),
		terms:    map[string]*paneRec{},
		entities: map[string]*entity{},
	}
}

// handler answers one call from the session's own model.
// Handlers, one type per target kind. A method whose protocol entry
// declares a target has its target resolved by route before its handler
// runs, which gets the entity itself.
type (
	handler          func(s *Session, ctx actor.Context, call *api.Call) *api.Reply
	workspaceHandler func(s *Session, ctx actor.Context, call *api.Call, w *workspace) *api.Reply
	tabHandler       func(s *Session, ctx actor.Context, call *api.Call, t *tab) *api.Reply
	paneHandler      func(s *Session, ctx actor.Context, call *api.Call, p *paneRec) *api.Reply
)

// handlers is the session's table of untargeted methods; one file per area
// fills it and the routes of its targeted ones.
var handlers = merge(serverHandlers, workspaceHandlers, tabHandlers, paneHandlers, layoutHandlers, moveHandlers, eventsHandlers, agentHandlers, screenHandlers, worktreeHandlers, pluginHandlers)

// workspaceTargeted holds every workspace-targeted method the session routes.
var workspaceTargeted = merge(workspaceRoutes, worktreeRoutes)

// paneTargeted holds every pane-targeted method: the session's own and
// those the pane actor answers.
var paneTargeted = forwarded(merge(paneRoutes, graphicsRoutes), without(pane.Methods(), graphicsRoutes), (*Session).forwardToPane)

// without is names less those own answers itself first.
func without[H any](names []string, own map[string]H) []string {
	out := names[:0:0]
	for _, n := range names {
		if _, ok := own[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// forwarded adds to own a handler for each of names, which another actor answers.
func forwarded(own map[string]paneHandler, names []string, forward paneHandler) map[string]paneHandler {
	out := merge(own)
	for _, name := range names {
		if _, dup := out[name]; dup {
			panic("session: method handled by both session and another actor: " + name)
		}
		out[name] = forward
	}
	return out
}

func merge[H any](areas ...map[string]H) map[string]H {
	out := map[string]H{}
	for _, area := range areas {
		for name, h := range area {
			if _, dup := out[name]; dup {
				panic("session: handler registered twice: " + name)
			}
			out[name] = h
		}
	}
	return out
}

// route resolves the call's target as its method declares, answering the
// kind's not-found error itself, and runs the handler. nil means the
// handler answers later or someone else answers.
func (s *Session) route(ctx actor.Context, call *api.Call) *api.Reply {
	m, _ := protocol.Lookup(call.Method)
	if !s.gateOpen(m.Gate) {
		return gateClosed(call.Method, m.Gate)
	}
	id := ""
	if t, ok := call.Params.(protocol.Targeted); ok {
		id = t.TargetID()
	}
	switch m.Target {
	case protocol.TargetWorkspace:
		if h, ok := workspaceTargeted[call.Method]; ok {
			w, err := s.m.ResolveWorkspace(id)
			if err != nil {
				return api.Fail(err)
			}
			return h(s, ctx, call, w)
		}
	case protocol.TargetTab:
		if h, ok := tabRoutes[call.Method]; ok {
			t, err := s.m.ResolveTab(id)
			if err != nil {
				return api.Fail(err)
			}
			return h(s, ctx, call, t)
		}
	case protocol.TargetAgent:
		p, err := s.resolveAgent(id)
		if err != nil {
			return api.Fail(err)
		}
		if h, ok := agentRoutes[call.Method]; ok {
			return h(s, ctx, call, p)
		}
		if agents.Handles(call.Method) {
			return s.forwardToAgents(ctx, call, p)
		}
	case protocol.TargetPane, protocol.TargetFocusedPane:
		if h, ok := paneTargeted[call.Method]; ok || agents.Handles(call.Method) {
			if !ok {
				h = (*Session).forwardToAgents
			}
			var p *paneRec
			var err error
			if m.Target == protocol.TargetFocusedPane {
				p, err = s.orFocused(&id)
			} else {
				p, err = s.resolvePane(id)
			}
			if err != nil {
				return api.Fail(err)
			}
			return h(s, ctx, call, p)
		}
	default:
		if h, ok := handlers[call.Method]; ok {
			return h(s, ctx, call)
		}
		if agents.Handles(call.Method) {
			return s.forwardToAgents(ctx, call, nil)
		}
	}
	return api.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", call.Method))
}

// Receive implements actor.Actor.
func (s *Session) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*api.Fired); ok {
		msg = s.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		ctx.Send(s.opts.Agents, &agents.SetSession{PID: ctx.Self()})
		before := s.focusNow()
		lost := false
		s.startLines(ctx)
		if s.opts.Restore != nil {
			lost = s.restore(ctx, s.opts.Restore)
		}
		s.settle(ctx, before)
		s.place(ctx)
		if s.opts.SessionFile != "" {
			s.persist = newPersister(s.opts.SessionFile, s.opts.Log, lost)
		}
		if s.opts.Plugins != nil {
			ctx.Send(s.opts.Plugins, &plugins.SetSession{PID: ctx.Self()})
			ctx.Send(s.opts.Plugins, &plugins.RunStartup{})
		}
	case *actor.Stopping:
		s.stopping = true
		s.finalSave()
		s.timers.StopAll()
	case *actor.Stopped:
		s.closeLines()
		s.worker.Stop()
	case *saveDue:
		s.save()
	case *linesDue:
		s.saveLines()
	case *trimDue:
		s.trimNow(ctx)
	case *HandoffExport:
		s.handoffExport(ctx)
	case *api.Call:
		s.handle(ctx, msg, func() *api.Reply { return s.route(ctx, msg) })
	case *pane.Facts:
		if p := s.terms[msg.TerminalID]; p != nil {
			before := s.focusNow()
			s.linesChanged(ctx, p, msg)
			s.updateFacts(ctx, p, msg)
			s.settle(ctx, before)
		}
	case *agents.Shown:
		before := s.focusNow()
		s.shownChanged(msg)
		s.settle(ctx, before)
	case *agents.Answer:
		s.answer(ctx, msg)
	case *wsactor.Changed:
		before := s.focusNow()
		s.workspaceChanged(ctx, msg)
		s.settle(ctx, before)
	case *plugins.Enabled:
		ctx.Send(s.opts.Agents, &agents.SetEnabledPlugins{IDs: msg.IDs})
	case *api.OpenPane:
		s.handle(ctx, msg.Call, func() *api.Reply { return s.openPane(ctx, msg) })
	case *api.FocusPane:
		s.handle(ctx, msg.Call, func() *api.Reply { return s.focusPane(msg) })
	case *api.ClosePane:
		s.handle(ctx, msg.Call, func() *api.Reply { return s.closeOwnedPane(ctx, msg) })
	case *wsactor.GitDone:
		before := s.focusNow()
		s.gitDone(ctx, msg)
		s.settle(ctx, before)
	case *tabactor.Changed:
		before := s.focusNow()
		s.tabChanged(ctx, msg)
		s.settle(ctx, before)
	case *pane.Exited:
		if p := s.terms[msg.TerminalID]; p != nil {
			s.opts.Log.Info("pane exited", "pane", p.ID, "terminal", p.TermID, "code", msg.ExitCode)
			s.paneGone(ctx, p)
		}
	case *actor.Terminated:
		if s.stopping {
			return // its children stop with it
		}
		// A pane actor stopped after a panic (a pane closed on purpose is
		// forgotten before it stops): it closes as if its program had
		// exited, so nothing is left pointing at a dead actor.
		if p := s.terms[msg.Who.Id[strings.LastIndexByte(msg.Who.Id, '/')+1:]]; p != nil && p.pid.Equal(msg.Who) {
			s.opts.Log.Error("pane actor stopped after a failure; closing the pane", "pane", p.ID, "terminal", p.TermID)
			s.paneGone(ctx, p)
		}
	}
}

// paneGone closes a pane whose program or actor is gone.
func (s *Session) paneGone(ctx actor.Context, p *paneRec) {
	before := s.focusNow()
	s.emit(protocol.PaneRefEvent{Kind: "pane_exited", PaneID: p.ID, WorkspaceID: p.WS.ID}, s.paneFields(p))
	s.closePane(ctx, p)
	s.settle(ctx, before)
}

// handle runs the handler of a call, publishes what it changed, then
// answers: the events and the agents actor's placement go out before the
// caller can act on the answer. A panic answers internal_error to this
// request only.
func (s *Session) handle(ctx actor.Context, call *api.Call, run func() *api.Reply) {
	s.synced = false // only this call's placement counts
	before := s.focusNow()
	reply := s.guard(call, run)
	s.settle(ctx, before)
	s.answerCall(ctx, reply)
}

func (s *Session) guard(call *api.Call, run func() *api.Reply) (reply *api.Reply) {
	defer func() {
		if r := recover(); r != nil {
			s.opts.Log.Error("handler panicked", "method", call.Method, "panic", r)
			s.deferred = nil
			reply = api.Fail(protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", call.Method, r))
		}
	}()
	return run()
}

// answerCall sends a call's answer (nil: answered elsewhere). When the
// call moved the focus to another tab, the answer goes round the agents
// actor, so it has marked that tab's agents seen, and the session has
// their new status, before the caller can ask again.
func (s *Session) answerCall(ctx actor.Context, reply *api.Reply) {
	switch {
	case s.deferred != nil:
		ctx.Send(s.opts.Agents, &agents.Sync{Answer: *s.deferred})
	case reply == nil:
	case s.synced:
		ctx.Send(s.opts.Agents, &agents.Sync{Answer: agents.Answer{To: ctx.Sender(), Reply: reply}})
	default:
		ctx.Respond(reply)
	}
	s.deferred, s.synced = nil, false
}
