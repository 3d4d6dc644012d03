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

// handler runs one of the session's writes. A write whose table entry
// declares a target gets it resolved by its handler's adaptor (onPane,
// atPane, onWorkspace, onTab: ops.go), the kind's not-found error
// answered there; target is the kind it resolves, which the Registry
// checks against the table (a pane's takes an agent's or the focused
// pane too).
type handler struct {
	run    func(s *Session, ctx actor.Context, call *kit.Call) *kit.Reply
	target protocol.Target
}

// Registry holds the writes the table gives the session (owner session);
// one file per area declares its handlers. The session's reads have none:
// its read side answers them before they reach it (view.Methods, Routed).
var Registry = kit.NewRegistry(protocol.OwnerSession, "actors/session",
	workspaceHandlers, tabHandlers, paneHandlers, layoutHandlers, moveHandlers, agentHandlers,
).Routed(view.Methods()).WithFit(func(m protocol.Method, h handler) error {
	if h.target != m.Target && (h.target != protocol.TargetPane || m.Target != protocol.TargetFocusedPane && m.Target != protocol.TargetAgent) {
		return fmt.Errorf("its handler resolves target kind %d, not %d", h.target, m.Target)
	}
	return nil
})

// route runs the session's handler of a call. A call the read side
// routes (view.Routes) has none: sent here by mistake, it is answered
// internal_error naming it. nil means the handler answers later or
// someone else answers.
func (s *Session) route(ctx actor.Context, call *kit.Call) *kit.Reply {
	m, _ := protocol.Lookup(call.Method)
	if !s.opts.Config.GateOpen(m.Gate) {
		return kit.Fail(config.GateClosed(call.Method, m.Gate))
	}
	h, ok := Registry.Lookup(call.Method)
	if !ok && view.Routes(m) {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s is routed from the session's read side (view.ReadSide), not sent to the session", call.Method))
	}
	if !ok || m.Owner != protocol.OwnerSession {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s (owner %s)", call.Method, m.Owner))
	}
	return h.run(s, ctx, call)
}

// Receive implements actor.Actor.
func (s *Session) Receive(ctx actor.Context) {
	// The mailbox counts a message handled for the read side only if it
	// returns: one that panics is counted here, or every read routed
	// from the read side would wait for it for ever.
	handled := false
	defer func() {
		if !handled {
			s.reads.MessageFailed()
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
