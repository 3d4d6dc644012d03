package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// WaitTimeout bounds every WaitFor and server start/stop.
const WaitTimeout = 10 * time.Second

// CallTimeout bounds one socket request (wait_for_output tests stay far below).
const CallTimeout = 20 * time.Second

var (
	// ModuleRoot is the directory holding go.mod.
	ModuleRoot string
	// HerdrBin is the binary built once by TestMain.
	HerdrBin string
	// GoCaches are the go tool's cache variables, for a home's environment.
	GoCaches []string
)

// Main builds the binaries and runs an area's tests: every area's
// TestMain is os.Exit(Main(m)).
func Main(m *testing.M) int {
	root, err := findModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	ModuleRoot = root
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e: go env:", err)
			return 1
		}
		GoCaches = append(GoCaches, v+"="+strings.TrimSpace(string(out)))
	}
	dir, done, err := binDir(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer done()
	HerdrBin = filepath.Join(dir, "herdr") // herdr-full beside it runs servers and clients
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/herdr", "./cmd/herdr-full")
	build.Dir = ModuleRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build failed: %v\n%s", err, out)
		return 1
	}
	defer stopBrowser()
	return m.Run()
}

// binDir is where the binaries are built: a folder of the user's cache
// per checkout, which every package of the suite shares (go build relinks
// nothing that is up to date, so only the first package of a run pays for
// the link), else a temporary one, removed by done.
func binDir(root string) (dir string, done func(), err error) {
	if cache, err := os.UserCacheDir(); err == nil {
		sum := sha256.Sum256([]byte(root))
		dir = filepath.Join(cache, "herdr-e2e", hex.EncodeToString(sum[:6]))
		if err := os.MkdirAll(dir, 0o700); err == nil {
			return dir, func() {}, nil
		}
	}
	dir, err = os.MkdirTemp("", "herdr-e2e-bin")
	return dir, func() { os.RemoveAll(dir) }, err
}

// findModuleRoot walks up from the working directory to the first go.mod.
func findModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// WaitFor polls cond until it holds, failing the test after waitTimeout.
func WaitFor(t testing.TB, why string, cond func() bool) {
	t.Helper()
	if !Eventually(cond) {
		t.Fatalf("timed out after %v waiting for %s", WaitTimeout, why)
	}
}

// Eventually polls cond until it holds (true) or waitTimeout passes (false).
func Eventually(cond func() bool) bool {
	deadline := time.Now().Add(WaitTimeout)
	delay := 10 * time.Millisecond
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(delay) // poll interval, not a wait for a condition
		if delay < 100*time.Millisecond {
			delay *= 2
		}
	}
}

// Home is a throw-away set of XDG directories a server and its CLI share.
type Home struct {
	Dir        string
	ConfigHome string
	Env        []string
}

// SessionFile is where the server of session name keeps its session.
func (h *Home) SessionFile(name string) string {
	return filepath.Join(h.ConfigHome, "herdr", "sessions", name, "session.json")
}

// NewHome creates a short temporary directory (Unix socket paths must stay
// under ~100 bytes) with config, home and state directories and a config
// that makes panes run /bin/sh. It is removed when the test ends.
func NewHome(t testing.TB) *Home {
	t.Helper()
	RequireUnixShell(t)
	dir, err := os.MkdirTemp("", "hd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	h := &Home{Dir: dir, ConfigHome: filepath.Join(dir, "c")}
	home, state := filepath.Join(dir, "h"), filepath.Join(dir, "s")
	for _, d := range []string{filepath.Join(h.ConfigHome, "herdr"), home, state} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	h.WriteConfig(t, "")
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "HERDR_"), k == "XDG_CONFIG_HOME", k == "XDG_STATE_HOME", k == "HOME":
			continue
		}
		h.Env = append(h.Env, kv)
	}
	h.Env = append(h.Env, "XDG_CONFIG_HOME="+h.ConfigHome, "HOME="+home, "XDG_STATE_HOME="+state)
	// A herdr built by go run builds herdr-full with the go tool: it keeps
	// the real build and module caches, which HOME would otherwise move.
	h.Env = append(h.Env, GoCaches...)
	return h
}

// WriteConfig writes config.toml: the /bin/sh shell setting plus extra.
func (h *Home) WriteConfig(t testing.TB, extra string) {
	t.Helper()
	body := "[terminal]\ndefault_shell = \"/bin/sh\"\n" + extra
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Socket is the API socket path of session name.
func (h *Home) Socket(name string) string {
	return filepath.Join(h.ConfigHome, "herdr", "sessions", name, "herdr.sock")
}

// Server is one running `herdr --session NAME server` child process.
type Server struct {
	T      testing.TB
	Home   *Home
	Name   string
	Socket string
	Env    []string

	Cmd    *exec.Cmd
	Out    *SyncBuffer
	ExitCh chan struct{}
	Err    error // the Wait result, valid once exited is closed
}

// StartServer starts a server in a fresh home; see (*Home).Start.
func StartServer(t testing.TB) *Server {
	t.Helper()
	return NewHome(t).Start(t, "e2e")
}

// Start runs `herdr --session name server`, waits until its socket answers
// ping, and registers a cleanup that stops it (server.stop, then SIGKILL
// after a deadline) and waits for it to exit.
func (h *Home) Start(t testing.TB, name string) *Server {
	t.Helper()
	s := &Server{T: t, Home: h, Name: name, Socket: h.Socket(name), Env: h.Env, Out: &SyncBuffer{}, ExitCh: make(chan struct{})}
	if len(s.Socket) > 100 {
		t.Fatalf("socket path too long (%d bytes): %s", len(s.Socket), s.Socket)
	}
	s.Cmd = exec.Command(HerdrBin, "--session", name, "server")
	s.Cmd.Env = h.Env
	s.Cmd.Dir = h.Dir
	s.Cmd.Stdout, s.Cmd.Stderr = s.Out, s.Out
	if err := s.Cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	go func() { s.Err = s.Cmd.Wait(); close(s.ExitCh) }()
	t.Cleanup(s.Stop)

	// A start may build herdr-full first (a front run from go run's
	// temporary folder does), which under a loaded CI takes longer than a
	// call's wait.
	deadline := time.Now().Add(3 * WaitTimeout)
	for {
		if s.PingOnce() {
			return s
		}
		select {
		case <-s.ExitCh:
			t.Fatalf("server exited before answering ping: %v\n%s", s.Err, s.Out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not answer ping within %v\n%s", 3*WaitTimeout, s.Out.String())
		}
		time.Sleep(10 * time.Millisecond) // poll interval
	}
}

func (s *Server) PingOnce() bool {
	c, err := protocol.Connect(s.Socket)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.Conn().SetDeadline(time.Now().Add(time.Second))
	resp, err := c.Do("ready", "ping", nil)
	return err == nil && resp.Error == nil
}

// Exited reports whether the server process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.ExitCh:
		return true
	default:
		return false
	}
}

// WaitExit waits for the process to end and returns its exit code.
func (s *Server) WaitExit(t testing.TB) int {
	t.Helper()
	select {
	case <-s.ExitCh:
	case <-time.After(WaitTimeout):
		t.Fatalf("server did not exit within %v", WaitTimeout)
	}
	return s.Cmd.ProcessState.ExitCode()
}

// Kill sends SIGKILL and waits for the process to end.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	_ = s.Cmd.Process.Signal(syscall.SIGKILL)
	s.WaitExit(t)
}

// Output is what the server printed on stdout and stderr so far.
func (s *Server) Output() string { return s.Out.String() }

func (s *Server) Stop() {
	if !s.Exited() {
		// A test that held its process's share of connections closes them
		// just before; until the server has seen them go, it refuses this
		// process as busy, so the stop is asked again for a while.
		for deadline := time.Now().Add(5 * time.Second); ; {
			c, err := protocol.Connect(s.Socket)
			if err != nil {
				break
			}
			_ = c.Conn().SetDeadline(time.Now().Add(2 * time.Second))
			resp, err := c.Do("cleanup", "server.stop", nil)
			c.Close()
			if err != nil || resp.Error == nil || resp.Error.Code != protocol.CodeServerUnavailable || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		select {
		case <-s.ExitCh:
		case <-time.After(WaitTimeout):
			s.T.Errorf("server %s did not exit within %v after server.stop; killing it", s.Name, WaitTimeout)
			_ = s.Cmd.Process.Signal(syscall.SIGKILL)
			<-s.ExitCh
		}
	}
	if s.T.Failed() {
		s.T.Logf("server %s output:\n%s", s.Name, s.Out.String())
		log := filepath.Join(s.Home.Dir, "s", "herdr", "sessions", s.Name, "herdr-server.log")
		if b, err := os.ReadFile(log); err == nil {
			if len(b) > 8000 {
				b = b[len(b)-8000:]
			}
			s.T.Logf("server %s log tail:\n%s", s.Name, b)
		}
	}
}

// Dial opens a raw connection to the server's socket.
func (s *Server) Dial(t testing.TB) *protocol.Client {
	t.Helper()
	c, err := protocol.Connect(s.Socket)
	if err != nil {
		t.Fatalf("connect %s: %v", s.Socket, err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.Conn().SetDeadline(time.Now().Add(CallTimeout))
	return c
}

// Call sends one request on a fresh connection and returns the response,
// after validating the raw line against the schema.
func (s *Server) Call(method string, params any) protocol.Response {
	s.T.Helper()
	return s.CallT(s.T, method, params)
}

// CallT is Call reporting to t (for subtests).
func (s *Server) CallT(t testing.TB, method string, params any) protocol.Response {
	t.Helper()
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		t.Fatalf("encode params: %v", err)
	}
	line, err := json.Marshal(protocol.Request{ID: "t:" + method, Method: method, Params: p})
	if err != nil {
		t.Fatalf("encode request: %v", err)
	}
	c := s.Dial(t)
	defer c.Close()
	raw, err := c.RoundTrip(line)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	resp := DecodeResponse(t, raw)
	if resp.ID != "t:"+method {
		t.Errorf("%s: response id %q, want %q", method, resp.ID, "t:"+method)
	}
	return resp
}

// DecodeResponse validates one response line against the schema and decodes it.
func DecodeResponse(t testing.TB, raw []byte) protocol.Response {
	t.Helper()
	ValidateResponseLine(t, raw)
	var resp protocol.Response
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("undecodable response %s: %v", Clip(raw), err)
	}
	if (resp.Error == nil) == (resp.Result == nil) {
		t.Errorf("response must have exactly one of result and error: %s", Clip(raw))
	}
	return resp
}

// ReadResponse reads, validates and decodes one line from c.
func ReadResponse(t testing.TB, c *protocol.Client) protocol.Response {
	t.Helper()
	raw, err := c.ReadLine()
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	return DecodeResponse(t, raw)
}

// OK checks that resp is a success of type want and decodes its result into T.
func OK[T any](t testing.TB, resp protocol.Response, want string) T {
	t.Helper()
	var out T
	if resp.Error != nil {
		t.Fatalf("want %s result, got error %s: %s", want, resp.Error.Code, resp.Error.Message)
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(resp.Result, &head); err != nil {
		t.Fatalf("undecodable result %s: %v", Clip(resp.Result), err)
	}
	if head.Type != want {
		t.Fatalf("result type %q, want %q: %s", head.Type, want, Clip(resp.Result))
	}
	if err := json.Unmarshal(resp.Result, &out); err != nil {
		t.Fatalf("decode %s result: %v", want, err)
	}
	return out
}

// Fail checks that resp is an error with code and returns its message.
func Fail(t testing.TB, resp protocol.Response, code string) string {
	t.Helper()
	if resp.Error == nil {
		t.Fatalf("want error %s, got result %s", code, Clip(resp.Result))
	}
	if resp.Error.Code != code {
		t.Fatalf("error code %q (%s), want %q", resp.Error.Code, resp.Error.Message, code)
	}
	if resp.Error.Message == "" {
		t.Errorf("error %s has an empty message", code)
	}
	return resp.Error.Message
}

// CLI runs the built binary with the server's env and --session NAME.
// JSON response lines on stdout and stderr are validated against the schema.
func (s *Server) CLI(args ...string) (stdout, stderr string, code int) {
	s.T.Helper()
	return s.CLIT(s.T, args...)
}

// CLIT is CLI reporting to t.
func (s *Server) CLIT(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	return RunCLI(t, s.Env, append([]string{"--session", s.Name}, args...)...)
}

// RunCLI runs herdr with env and args exactly as given.
func RunCLI(t testing.TB, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, HerdrBin, args...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("herdr %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		t.Fatalf("herdr %s: timed out after %v", strings.Join(args, " "), CallTimeout)
	}
	validateCLIOutput(t, out.Bytes())
	validateCLIOutput(t, errb.Bytes())
	return out.String(), errb.String(), code
}

// validateCLIOutput checks every line of CLI output that is a response
// envelope (a JSON object with "id" and "result" or "error").
func validateCLIOutput(t testing.TB, b []byte) {
	t.Helper()
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var env map[string]json.RawMessage
		if json.Unmarshal(line, &env) != nil {
			continue
		}
		_, hasID := env["id"]
		_, hasResult := env["result"]
		_, hasError := env["error"]
		if hasID && (hasResult || hasError) {
			ValidateResponseLine(t, line)
		}
	}
}

// CLIResponse decodes the single response line a JSON CLI command printed.
func CLIResponse(t testing.TB, out string) protocol.Response {
	t.Helper()
	out = strings.TrimSpace(out)
	if strings.Contains(out, "\n") {
		t.Fatalf("want one JSON line, got:\n%s", out)
	}
	var resp protocol.Response
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("CLI printed no response line (%v):\n%s", err, out)
	}
	return resp
}

// Lines splits text into lines with trailing blanks trimmed.
func Lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, strings.TrimRight(l, " \r"))
	}
	return out
}

// HasLine reports whether text has a line equal to want (ignoring surrounding spaces).
func HasLine(text, want string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

// Read returns the text of pane.read with source and lines (0 = omitted).
func (s *Server) Read(t testing.TB, pane, source string, lines int) protocol.PaneReadResult {
	t.Helper()
	params := map[string]any{"pane_id": pane, "source": source}
	if lines > 0 {
		params["lines"] = lines
	}
	return OK[protocol.PaneRead](t, s.CallT(t, "pane.read", params), "pane_read").Read
}

// WaitPrompt waits until the pane's shell has printed something (its
// prompt): typed ahead of that, a command's echo and the prompt share a line.
func (s *Server) WaitPrompt(t testing.TB, pane string) {
	t.Helper()
	WaitFor(t, "a prompt in pane "+pane, func() bool {
		return strings.TrimSpace(s.Read(t, pane, "visible", 0).Text) != ""
	})
}

// Run waits for the pane's prompt, then types a command line and Enter.
func (s *Server) Run(t testing.TB, pane, line string) {
	t.Helper()
	s.WaitPrompt(t, pane)
	OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "text": line, "keys": []string{"Enter"}}), "ok")
}

// WaitLine waits until a recent read of pane shows a line equal to want.
func (s *Server) WaitLine(t testing.TB, pane, want string) string {
	t.Helper()
	var text string
	if !Eventually(func() bool {
		text = s.Read(t, pane, "recent", 200).Text
		return HasLine(text, want)
	}) {
		t.Fatalf("timed out after %v waiting for pane %s to show a line %q; it shows:\n%s", WaitTimeout, pane, want, text)
	}
	return text
}

// CreateWorkspace creates a workspace and returns the result.
func (s *Server) CreateWorkspace(t testing.TB, params map[string]any) protocol.WorkspaceCreated {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	return OK[protocol.WorkspaceCreated](t, s.CallT(t, "workspace.create", params), "workspace_created")
}

// PaneIDs lists pane ids from pane.list.
func (s *Server) PaneIDs(t testing.TB) []string {
	t.Helper()
	var ids []string
	for _, p := range OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list").Panes {
		ids = append(ids, p.PaneID)
	}
	return ids
}

// Refused reports whether nothing listens at the socket any more.
func Refused(sock string) bool {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err == nil {
		c.Close()
		return false
	}
	return protocol.IsNotRunning(err)
}

func Clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// SyncBuffer is a bytes.Buffer safe for a child's stdout and stderr.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// GitRepo makes a repository with one commit at dir.
func GitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// ServerLog is the log of the home's server of session name.
func (h *Home) ServerLog(name string) string {
	b, _ := os.ReadFile(filepath.Join(h.Dir, "s", "herdr", "sessions", name, "herdr-server.log"))
	return string(b)
}

// AgentScreens is the folder of recorded agent screens the fake agent CLIs
// print (the detection rules' test data); a test fails at once when it has
// moved, rather than watching agents that print nothing.
func AgentScreens(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(ModuleRoot, "actors", "detector", "rules", "testdata", "screens")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the recorded agent screens are not at %s: %v", dir, err)
	}
	return dir
}
