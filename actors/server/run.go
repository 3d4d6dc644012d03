package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/buffers"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/commands"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet"
	"github.com/herdr-go/herdr/actors/gateway"
	"github.com/herdr-go/herdr/actors/integrations"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	machinesaved "github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/actors/pane"
	panesup "github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/actors/web"
	"github.com/herdr-go/herdr/actors/worktrees"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure one server process.
type Options struct {
	// SocketPath is the API socket to listen on.
	SocketPath string
	// ConfigPath is the config.toml to read.
	ConfigPath string
	// LogPath is the server log file; protoactor's own log goes there too.
	LogPath string
	// Env looks up environment variables (os.Getenv in production).
	Env func(string) string
	// Banner receives the start-up lines (stderr in production).
	Banner io.Writer
	// SessionFile is the session.json the session is restored from and
	// kept in; "" keeps nothing.
	SessionFile string
	// BinPath is the herdr program panes and plugins call (HERDR_BIN_PATH);
	// "" is the running one.
	BinPath string
}

// Run starts the server and blocks until it is stopped by server.stop or a signal.
func Run(opts Options) error {
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if opts.Banner == nil {
		opts.Banner = io.Discard
	}
	// Before any child is started: no pane may inherit what the server did.
	closeInheritedOnExec()
	if err := checkRegistries(registries); err != nil {
		return err
	}
	logFile, err := openLog(opts.LogPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	level, levelErr := logLevel(opts.Env("HERDR_LOG"))
	log := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: level}))
	if levelErr != nil {
		log.Warn("HERDR_LOG ignored", "err", levelErr)
	}

	cfg, diags, status := config.Load(opts.ConfigPath)
	for _, d := range diags {
		log.Warn("config", "status", status, "diagnostic", d)
	}

	catalogDir := filepath.Join(protocol.ConfigDir(opts.Env), "agent-detection")
	catalog, warnings := rules.LoadCatalog(catalogDir)
	for _, w := range warnings {
		log.Warn("agent manifest override ignored", "err", w.Error())
	}

	sessionFile, saved := loadSession(opts.SessionFile, log, opts.Banner)

	// A server started by a live handoff takes its predecessor's socket,
	// terminals and state instead (handoff.go).
	heir, err := inherit(opts.Env, log)
	if err != nil {
		return err
	}
	var listener net.Listener
	var adopt map[string]pane.Adoption
	var carried *agents.Carried
	history := &events.Carried{NextSeq: 1}
	if heir != nil {
		listener, saved, adopt, carried, history = heir.listener, &heir.state.Saved, heir.adoptions(), heir.state.Agents, heir.state.history()
	} else if listener, err = protocol.Listen(opts.SocketPath); err != nil {
		return err
	} else if saved != nil {
		// The socket is ours, so no other server runs this session: what
		// its panes left running is a dead server's, to end before the
		// restore starts new shells.
		endLeftovers(saved, opts.SocketPath, log)
	}
	runs := pluginRunsDir(opts.LogPath, opts.Env)
	if heir == nil {
		// Likewise the plugin commands a dead server was running.
		if n := plug.EndLeftRuns(runs, log); n > 0 {
			log.Warn("ended plugin command processes a previous server left running", "processes", n)
		}
	}
	bin := stableBinary(log, opts.BinPath, opts.LogPath)

	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(libLog{log.Handler()}).With("lib", "protoactor")
	}))
	stopped := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(stopped) }) }

	root, err := system.Root.SpawnNamed(rootProps(log), "server")
	if err != nil {
		listener.Close()
		return fmt.Errorf("spawn server actor: %w", err)
	}
	reads := view.NewReadSide() // the session publishes, connections and the bus read
	busPID, err := spawnChild(system, root, events.PropsRead(0, log, history, reads), "events")
	if err != nil {
		listener.Close()
		return err
	}
	// Every pane of this server, popups included, shares one runtime.
	panes := pane.NewRuntime()
	clientsPID, err := spawnChild(system, root, clients.Props(clients.Options{Config: cfg, SocketPath: opts.SocketPath, BinPath: bin, Home: opts.Env("HOME"), Log: log, StartPane: panes.Start, Reads: reads, UI: model.RestoreUI(saved)}), "clients")
	if err != nil {
		listener.Close()
		return err
	}
	owners := map[protocol.Owner]*actor.PID{protocol.OwnerClients: clientsPID, protocol.OwnerEvents: busPID}
	pluginsPID, err := spawnChild(system, root, plugins.Props(plugins.Options{
		ConfigDir: protocol.ConfigDir(opts.Env), StateDir: protocol.StateDir(opts.Env),
		SocketPath: opts.SocketPath, BinPath: bin, Events: busPID, Clients: clientsPID, Log: log,
		HandedOver: heir != nil, Records: runs, Reads: reads,
	}), "plugins")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerPlugins] = pluginsPID
	integrationsPID, err := spawnChild(system, root, integrations.Props(opts.Env, log), "integrations")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerIntegrations] = integrationsPID
	agentsPID, err := spawnChild(system, root, agents.Props(agents.Options{Events: busPID, Log: log, Carried: carried, Clients: clientsPID, Answer: reads.Answerer(system.Root)}), "agents")
	if err != nil {
		listener.Close()
		return err
	}
	worktreesPID, err := spawnChild(system, root, worktrees.Props(worktrees.Options{Home: opts.Env("HOME"), Log: log, Reads: reads, Directory: cfg.Worktrees.Directory}), "worktrees")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerWorktrees] = worktreesPID
	paneProps := panes.Start
	if cfg.Experimental.PaneHistory {
		paneProps = panes.WithHistory(pane.DefaultHistoryBytes)
	}
	// Kept lines need the session file they sit beside, and a scrollback.
	var lines *pane.LinesWriter
	if a := cfg.Advanced; a.PersistScrollbackLines > 0 && sessionFile != "" && a.ScrollbackLimitBytes > 0 {
		lines = pane.NewLinesWriter(keeper.LinesDir(sessionFile), a.PersistScrollbackLines, int64(a.PersistScrollbackDiskMB)<<20, a.ScrollbackLimitBytes, log)
	} else if sessionFile != "" {
		// Turned off: what an earlier server kept goes too.
		if err := pane.RemoveKept(keeper.LinesDir(sessionFile)); err != nil {
			log.Warn("kept pane history not removed", "dir", keeper.LinesDir(sessionFile), "err", err)
		}
	}
	taskStore, savedTasks := openTaskStore(sessionFile, saved, log)
	keeperPID, err := spawnChild(system, root, keeper.Props(keeper.Options{SessionFile: sessionFile, Lines: lines, Log: log, Tasks: keptTasks(saved), UI: model.RestoreUI(saved), Reads: reads}), "keeper")
	if err != nil {
		listener.Close()
		return err
	}
	// File frames of graphics streams go in a private folder beside the
	// socket (Unix only; none offered when it cannot be made).
	var gfxDir string
	if cfg.Terminal.KittyGraphics && opts.SocketPath != "" {
		gfxDir = opts.SocketPath + ".frames"
		if err := protocol.PrepareGraphicsFileDir(gfxDir); err != nil {
			log.Info("graphics file frames not offered", "dir", gfxDir, "err", err)
			gfxDir = ""
		}
	}
	// server.reload_*: told the actors it hands a reload to once they exist.
	pols := &policies{}
	pols.set(cfg)
	reloadsPID, err := spawnChild(system, root, reloadsProps(reloadOptions{env: opts.Env, log: log, policies: pols,
		configPath: opts.ConfigPath, catalogDir: catalogDir, started: cfg, reads: reads}), "reloads")
	if err != nil {
		listener.Close()
		return err
	}
	// command.invoke (a reload's [[keys.command]] handed on by reloads).
	commandsPID, err := spawnChild(system, root, commands.Props(commands.Options{Reads: reads, Plugins: pluginsPID,
		Keys: cfg.Keys.Commands, Log: log}), "commands")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerCommands] = commandsPID
	panes.SendLinksTo(commandsPID) // pane.link.activate's links
	// pane.graphics.info's answers get the client's cell size there.
	panes.SendGraphicsTo(clientsPID, gfxDir)
	// The pane actors' supervisor, stopped after the session (below).
	panesPID, err := spawnChild(system, root, panesup.Props(panesup.Options{Log: log}), "panes")
	if err != nil {
		listener.Close()
		return err
	}
	// The workspace and tab actors' supervisor: connections send their
	// calls to it, with the records the session's read model holds.
	entitiesPID, err := spawnChild(system, root, entities.Props(entities.Options{Log: log}), "entities")
	if err != nil {
		listener.Close()
		return err
	}
	sessionPID, err := spawnChild(system, root, session.Props(session.Options{
		Panes:       panesPID,
		Entities:    entitiesPID,
		Reads:       reads,
		Events:      busPID,
		Agents:      agentsPID,
		Plugins:     pluginsPID,
		Worktrees:   worktreesPID,
		Catalog:     catalog,
		SocketPath:  opts.SocketPath,
		BinPath:     bin,
		Env:         opts.Env,
		Log:         log,
		Config:      cfg,
		Cols:        cfg.Advanced.HeadlessCols,
		Rows:        cfg.Advanced.HeadlessRows,
		SessionFile: sessionFile,
		Restore:     saved,
		Keeper:      keeperPID,
		Lines:       lines,
		Adopt:       adopt,
		PaneProps:   paneProps,
	}), "session")
	if err != nil {
		listener.Close()
		return err
	}
	// The actors that call the session as a client would route its reads
	// and its owners' calls from the read side, as connections do.
	routes := &kit.SessionRoutes{Reads: reads, Owners: kit.Owners{Agents: agentsPID, Entities: entitiesPID},
		GateOpen: func(gate string) bool { return cfg.GateOpen(gate) }}
	system.Root.Send(clientsPID, &clients.Peers{Session: sessionPID, Plugins: pluginsPID, Keeper: keeperPID})
	tasksPID, err := spawnChild(system, root, tasks.Props(tasks.Options{Events: busPID, Session: sessionPID, Routes: routes, Store: taskStore, Restore: savedTasks, Retention: taskRetention(cfg.Tasks), Log: log}), "tasks")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerTasks] = tasksPID
	buffersPID, err := spawnChild(system, root, buffers.Props(buffers.Options{Session: sessionPID, Routes: routes, Log: log}), "buffers")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerBuffers] = buffersPID
	loopPID, err := startLoop(system, root, cfg.Notify, sessionFile, heir != nil, sessionPID, routes, reads, agentsPID, busPID, log)
	if err != nil {
		listener.Close()
		return err
	}
	// worktree.diff and review.*: threads kept beside session.json.
	reviewPID, err := startReview(system, root, sessionFile, sessionPID, tasksPID, loopPID, busPID, routes, log)
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerLoop] = loopPID
	owners[protocol.OwnerReview] = reviewPID
	dispatcherPID, err := startDispatcher(system, root, cfg.Tasks, sessionPID, tasksPID, worktreesPID, busPID, routes, log)
	if err != nil {
		listener.Close()
		return err
	}
	agents := &machinesaved.SSHAgents{} // lent by clients (server.ssh_agent.register), used by the machines' ssh
	var fleetLeaving fleet.Leaving      // waited for as the server stops
	fleetPID, err := startFleet(system, root, opts.Env, cfg, opts.SocketPath, busPID, &fleetLeaving, log)
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerFleet] = fleetPID
	system.Root.Send(tasksPID, &tasks.SetFleet{PID: fleetIfJoined(cfg, fleetPID)})
	machinesPID, controlDir, err := startMachines(system, root, opts.Env, cfg, busPID, sessionPID, fleetPID, routes, agents, log)
	if err != nil {
		listener.Close()
		return err
	}
	system.Root.Send(reloadsPID, &reloadTargets{session: sessionPID, clients: clientsPID, commands: commandsPID, worktrees: worktreesPID,
		dispatcher: dispatcherPID, machines: machinesPID, tasks: tasksPID, loop: loopPID})
	owners[protocol.OwnerReloads] = reloadsPID
	if controlDir != "" {
		defer os.RemoveAll(controlDir)
	}
	owners[protocol.OwnerMachines] = machinesPID
	auditPID, err := spawnChild(system, root, audit.Props(audit.Options{Path: auditPath(opts.LogPath, opts.Env), Log: log}), "audit")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerAudit] = auditPID
	// A plugin command may be given longer than the default deadline.
	callDeadline := max(kit.DefaultCallDeadline, plug.CommandTimeout(opts.Env)+time.Minute)
	webPID, err := spawnChild(system, root, web.Props(web.Options{
		Session: sessionPID, Routes: routes, Events: busPID, Machines: machinesPID, Tasks: tasksPID, Loop: loopPID, Review: reviewPID, Clients: clientsPID, Log: log, CallDeadline: callDeadline,
		Listen: cfg.Web.Listen, AllowRemote: cfg.Web.AllowRemote, TokenPath: webTokenPath(opts.LogPath, opts.Env), KeepToken: heir != nil,
		Adopt:    heir.webAdoption(),
		Policies: pols.find, Locate: audit.ViewLocator{Newest: reads.Newest}, Audit: auditPID,
	}), "web")
	if err != nil {
		listener.Close()
		return err
	}
	owners[protocol.OwnerWeb] = webPID
	handoff := &handoffActors{system: system, root: root, session: sessionPID, clients: clientsPID, panes: panesPID, agents: agentsPID, tasks: tasksPID, web: webPID, loop: loopPID, bus: busPID, listener: listener, socket: opts.SocketPath,
		gate: gateway.NewAcceptGate(), log: log, args: os.Args[1:], bin: bin, busy: make(chan struct{}, 1),
		exit: func() {
			log.Info("handed off to a new server; exiting")
			if controlDir != "" {
				os.RemoveAll(controlDir) // os.Exit runs no deferred call
			}
			os.Exit(0)
		}}
	gw := gateway.Options{Listener: listener, Session: sessionPID, Reads: reads, AgentsActor: agentsPID, Entities: entitiesPID, Events: busPID, Owners: owners, Log: log, Stop: stop, Gate: handoff.gate,
		GateOpen:     func(gate string) bool { return cfg.GateOpen(gate) }, // the start's, as the session's
		CallDeadline: callDeadline, Agents: agents,
		Policies: pols.find, Locate: audit.ViewLocator{Newest: reads.Newest}, Audit: auditPID}
	if handoffSupported {
		gw.Handoff = handoff.handoff
	}
	if opts.SessionFile != "" { // beside session.json, kept whether or not it could be read
		notices := startDismissals(filepath.Join(filepath.Dir(opts.SessionFile), DismissedFile), log, stopped)
		gw.Dismiss = func(p protocol.Params, done func(error)) { notices.dismiss(p, done, stopped) }
	}
	if err := gw.Check(); err != nil {
		listener.Close()
		return err
	}
	if handoff.gateway, err = spawnChild(system, root, gateway.Props(gw), "gateway"); err != nil {
		listener.Close()
		return err
	}
	if heir != nil {
		// Ready once the session has adopted every terminal (it does so as
		// it starts, before it takes any message).
		if _, err := system.Root.RequestFuture(sessionPID, &session.HandoffExport{}, handoffTimeout).Result(); err != nil {
			heir.reply("fail: " + err.Error())
			return err
		}
		heir.reply("ready")
		log.Info("live handoff received", "terminals", len(heir.state.Panes), "next_seq", history.NextSeq, "events", len(history.Events))
	}

	fmt.Fprintf(opts.Banner, "herdr server running (version %s, protocol %d)\n  api socket: %s\n  logs: %s\n",
		protocol.Version, protocol.ProtocolVersion, opts.SocketPath, opts.LogPath)
	log.Info("server started", "socket", opts.SocketPath, "pid", os.Getpid())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	select {
	case <-stopped:
		log.Info("server.stop received")
	case sig := <-signals:
		log.Info("signal received", "signal", sig.String())
	}
	listener.Close()
	panes.BeginShutdown()
	// The session first: it tells the keeper its last save. Then the panes
	// (their supervisor answers StopAll once every one has stopped), which
	// hang up their terminals and hand their last lines as they stop.
	// Then the keeper, poisoned so it takes those first, writes them. Then
	// the root stops the rest. The session is poisoned, not stopped: a
	// change already in its mailbox (a workspace actor's rename, answered
	// before the stop came) is applied and saved first.
	if err := system.Root.PoisonFuture(sessionPID).Wait(); err != nil {
		log.Warn("stop session", "err", err)
	}
	if _, err := system.Root.RequestFuture(panesPID, &panesup.StopAll{}, 10*time.Second).Result(); err != nil {
		log.Warn("stop panes", "err", err)
	}
	if err := system.Root.PoisonFuture(keeperPID).Wait(); err != nil {
		log.Warn("stop keeper", "err", err)
	}
	if err := system.Root.StopFuture(root).Wait(); err != nil && !errors.Is(err, actor.ErrTimeout) {
		log.Warn("stop actors", "err", err)
	}
	// Panes that ignore the hangup are killed after a grace period; the
	// server outlives that, or nothing would be left to kill them.
	if !panes.AwaitExits(5 * time.Second) {
		log.Warn("some pane processes did not exit")
	}
	if !fleetLeaving.Wait(5 * time.Second) {
		log.Warn("the fleet had not finished leaving (its link's drain, the embedded hub's shutdown) when the server stopped")
	}
	system.Shutdown()
	log.Info("server stopped")
	return nil
}

// endLeftovers ends the processes of the panes a server that died left
// running (pane.EndLeftovers), from the sessions session.json recorded.
func endLeftovers(saved *model.Saved, socket string, log *slog.Logger) {
	var left []pane.Leftover
	for _, p := range saved.Processes() {
		left = append(left, pane.Leftover{Pid: p.Pid, Start: p.Start})
	}
	if n := pane.EndLeftovers(left, socket, log); n > 0 {
		log.Warn("ended processes a previous server left running", "processes", n)
	}
}

// pluginRunsDir is where running plugin commands are recorded: in the
// session's state folder, beside its log.
func pluginRunsDir(logPath string, env func(string) string) string {
	if logPath != "" {
		return filepath.Join(filepath.Dir(logPath), "plugin-runs")
	}
	return filepath.Join(protocol.StateDir(env), "plugin-runs")
}

// webTokenPath is the dashboard's token file: in the session's state
// folder, beside its log.
func webTokenPath(logPath string, env func(string) string) string {
	if logPath != "" {
		return filepath.Join(filepath.Dir(logPath), "web-token")
	}
	return filepath.Join(protocol.StateDir(env), "web-token")
}

// spawnChild spawns props as a named child of parent by asking parent to do it.
func spawnChild(system *actor.ActorSystem, parent *actor.PID, props *actor.Props, name string) (*actor.PID, error) {
	res, err := system.Root.RequestFuture(parent, &spawnRequest{props: props, name: name}, 5*time.Second).Result()
	if err != nil {
		return nil, fmt.Errorf("spawn %s: %w", name, err)
	}
	r := res.(*spawnResult)
	if r.err != nil {
		return nil, fmt.Errorf("spawn %s: %w", name, r.err)
	}
	return r.pid, nil
}

// rootProps are the root's: it keeps the structural actors alive. A panic
// in one resumes it with its state (a restart would stop every terminal
// the session supervises); the call that broke it was answered
// internal_error by its guard (kit.Guarded).
func rootProps(log *slog.Logger) *actor.Props {
	resume := actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
		log.Error("structural actor failed; resuming", "reason", reason)
		return actor.ResumeDirective
	})
	return actor.PropsFromFunc(receiveRoot, actor.WithSupervisor(resume), kit.Guarded(log))
}

// receiveRoot is the root actor: it only spawns the structural actors as
// its children, so their supervision is its strategy.
func receiveRoot(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *spawnRequest:
		pid, err := ctx.SpawnNamed(msg.props, msg.name)
		ctx.Respond(&spawnResult{pid: pid, err: err})
	case *runNow:
		msg.fn()
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// runNow is a scheduled piece of the server's own work (the exit after a
// live handoff), run by the root actor when its timer fires.
type runNow struct{ fn func() }

type spawnRequest struct {
	props *actor.Props
	name  string
}

type spawnResult struct {
	pid *actor.PID
	err error
}

// stableBinary is the path panes get as HERDR_BIN_PATH: bin, else the
// running executable, unless it is a temporary one that `go run` deletes
// when it ends; that one is copied next to the log, and the copy is used.
func stableBinary(log *slog.Logger, bin, logPath string) string {
	var err error
	if bin == "" {
		bin, err = os.Executable()
	}
	if err != nil || logPath == "" || !protocol.IsGoRunBinary(bin) {
		return bin
	}
	dst := filepath.Join(filepath.Dir(logPath), "bin", filepath.Base(bin))
	if err := copyExecutable(bin, dst); err != nil {
		log.Warn("temporary binary not copied; herdr inside panes may stop working", "bin", bin, "err", err)
		return bin
	}
	return dst
}

// copyExecutable copies an executable atomically into the state folder,
// which is the server's own: a link planted at dst is replaced, never
// written through.
func copyExecutable(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return protocol.WriteOwnFile(dst, data, 0o700)
}

// loadSession reads the session file to restore. A file that cannot be
// used was moved aside (and is reported here); one that cannot even be
// read is left alone and nothing is saved over it.
func loadSession(path string, log *slog.Logger, banner io.Writer) (string, *model.Saved) {
	if path == "" {
		return "", nil
	}
	saved, problem, err := keeper.ReadSessionFile(path)
	switch {
	case err != nil:
		log.Error("session file unreadable; this run will not save over it", "path", path, "err", err)
		fmt.Fprintf(banner, "warning: session file %s unreadable (%v); not restoring or saving\n", path, err)
		return "", nil
	case problem != "":
		log.Error("session file not restored", "path", path, "problem", problem)
		fmt.Fprintf(banner, "warning: session file not restored: %s\n", problem)
	case saved != nil:
		log.Info("restoring session", "path", path, "workspaces", len(saved.Workspaces))
	}
	return path, saved
}

func openLog(path string) (io.WriteCloser, error) {
	if path == "" {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	return protocol.OpenLogFile(path, protocol.MaxLogBytes)
}

// logLevel reads HERDR_LOG: a level (debug, info, warn, error), also in
// the target=level form ("herdr=debug"), the last one winning. Empty is info.
func logLevel(spec string) (slog.Level, error) {
	level := slog.LevelInfo
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if _, v, ok := strings.Cut(part, "="); ok {
			part = v
		}
		if part == "" {
			continue
		}
		if part == "warning" || part == "trace" {
			part = map[string]string{"warning": "warn", "trace": "debug"}[part]
		}
		if err := level.UnmarshalText([]byte(part)); err != nil {
			return slog.LevelInfo, fmt.Errorf("unknown level %q in %q", part, spec)
		}
	}
	return level, nil
}
