package session

import (
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the session actor.
type Options struct {
	SocketPath string
	BinPath    string
	Env        func(string) string
	Log        *slog.Logger
	// Config is the configuration loaded at start-up.
	Config config.Config
	// Area is the tab area in cells when no client is attached.
	Cols, Rows int
	// Catalog holds the agent manifests panes detect with.
	Catalog *rules.Catalog
	// Events is the event bus every change is published to.
	Events *actor.PID
	// Plugins is told where plugin panes are opened, and runs its
	// startup hooks once the session is restored.
	Plugins *actor.PID
	// Agents is the agents actor: the session places panes for it,
	// forwards agent writes and hook reports to it, and keeps what it
	// shows of each pane (agent.go).
	Agents *actor.PID
	// Worktrees runs the git work of worktree.* calls and sends the
	// topology change each needs (worktree.go).
	Worktrees *actor.PID
	// PaneProps starts a terminal (or adopts the one in the spec) and makes
	// its actor: the server's pane.Runtime.Start; nil means a runtime of
	// the session's own. Tests of
	// the structure alone pass an actor without a PTY.
	PaneProps func(pane.Spec) (props *actor.Props, abort func(), err error)
	// Entities is the workspace and tab actors' supervisor
	// (actors/entities); nil: the session starts one as its child.
	Entities *actor.PID
	// Panes is the panes supervisor the pane actors are spawned under
	// (actors/panes); the server stops it after the session (StopAll).
	// nil: the session starts one as its child.
	Panes *actor.PID
	// WorkspaceProps and TabProps make entity actors, which the entities
	// supervisor starts; nil means wsactor.Props and tabactor.Props (tests
	// wrap them).
	WorkspaceProps func(*kit.Reseed[wsactor.Seed]) *actor.Props
	TabProps       func(*kit.Reseed[tabactor.Seed]) *actor.Props
	// SessionFile is the session.json to keep the session in; "" keeps
	// nothing. Restore is what it held at start (nil for nothing).
	SessionFile string
	Restore     *model.Saved
	// Keeper writes the session file and kept lines, and trims memory
	// (actors/keeper); nil keeps nothing. Lines is its kept-lines
	// writer, nil when [advanced] persist_scrollback_lines is 0.
	Keeper *actor.PID
	Lines  *pane.LinesWriter
	// Reads is where the session publishes its read model for the reads
	// answered without entering its mailbox (reads.go); nil makes one.
	Reads *view.ReadSide
	// Adopt holds, by terminal id, the terminals a live handoff brought:
	// restored panes with one go on with it instead of a new shell.
	Adopt map[string]pane.Adoption
}

// Session is the actor that owns the session's structure.
type Session struct {
	worker *kit.Worker // runs this actor's mailbox; stopped with it
	opts   Options
	cfg    config.Config
	home   string
	// timers holds every pending timer, cancelled when the session stops.
	timers kit.Timers

	keep     keeping // what the keeper was told (persist.go)
	stopping bool    // the session is stopping, and its children with it
	// m is the topology; recs are the records of its terminals beside it,
	// which the read side renders and publishes (view.Records). tx is the
	// transaction of the message being handled (begin): its journal, and
	// what it does once it commits (txn.go).
	m    *model.Model
	tx   *txn
	recs *view.Records
	// ents supervises the workspace and tab actors (entities.go).
	ents *actor.PID

	// spawner starts panes under the panes supervisor (spawn.go).
	spawner panes.Spawner

	// reads is the read side recs publishes to after each change.
	reads *view.ReadSide
}

// Props returns the props of the session actor. Its children are the
// pane, workspace and tab actors, supervised by HandleFailure.
// Its mailbox runs on a goroutine of its own (kit.Worker): every request
// passes through it, and protoactor's default dispatcher would start a
// goroutine, and grow its stack again, for every burst.
func Props(opts Options) *actor.Props {
	w := kit.NewWorker()
	if opts.Reads == nil {
		opts.Reads = view.NewReadSide()
	}
	return actor.PropsFromProducer(func() actor.Actor { s := newSession(opts); s.worker = w; return s },
		actor.WithDispatcher(w), actor.WithMailbox(actor.Unbounded(opts.Reads)), kit.Guarded(opts.Log))
}

func newSession(opts Options) *Session {
	cols, rows := opts.Cols, opts.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 120, 40 // Herdr 0.9's headless size
	}
	if opts.PaneProps == nil {
		opts.PaneProps = pane.NewRuntime().Start
	}
	if opts.Reads == nil {
		opts.Reads = view.NewReadSide()
	}
	m := model.New(layout.Rect{W: cols, H: rows})
	recs := view.NewRecords(m, opts.Reads, opts.Env("HOME"))
	if opts.Catalog != nil {
		recs.SetManifests(view.ManifestInfos(opts.Catalog))
	}
	return &Session{
		reads: opts.Reads,
		opts:  opts,
		cfg:   opts.Config,
		home:  opts.Env("HOME"),
		m:     m,
		recs:  recs,
		keep:  keeping{keys: keeper.NewLineKeys(opts.Lines, opts.SessionFile)},
		spawner: panes.Spawner{Start: opts.PaneProps, Adopt: opts.Adopt, BinPath: opts.BinPath, SocketPath: opts.SocketPath, Home: opts.Env("HOME"),
			Env: opts.Env, Events: opts.Events, Log: opts.Log, Config: opts.Config, Catalog: opts.Catalog, KittyGraphics: opts.Config.Terminal.KittyGraphics,
			Scrolled: opts.Reads.AnswerScrolled},
	}
}

// handler answers one call from the session's own model.
// Handlers, one type per target kind. A method whose protocol entry
// declares a target has its target resolved by route before its handler
// runs, which gets the entity itself.
type (
	handler          func(s *Session, ctx actor.Context, call *kit.Call) *kit.Reply
	workspaceHandler func(s *Session, ctx actor.Context, call *kit.Call, w *workspace) *kit.Reply
	tabHandler       func(s *Session, ctx actor.Context, call *kit.Call, t *tab) *kit.Reply
	paneHandler      func(s *Session, ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply
)

// anyHandler is a handler of one of the four kinds; route calls the kind
// the method's Target selects, and Registry's check refuses a handler of
// another kind.
type anyHandler interface {
	takes(protocol.Target) bool
}

func (handler) takes(t protocol.Target) bool          { return t == protocol.TargetNone }
func (workspaceHandler) takes(t protocol.Target) bool { return t == protocol.TargetWorkspace }
func (tabHandler) takes(t protocol.Target) bool       { return t == protocol.TargetTab }

// A pane handler takes an agent too: the agent's pane.
func (paneHandler) takes(t protocol.Target) bool {
	return t == protocol.TargetPane || t == protocol.TargetFocusedPane || t == protocol.TargetAgent
}

// Registry holds the methods the table gives the session (owner session);
// one file per area declares its handlers. The session's reads have none:
// its read side answers them before they reach it (view.Methods, Routed).
// The methods of the agents, workspace, tab and pane actors are not here:
// the View routes them because the table names their owner.
var Registry = kit.NewRegistry(protocol.OwnerSession, "actors/session",
	area(workspaceHandlers), area(workspaceRoutes), area(tabHandlers), area(tabRoutes),
	area(paneHandlers), area(paneRoutes), area(layoutHandlers), area(moveHandlers),
	area(agentRoutes),
).Routed(view.Methods()).WithFit(func(m protocol.Method, h anyHandler) error {
	if !h.takes(m.Target) {
		return fmt.Errorf("its handler is a %T, which does not take target kind %d", h, m.Target)
	}
	return nil
})

// area lets one file's handlers of one kind join the registry.
func area[H anyHandler](handlers map[string]H) map[string]anyHandler {
	out := make(map[string]anyHandler, len(handlers))
	for name, h := range handlers {
		out[name] = h
	}
	return out
}

// route runs the session's handler of a call, its target resolved as
// its method declares (the kind's not-found error answered here). A call
// the read side routes (view.Routes: a read, or one for the agents actor,
// a workspace, a tab or a pane) has no handler here: sent to the session
// by mistake, it is answered internal_error naming it. nil means the
// handler answers later or someone else answers.
func (s *Session) route(ctx actor.Context, call *kit.Call) *kit.Reply {
	m, _ := protocol.Lookup(call.Method)
	if !GateOpen(s.opts.Config, m.Gate) {
		return gateClosed(call.Method, m.Gate)
	}
	h, ok := Registry.Lookup(call.Method)
	if !ok && view.Routes(m) {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s is routed from the session's read side (view.ReadSide), not sent to the session", call.Method))
	}
	if !ok || m.Owner != protocol.OwnerSession {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s (owner %s)", call.Method, m.Owner))
	}
	id := ""
	if t, ok := call.Params.(protocol.Targeted); ok {
		id = t.TargetID()
	}
	switch m.Target {
	case protocol.TargetNone:
		return h.(handler)(s, ctx, call)
	case protocol.TargetWorkspace:
		w, err := s.m.ResolveWorkspace(id)
		if err != nil {
			return kit.Fail(err)
		}
		return h.(workspaceHandler)(s, ctx, call, w)
	case protocol.TargetTab:
		t, err := s.m.ResolveTab(id)
		if err != nil {
			return kit.Fail(err)
		}
		return h.(tabHandler)(s, ctx, call, t)
	case protocol.TargetAgent, protocol.TargetPane, protocol.TargetFocusedPane:
		p, err := s.recs.Target(m.Target, id, call.Params)
		if err != nil {
			return kit.Fail(err)
		}
		return h.(paneHandler)(s, ctx, call, p)
	}
	return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: unknown target kind %d", call.Method, m.Target))
}

// Receive implements actor.Actor.
func (s *Session) Receive(ctx actor.Context) {
	// The mailbox counts a message handled for the read side only if it
	// returns: one that panics is counted here, or every read routed
	// from the read side would wait for it for ever.
	handled := false
	defer func() {
		if !handled {
			s.reads.MessageReceived(nil)
		}
	}()
	if s.m.Open() { // the last message panicked half-way (handle)
		s.abandon(ctx)
	}
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = s.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		// The supervisors of the pane actors and of the entity actors: the
		// given ones, else children of the session's own.
		if s.spawner.Sup, s.spawner.Owner = s.opts.Panes, ctx.Self(); s.spawner.Sup == nil {
			s.spawner.Sup = ctx.Spawn(panes.Props(panes.Options{Log: s.opts.Log}))
		}
		ctx.Send(s.spawner.Sup, &panes.SetSession{PID: ctx.Self()})
		if s.ents = s.opts.Entities; s.ents == nil {
			s.ents = ctx.Spawn(entities.Props(entities.Options{WorkspaceProps: s.opts.WorkspaceProps, TabProps: s.opts.TabProps, Log: s.opts.Log}))
		}
		ctx.Send(s.opts.Agents, &agents.SetSession{PID: ctx.Self()})
		if s.opts.Worktrees != nil {
			ctx.Send(s.opts.Worktrees, &worktrees.SetSession{PID: ctx.Self()})
		}
		before := s.begin()
		lost := false
		if s.opts.Restore != nil {
			lost = s.restore(ctx, s.opts.Restore)
		}
		s.settle(ctx, before)
		s.place(ctx)
		// The keeper, once the restore is done (the restore is the file's,
		// not a change to save: persist.go).
		if s.keep.pid = s.opts.Keeper; s.keep.pid != nil {
			ctx.Send(s.keep.pid, &keeper.Attach{Session: ctx.Self(), KeepOriginal: lost})
		}
		if s.opts.Plugins != nil {
			ctx.Send(s.opts.Plugins, &plugins.SetSession{PID: ctx.Self()})
			ctx.Send(s.opts.Plugins, &plugins.RunStartup{})
		}
	case *actor.Stopping:
		s.stopping = true
		s.save(ctx) // the last one, written before the keeper stops
		s.timers.StopAll()
	case *actor.Stopped:
		s.worker.Stop()
	case *kit.Call:
		s.handle(ctx, msg, func() *kit.Reply { return s.route(ctx, msg) })
	case kit.TopologyAsk: // kinds.go
		s.handle(ctx, msg.CarriedCall(), func() *kit.Reply { return s.ask(ctx, msg) })
	case kit.Fact:
		s.fact(ctx, msg)
	case kit.Keeping:
		s.keeping(ctx, msg)
	case kit.PassOn:
		s.passOn(ctx, msg)
	default:
		kit.Unhandled(ctx, msg, s.opts.Log)
	}
	handled = true
}

// handle runs the handler of a call in a transaction, publishes what it
// changed, then answers: the events and the agents actor's placement go
// out before the caller can act on the answer. A call that fails changes
// nothing: its transaction is discarded with what it queued. A handler
// that panics gets no further: the receive guard (kit.Guarded) answers
// its call internal_error, and the next message discards the transaction
// it left open (Receive), so nothing of it is published or saved.
func (s *Session) handle(ctx actor.Context, call *kit.Call, run func() *kit.Reply) {
	s.begin()
	reply := run()
	if reply != nil && reply.Err != nil && s.tx.dirty() { // failed: an empty transaction instead
		before := s.tx.before
		s.abandon(ctx)
		s.begin().before = before
	}
	tx := s.tx
	s.settle(ctx, tx)
	// nil: answered elsewhere. When the call moved the focus to another
	// tab, the answer goes round the agents actor, so it has marked that
	// tab's agents seen, and the session has their new status, before the
	// caller can ask again.
	switch {
	case tx.deferred != nil:
		ctx.Send(s.opts.Agents, &agents.Sync{Answer: *tx.deferred})
	case reply == nil:
	case tx.synced:
		ctx.Send(s.opts.Agents, &agents.Sync{Answer: agents.Answer{To: ctx.Sender(), Reply: reply}})
	default:
		ctx.Respond(reply)
	}
}
