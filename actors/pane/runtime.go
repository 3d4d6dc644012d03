package pane

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/protocol"
)

// Runtime is what every pane of a server shares: the poller that reads
// their terminals (poller_unix.go), the output gate, whose turns panes
// read and apply output in (so panes flooding together leave a core
// free), the pool that runs their mailboxes, the reaper of their children, and the count
// of stopped panes whose processes may still run. A server makes one
// (actors/server) and starts every pane through it (Start, Adopt); tests
// make their own. Nothing of it is package state, so two servers in one
// process (tests) share nothing.
type Runtime struct {
	gate   *gate
	pool   *kit.Pool
	reaper *reaper
	// procs is the process table the panes' detectors walk (procs.Host;
	// tests put a fake one here).
	procs procs.Table
	// reaping counts the stopped panes whose processes may still be
	// running; shuttingDown is set when the server begins to exit.
	reaping      sync.WaitGroup
	shuttingDown atomic.Bool
	// detectors is the props the panes' detectors start from, shared by
	// every pane started with the same catalog: a Props is only read once
	// made, and one per pane was about 300 bytes each idle pane kept.
	detectors atomic.Pointer[detectorProps]
	// detecting counts the panes' detectors running (Detectors).
	detecting atomic.Int64
	// links is the actor the panes hand pane.link.activate's links to
	// (links.go).
	links atomic.Pointer[actor.PID]
	// graphics is where pane.graphics.info's answers go, and the file
	// frame directory (links.go).
	graphics atomic.Pointer[graphicsTo]
	// trim hands back the memory of panes gone quiet (compact.go).
	trim memTrim
	// polling reads every pane's terminal where the platform can
	// (poller_unix.go; poller_windows.go: nothing).
	polling
}

type detectorProps struct {
	catalog *rules.Catalog
	props   *actor.Props
}

// detectorProps returns the props of a detector with catalog. Panes start
// on several goroutines; two that miss at once each make props, and either
// is as good.
func (rt *Runtime) detectorProps(catalog *rules.Catalog) *actor.Props {
	if d := rt.detectors.Load(); d != nil && d.catalog == catalog {
		return d.props
	}
	// One guardian per props supervises the detectors (restarts one that
	// panics): a pane spawns its detector as no child of its own (detect.go).
	props := detector.Props(catalog, rt.procs).Configure(actor.WithGuardian(detector.Supervision(nil)))
	d := &detectorProps{catalog: catalog, props: props}
	rt.detectors.Store(d)
	return d.props
}

// Detectors is the number of the panes' detector actors running: one per
// pane with something to detect, none for an idle shell's (detect.go).
func (rt *Runtime) Detectors() int { return int(rt.detecting.Load()) }

// NewRuntime makes the shared runtime of a server's panes, sized for the
// cores Go runs on: at most GOMAXPROCS-1 (at least one) goroutines read
// or apply pane output at once, together, and GOMAXPROCS goroutines run
// pane mailboxes.
func NewRuntime() *Runtime {
	return &Runtime{
		gate:   newGate(max(1, runtime.GOMAXPROCS(0)-1)),
		pool:   kit.NewPool(runtime.GOMAXPROCS(0)),
		reaper: newReaper(),
		procs:  procs.Host,
	}
}

// WithHistory returns a Start whose panes keep historyBytes of output for
// pane.history (record.go; 0: none, which is what Start does).
func (rt *Runtime) WithHistory(historyBytes int) func(Spec) (*actor.Props, func(), error) {
	return func(spec Spec) (*actor.Props, func(), error) {
		spec.HistoryBytes = historyBytes
		return rt.Start(spec)
	}
}

// Start starts spec's program on a new terminal and returns the props of
// the actor that owns it, or, when spec.Adopt is set, adopts the terminal
// a live handoff brought (Adopt). The program is started here, before any
// actor exists, so a caller learns that it cannot start (a missing
// interpreter, no descriptors left) while it can still refuse the request
// and change nothing. abort undoes the start when the actor cannot be
// spawned.
func (rt *Runtime) Start(spec Spec) (props *actor.Props, abort func(), err error) {
	if a := spec.Adopt; a != nil {
		spec.Adopt = nil
		return rt.Adopt(spec, *a)
	}
	con, err := startConsole(consoleSpec{Argv: spec.Argv, Dir: spec.Cwd, Env: spec.Env, Cols: spec.Cols, Rows: spec.Rows, Pixels: spec.KittyGraphics, reaper: rt.reaper})
	if err != nil {
		return nil, nil, err
	}
	spec.Env = nil // the program has it; the pane needs no copy
	props, abort = rt.props(spec, con, nil)
	return props, abort, nil
}

// Adopt is Start for a terminal another process handed over: its program
// is already running; its emulator state comes with it.
func (rt *Runtime) Adopt(spec Spec, a Adoption) (props *actor.Props, abort func(), err error) {
	con, err := adoptConsole(a)
	if err != nil {
		return nil, nil, err
	}
	props, abort = rt.props(spec, con, a.Emulator)
	return props, abort, nil
}

// props makes the props of the actor of con's terminal (adopted: the
// emulator state it comes with, see Adopt) and the abort that stops its
// programs when that actor cannot be spawned. The pool runs the mailboxes
// of every pane: a keystroke's echo makes two bursts of a pane (the
// input, then its output), and a fresh goroutine for each, its stack
// grown again, showed on the echo's path.
// lockFree is the panes' mailbox: protoactor's default keeps a ring that
// starts at ten slots and never shrinks from a burst's size (~210 bytes
// an idle pane, more after a flood); the lock-free one holds a node per
// waiting message. The option holds no state: every pane's props share it.
var lockFree = actor.WithMailbox(actor.UnboundedLockfree())

func (rt *Runtime) props(spec Spec, con console, adopted []byte) (*actor.Props, func()) {
	abort := func() {
		con.Hangup()
		con.Kill()
		go con.Wait()
	}
	// A connection that sends the pane its calls may run the mailbox on
	// its own goroutine when it is idle (kit.PaneRoute's Post).
	disp := &kit.Inline{Next: rt.pool}
	// The producer hands out the one Pane made here (a pane is stopped,
	// never restarted: actors/panes), so the props, which live as long
	// as the actor, hold a pointer rather than a copy of the spec.
	// The guard wraps the Pane rather than being a props option: no
	// context extras, no envelope per message (kit.GuardActor).
	p := kit.GuardActor(&Pane{rt: rt, spec: spec, con: con, adopted: adopted, disp: disp}, spec.Log, true)
	props := actor.PropsFromProducer(func() actor.Actor { return p }, actor.WithDispatcher(disp), lockFree)
	return props, abort
}

// BeginShutdown makes every pane stopped from now on take all of its
// terminal's processes with it, background jobs included, rather than only
// its shell: the server is going and must leave nothing behind.
func (rt *Runtime) BeginShutdown() { rt.shuttingDown.Store(true) }

// AwaitExits waits until every stopped pane's processes have exited or been
// killed, at most timeout; it reports whether they all went.
func (rt *Runtime) AwaitExits(timeout time.Duration) bool {
	return kit.WaitAtMost(&rt.reaping, timeout)
}

// CheckCwd is the folder a terminal starts in: cwd, else home, else /;
// it must be an absolute path to a directory.
func CheckCwd(cwd, home string) (string, error) {
	if cwd == "" {
		cwd = home
	}
	if cwd == "" {
		cwd = "/"
	}
	if !filepath.IsAbs(cwd) {
		return "", protocol.ParamError("cwd", "must be an absolute path, got %q", cwd)
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return "", protocol.ParamError("cwd", "%s is not a directory", cwd)
	}
	return cwd, nil
}

// outerMarkers name the terminal the server was started in, or the agent
// that started it (as Herdr 0.9.2 does): a program in a pane runs in
// herdr's terminal, not in that one, and not under that agent.
var outerMarkers = []string{"TERM_SESSION_ID", "ITERM_SESSION_ID", "WT_SESSION", "KITTY_WINDOW_ID", "WEZTERM_PANE",
	"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"}

// TerminalEnv is a terminal's environment, sorted: the server's less
// drop and the outer terminal's session markers, then extra, then herdr's
// own variables, which win (TERM, COLORTERM, TERM_PROGRAM=herdr with the
// Herdr version this server implements, HERDR_ENV, HERDR_BIN_PATH and
// own); the server's own binary comes first on PATH, so `herdr` works in
// every terminal.
func TerminalEnv(extra map[string]string, drop []string, binPath string, own map[string]string) []string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	for _, k := range slices.Concat(drop, outerMarkers) {
		delete(env, k)
	}
	maps.Copy(env, extra)
	if dir := filepath.Dir(binPath); binPath != "" && !slices.Contains(filepath.SplitList(env["PATH"]), dir) {
		env["PATH"] = dir + string(filepath.ListSeparator) + env["PATH"]
	}
	env["TERM"], env["COLORTERM"], env["HERDR_ENV"], env["HERDR_BIN_PATH"] = "xterm-256color", "truecolor", "1", binPath
	env["TERM_PROGRAM"], env["TERM_PROGRAM_VERSION"] = "herdr", protocol.Version
	maps.Copy(env, own)
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}
