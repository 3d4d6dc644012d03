package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// How plain `herdr` waits for a server it started.
var (
	startPollInterval = 50 * time.Millisecond
	startTimeout      = 15 * time.Second
)

// attach is plain `herdr`: start the session's server when nothing
// listens, then run the interactive client until the user detaches.
func (a *app) attach() int {
	const id = "cli:attach"
	if a.rt == nil {
		return a.handToFull()
	}
	if a.env("HERDR_ENV") == "1" && !nestingAllowed(a.env) {
		fmt.Fprintln(a.stderr, "herdr: nested herdr is disabled: this shell runs inside a herdr pane (HERDR_ENV=1). Detach first (prefix q), drive this session with `herdr <noun> <verb>`, or set [experimental] allow_nested = true.")
		return 1
	}
	if !a.onTerminal() {
		fmt.Fprintln(a.stderr, "herdr: the interactive client needs a terminal on stdin and stdout; use `herdr <noun> <verb>` from scripts")
		return 1
	}
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	if a.noSession {
		return a.monolithic(sock)
	}
	if conn, err := protocol.Dial(sock, time.Second); err == nil {
		conn.Close()
	} else if errors.Is(err, protocol.ErrUnsafeSocket) {
		return a.fail(id, unsafeSocket(err)) // no server of ours can start there either
	} else if code := a.startServer(sock); code != 0 {
		return code
	}
	c, _, code := a.connect(id) // pings and checks the protocol
	if c == nil {
		return code
	}
	c.Close()
	defer a.lendAgent(sock)()
	return a.runClient(ClientOptions{Socket: sock})
}

// nestingAllowed is [experimental] allow_nested of config.toml: a client
// may then run inside a herdr pane (its prefix key is the outer client's
// unless one of them rebinds it).
func nestingAllowed(env func(string) string) bool {
	cfg, _, _ := config.Load(config.Path(env))
	return cfg.Experimental.AllowNested
}

// runClient runs the interactive client on this terminal until the user
// detaches or the server goes.
func (a *app) runClient(opts ClientOptions) int {
	opts.Cwd, _ = a.getwd()
	opts.ConfigPath = a.env("HERDR_CONFIG_PATH")
	if opts.ConfigPath == "" {
		opts.ConfigPath = filepath.Join(protocol.ConfigDir(a.env), "config.toml")
	}
	opts.Input, opts.Output = a.stdin, a.stdout
	opts.NoSessionSwitch = opts.Dial != nil || a.noSession
	opts.ClientOnly = !a.noSession
	if opts.Dial == nil { // the saved machines are this machine's: its server's fleet
		opts.DialMachine = a.dialMachine
	}
	detached, err := a.rt.Client(opts)
	var sw interface{ SessionSwitch() string }
	switch {
	case errors.As(err, &sw) && opts.Dial == nil && !a.noSession:
		// The session chooser picked another session: attach to it in
		// this process, starting its server when none runs.
		a.session = sw.SessionSwitch()
		return a.attach()
	case errors.As(err, &sw):
		fmt.Fprintf(a.stderr, "[detached; this client cannot switch sessions — `herdr session attach %s` does]\n", sw.SessionSwitch())
		return 0
	case detached && a.noSession:
		fmt.Fprintln(a.stderr, "[detached; --no-session: the server and its panes stop with this client]")
		return 0
	case detached:
		fmt.Fprintf(a.stderr, "[detached; the server keeps running — `%s` reattaches]\n", a.herdrCmd(""))
		return 0
	case errors.Is(err, ErrServerStopped): // as tmux's client says [server exited]
		fmt.Fprintln(a.stderr, "[herdr server stopped]")
		return 0
	case errors.Is(err, ErrServerGone):
		fmt.Fprintln(a.stderr, "[herdr server exited: nothing listens on its socket]")
		return 1
	case err != nil:
		fmt.Fprintf(a.stderr, "herdr: %v\n", err)
		return 1
	}
	return 0
}

// serverLog is the log file of the server at sock.
func (a *app) serverLog(sock string) string {
	dir := protocol.StateDir(a.env)
	if name := a.serverSession(sock); name != protocol.DefaultSession {
		dir = filepath.Join(dir, "sessions", name)
	}
	return filepath.Join(dir, "herdr-server.log")
}

// startServer runs `herdr [--session NAME] server` in its own session with
// its output appended to the server log, and waits for its socket.
func (a *app) startServer(sock string) int {
	logPath := a.serverLog(sock)
	logFile, err := protocol.OpenPrivateLog(logPath)
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: %v\n", err)
		return 1
	}
	defer logFile.Close()
	exe, err := a.fullBinary()
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: %v\n", err)
		return 1
	}
	args := []string{"server"}
	if a.session != "" {
		args = []string{"--session", a.session, "server"}
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, logFile, logFile
	if cwd, err := a.getwd(); err == nil {
		cmd.Dir = cwd
	}
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(a.stderr, "herdr: start the server: %v\n", err)
		return 1
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }() // reaps it should it fail early
	deadline := time.Now().Add(startTimeout)
	for {
		if conn, err := protocol.Dial(sock, 250*time.Millisecond); err == nil {
			conn.Close()
			return 0
		}
		select {
		case <-exited:
			fmt.Fprintf(a.stderr, "herdr: the server exited before it was ready; see its log: %s\n", logPath)
			return 1
		default:
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(a.stderr, "herdr: the server did not come up within %v at %s; see its log: %s\n", startTimeout, sock, logPath)
			return 1
		}
		time.Sleep(startPollInterval)
	}
}

// onTerminal reports whether stdin and stdout are both a terminal.
func (a *app) onTerminal() bool {
	in, inOK := a.stdin.(*os.File)
	out, outOK := a.stdout.(*os.File)
	return inOK && outOK && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
}
