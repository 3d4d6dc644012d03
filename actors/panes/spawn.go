package panes

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Spawner starts panes: it picks the program (the setup's command, else
// the configured shell), checks the folder, makes the terminal's
// environment and spec, starts the terminal and spawns its actor under
// the supervisor, inside the session's message (a pane that cannot start
// fails its call, and its PID is there for the next forward). The session
// holds one and decides only where a pane goes (its ids, its size, its
// kept lines: Pane).
type Spawner struct {
	// Sup is the supervisor the pane actors are spawned under.
	Sup *actor.PID
	// Start starts a terminal (or adopts the one in the spec) and makes
	// its actor's props: the server's pane.Runtime.Start.
	Start func(pane.Spec) (props *actor.Props, abort func(), err error)
	// Adopt holds, by terminal id, the terminals a live handoff brought:
	// the pane with that terminal id goes on with it, once.
	Adopt map[string]pane.Adoption
	// Owner is told each pane's facts and its program's end (the session).
	Owner *actor.PID
	// Scrolled answers each pane's pane.scroll from the read side
	// (pane.Spec.Scrolled).
	Scrolled func(root *actor.RootContext, to *actor.PID, m *pane.InfoAnswer)

	// What every pane starts with: herdr's program and socket (its
	// environment), the home folder (a folder's "~"), the server's
	// environment (where the shell is looked for), the bus, the log.
	BinPath, SocketPath, Home string
	Env                       protocol.Env
	Events                    *actor.PID
	Log                       *slog.Logger
	// Config is the configuration new panes start with (the shell, the
	// scrollback) and Catalog the agents' manifests: the session replaces
	// them when it reloads them. KittyGraphics is [terminal]
	// kitty_graphics as the server started.
	Config        config.Config
	Catalog       *rules.Catalog
	KittyGraphics bool
}

// Setup is what a new pane's terminal starts with.
type Setup struct {
	Cwd     string
	Env     map[string]string // the caller's variables
	Command []string          // argv to run instead of the shell
}

// Pane is one pane to start: its public ids (and label), its terminal,
// its size in cells, the lines kept for it (the session's), its setup.
type Pane struct {
	IDs        pane.IDs
	TermID     string
	Cols, Rows int
	Keep       *pane.KeepLines
	Setup
}

// CheckCwd resolves a requested working directory; an empty one means fallback.
func (sp *Spawner) CheckCwd(requested *string, fallback string) (string, error) {
	cwd := fallback
	if requested != nil && *requested != "" {
		cwd = *requested
	}
	return pane.CheckCwd(cwd, sp.Home)
}

// Argv is the program a new pane runs: command, else the shell. Callers
// check it before changing anything, because a program that cannot start
// would give a pane that closes at once.
func (sp *Spawner) Argv(command []string) ([]string, error) {
	argv := command
	if len(argv) == 0 {
		env := sp.Env
		if env == nil {
			env = os.Getenv
		}
		shell, args, skipped := sp.Config.StartableShell(env)
		if len(skipped) > 0 && sp.Log != nil { // a default_shell not installed must not fail every split
			sp.Log.Warn("shell cannot start; falling back", "skipped", strings.Join(skipped, "; "), "shell", shell)
		}
		argv = append([]string{shell}, args...)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", argv[0], err)
	}
	return argv, nil
}

// Spec is what p's terminal starts with, running argv.
func (sp *Spawner) Spec(p Pane, argv []string) pane.Spec {
	log := sp.Log
	if log == nil {
		log = slog.Default()
	}
	return pane.Spec{
		TerminalID:      p.TermID,
		Argv:            argv,
		Cwd:             p.Cwd,
		Env:             Env(p.Env, sp.BinPath, sp.SocketPath, p.IDs),
		Cols:            p.Cols,
		Rows:            p.Rows,
		ScrollbackBytes: sp.Config.Advanced.ScrollbackLimitBytes,
		KittyGraphics:   sp.KittyGraphics,
		Catalog:         sp.Catalog,
		Log:             kit.LazyWith(log, "pane", p.IDs.PaneID, "terminal", p.TermID),
		Keep:            p.Keep,
		IDs:             p.IDs,
		Events:          sp.Events,
	}
}

// StartPane starts p's program and spawns its actor under the supervisor,
// from inside ctx's message: the actor's PID, or why the pane cannot
// start (pane_split_failed), in which case nothing is left running.
func (sp *Spawner) StartPane(ctx actor.Context, p Pane) (*actor.PID, error) {
	argv, err := sp.Argv(p.Command)
	if err != nil {
		return nil, err
	}
	props, abort, err := sp.Props(sp.Spec(p, argv))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", argv[0], err)
	}
	return sp.Spawn(ctx, p.TermID, props, abort)
}

// Adopting reports whether a live handoff brought terminal termID.
func (sp *Spawner) Adopting(termID string) bool {
	_, ok := sp.Adopt[termID]
	return ok
}

// Prepare is spec told its owner and given the terminal a live handoff
// brought for it, if one did (taken: a terminal is adopted once).
func (sp *Spawner) Prepare(spec pane.Spec) pane.Spec {
	spec.Owner, spec.Scrolled = sp.Owner, sp.Scrolled
	if a, ok := sp.Adopt[spec.TerminalID]; ok {
		delete(sp.Adopt, spec.TerminalID)
		spec.Adopt = &a
	}
	return spec
}

// Props starts spec's terminal, or adopts the one a live handoff brought
// for it (Prepare).
func (sp *Spawner) Props(spec pane.Spec) (*actor.Props, func(), error) {
	return sp.Start(sp.Prepare(spec))
}

// Spawn spawns the actor of terminal termID's started terminal (props)
// with the supervisor as its parent, from inside ctx's message; abort
// ends the terminal when it cannot be spawned.
func (sp *Spawner) Spawn(ctx actor.Context, termID string, props *actor.Props, abort func()) (*actor.PID, error) {
	pid, err := actor.DefaultSpawner(ctx.ActorSystem(), sp.Sup.Id+"/"+termID, props, parentAs{ctx, sp.Sup})
	if err != nil {
		abort()
		return nil, protocol.Errorf(protocol.CodePaneSplitFailed, "start pane: %v", err)
	}
	return pid, nil
}

// parentAs is ctx with another actor as the one spawning: the spawned
// actor's parent, which supervises it and is told when it stops.
type parentAs struct {
	actor.Context
	parent *actor.PID
}

func (p parentAs) Self() *actor.PID { return p.parent }

// Env is a pane's environment: the server's, then the caller's (extra),
// then herdr's own variables, which win.
func Env(extra map[string]string, binPath, socket string, ids pane.IDs) []string {
	return pane.TerminalEnv(extra, []string{"CODEX_THREAD_ID"}, binPath, map[string]string{
		"HERDR_SOCKET_PATH":  socket,
		"HERDR_WORKSPACE_ID": ids.WorkspaceID,
		"HERDR_TAB_ID":       ids.TabID,
		"HERDR_PANE_ID":      ids.PaneID,
	})
}

// Start is one terminal to start (Spec) and what starting it gave.
type Start struct {
	Spec  pane.Spec
	Props *actor.Props
	Abort func()
	Err   error
}

// StartAll starts the terminals of starts (already Prepared), a few at
// once: a shell's fork and exec wait on the kernel more than on this
// process, and one after another they made a restore of 3,000 panes take
// 15 s. It touches nothing but starts (Start is safe on any goroutine) and
// returns once all have started or failed.
func (sp *Spawner) StartAll(starts []*Start) {
	next := make(chan *Start)
	var wg sync.WaitGroup
	for range min(len(starts), max(2, 2*runtime.GOMAXPROCS(0)), 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for st := range next {
				st.start(sp.Start)
			}
		}()
	}
	for _, st := range starts {
		next <- st
	}
	close(next)
	wg.Wait()
}

// start starts st's terminal; a start that panics is a start that failed
// (it runs off the caller's Receive, whose guard would not see it).
func (st *Start) start(props func(pane.Spec) (*actor.Props, func(), error)) {
	defer func() {
		if r := recover(); r != nil {
			st.Props, st.Abort, st.Err = nil, nil, fmt.Errorf("panic: %v", r)
		}
	}()
	st.Props, st.Abort, st.Err = props(st.Spec)
}
