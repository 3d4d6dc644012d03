package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// The herdr command is two programs built from this one package. The front
// (cmd/herdr) is what a person, every script and every agent hook runs: the
// whole command line, linking neither the actor runtime (protoactor and the
// protobuf, prometheus and OpenTelemetry packages it imports) nor the
// interactive client (Bubble Tea and the emulator), whose package
// initialisation alone takes about 4 ms before main in every process, a
// cost each `herdr pane …` call would pay. herdr-full (cmd/herdr-full) is
// the same command line with both linked in (Runtime). The front hands it,
// by exec, the commands that need them (running a server, the interactive
// client, `config check`, which reports what the client does not support,
// and `herdr mcp`, whose SDK would cost every process its initialisation),
// so a person never names it; herdr-full gives its panes the front as
// HERDR_BIN_PATH when the front sits beside it.

// Runtime is what herdr-full links and the front does not.
type Runtime struct {
	// Serve runs a server in this process until it stops.
	Serve func(ServerOptions) error
	// Client runs the interactive client on this terminal until the
	// person detaches (detached) or the server goes (ErrServerStopped,
	// ErrServerGone, or another error).
	Client func(ClientOptions) (detached bool, err error)
	// ConfigDiagnostics are config.toml's problems as the client sees
	// them: the parser's, and keys it does not support.
	ConfigDiagnostics func(path string) []string
	// MCP serves `herdr mcp` until its client closes stdin (cli/mcp.go).
	MCP func(MCPOptions) error
}

// ServerOptions are what a server in this process runs with. The fields
// are actors/server.Options', in its order: herdr-full converts one into
// the other, so a field added there fails to compile until it is here.
type ServerOptions struct {
	SocketPath  string
	ConfigPath  string
	LogPath     string
	Env         func(string) string
	Banner      io.Writer
	SessionFile string
	BinPath     string
}

// ClientOptions are the interactive client's, tui.Options' fields in its
// order (converted as ServerOptions are).
type ClientOptions struct {
	Socket     string
	Cwd        string
	ConfigPath string
	Input      io.Reader
	Output     io.Writer
	Dial       func() (net.Conn, error)
	// DialMachine reaches a saved machine's server (machine_dial.go).
	DialMachine func(machine string) (net.Conn, error)
	// NoSessionSwitch: the session chooser lists but does not switch (the
	// server is reached through ssh, or ends with this client).
	NoSessionSwitch bool
	// ClientOnly: this process runs no server (not --no-session).
	ClientOnly bool
}

// How an interactive client ended when its server went away for good:
// the server said it was stopping, or nothing listens on its socket any
// more (it crashed).
var (
	ErrServerStopped = errors.New("the herdr server stopped")
	ErrServerGone    = errors.New("the herdr server exited")
)

// FullBinaryEnv names the herdr-full the front hands over to, instead of
// the one beside it.
const FullBinaryEnv = "HERDR_FULL_BINARY"

// The two programs' file names.
const (
	frontName = "herdr"
	fullName  = "herdr-full"
)

// exeName is a program's file name on this platform.
func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// handToFull runs this command line in herdr-full: on Unix in place of
// this process (its pid, terminal and descriptors stay), on Windows as a
// child whose exit status becomes this one's.
func (a *app) handToFull() int {
	bin, err := a.fullBinary()
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: %v\n", err)
		return 1
	}
	if err := execProgram(bin, a.args, a.stdin, a.stdout, a.stderr); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		fmt.Fprintf(a.stderr, "herdr: run %s: %v\n", bin, err)
		return 1
	}
	return 0
}

// fullBinary is the program that runs servers and the client: this one
// when it links them, else $HERDR_FULL_BINARY, else herdr-full beside this
// program, else, for a front built by `go run`, one built from the same
// source tree.
func (a *app) fullBinary() (string, error) {
	self, err := executable()
	if err != nil {
		return "", fmt.Errorf("cannot tell where this herdr binary is: %w", err)
	}
	if a.rt != nil {
		return self, nil
	}
	if bin := a.env(FullBinaryEnv); bin != "" {
		return bin, nil
	}
	beside := filepath.Join(filepath.Dir(self), exeName(fullName))
	if _, err := os.Stat(beside); err == nil {
		return beside, nil
	}
	if protocol.IsGoRunBinary(self) {
		return a.buildFull(self)
	}
	return "", fmt.Errorf("%s is missing: build it beside this herdr (go build -o %s ./cmd/herdr ./cmd/herdr-full) or set %s",
		beside, filepath.Dir(self)+string(filepath.Separator), FullBinaryEnv)
}

// buildFull builds herdr-full for a front that `go run` built (it lives in
// a temporary directory or the build cache, with nothing beside it) from
// the source tree the front was built from, into the state directory, with
// a copy of the front beside it for its panes: `go run ./cmd/herdr` stays
// the one command that runs herdr from a checkout. An up-to-date build is
// not redone (go build compares build ids). It runs with this process's
// environment, so GOCACHE and GOFLAGS are go run's and every package the
// front shares with herdr-full is a cache hit.
func (a *app) buildFull(front string) (string, error) {
	_, file, _, ok := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); !ok || err != nil {
		return "", errors.New("this herdr was built by go run away from its source tree: build both programs with go build -o DIR/ ./cmd/herdr ./cmd/herdr-full")
	}
	dir := filepath.Join(protocol.StateDir(a.env), "bin")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, exeName(fullName))
	progress := &buildProgress{w: a.stderr, start: time.Now()}
	if _, err := os.Stat(bin); err != nil {
		progress.announce(fmt.Sprintf("herdr: building herdr-full (first run, a minute or two) into %s", dir))
	} else {
		progress.later = fmt.Sprintf("herdr: rebuilding herdr-full in %s (the checkout changed)", dir)
	}
	// -v names each package as it is compiled (cached ones are not): a dot
	// for each says the build moves on.
	build := exec.Command("go", "build", "-v", "-o", bin, "./cmd/herdr-full")
	build.Dir = root
	build.Stdout = progress
	build.Stderr = progress
	build.WaitDelay = childWaitDelay // a process go build left holding the pipe cannot hang the front
	err := build.Run()
	progress.finish()
	if err != nil {
		return "", fmt.Errorf("build herdr-full: %v: %s", err, strings.TrimSpace(progress.out.String()))
	}
	if err := copyProgram(front, filepath.Join(dir, exeName(frontName))); err != nil {
		return "", err
	}
	return bin, nil
}

// buildProgress shows a go build -v as it goes: the announcement (said at
// once for a first build, at the first compiled package for a rebuild), a
// dot per package and the time taken. It keeps the output for an error.
type buildProgress struct {
	w        io.Writer
	start    time.Time
	later    string // announced when a package is compiled after all
	said     bool
	packages int
	partial  []byte // a line not yet ended
	out      bytes.Buffer
}

func (p *buildProgress) announce(line string) {
	fmt.Fprint(p.w, line)
	p.said = true
}

// Write counts the complete lines of go build's output.
func (p *buildProgress) Write(b []byte) (int, error) {
	p.out.Write(b)
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(p.partial[:i]))
		p.partial = p.partial[i+1:]
		if line == "" || strings.HasPrefix(line, "#") || strings.Contains(line, " ") {
			continue // not a package path: an error, told at the end
		}
		if !p.said {
			p.announce(p.later)
		}
		p.packages++
		fmt.Fprint(p.w, ".")
	}
	return len(b), nil
}

func (p *buildProgress) finish() {
	if !p.said {
		return
	}
	fmt.Fprintf(p.w, " done in %.0f s", time.Since(p.start).Seconds())
	switch p.packages {
	case 0:
		fmt.Fprintln(p.w)
	case 1:
		fmt.Fprintln(p.w, " (1 package compiled)")
	default:
		fmt.Fprintf(p.w, " (%d packages compiled)\n", p.packages)
	}
}

// frontBinary is the program a server's panes call herdr: the front beside
// this program when there is one, else this program itself.
func (a *app) frontBinary() string {
	self, err := executable()
	if err != nil {
		return ""
	}
	if front := filepath.Join(filepath.Dir(self), exeName(frontName)); front != self {
		if _, err := os.Stat(front); err == nil {
			return front
		}
	}
	return self
}

// executable is this program's path, symlinks resolved (a front linked
// into PATH finds herdr-full beside its real file).
func executable() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(self)
}

// copyProgram copies an executable atomically.
func copyProgram(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return protocol.WriteFileAtomic(dst, b, 0o755)
}
