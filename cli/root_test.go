package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// --- harness ---------------------------------------------------------------

// testEnv is a fake environment rooted in a fresh short temp dir (Unix socket
// paths are limited to ~100 bytes, so t.TempDir's long names are avoided).
type testEnv map[string]string

func newEnv(t *testing.T) testEnv {
	t.Helper()
	home, err := os.MkdirTemp("", "hcli")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	return testEnv{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, "cfg"),
		"XDG_STATE_HOME":  filepath.Join(home, "state"),
	}
}

func (e testEnv) get(k string) string { return e[k] }

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, env testEnv, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(testRuntime, args, strings.NewReader(""), &out, &errb, env.get)
	return result{code, out.String(), errb.String()}
}

// request is one request the fake server received, with its connection number.
type request struct {
	conn int
	protocol.Request
}

// fakeServer answers newline-JSON requests: ping with a pong of the configured
// protocol, methods in replies with a canned line (%[1]s = request id),
// server.stop with ok before closing the listener, anything else by echoing
// method and params back as the result.
type fakeServer struct {
	sock     string
	ln       net.Listener
	protocol int
	version  string
	replies  map[string]string

	mu    sync.Mutex
	reqs  []request
	conns int
	wg    sync.WaitGroup
}

func startFake(t *testing.T, sock string) *fakeServer {
	t.Helper()
	if sock == "" {
		dir, err := os.MkdirTemp("", "hsrv")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		sock = filepath.Join(dir, "herdr.sock")
	}
	ln, err := protocol.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{sock: sock, ln: ln, protocol: protocol.ProtocolVersion, version: protocol.Version, replies: map[string]string{}}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns++
			n := f.conns
			f.mu.Unlock()
			f.wg.Add(1)
			go func() { defer f.wg.Done(); f.serve(n, conn) }()
		}
	}()
	t.Cleanup(func() { ln.Close(); f.wg.Wait() })
	return f
}

func (f *fakeServer) serve(n int, conn net.Conn) {
	defer conn.Close()
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var req protocol.Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(conn, "%s\n", protocol.EncodeError("", protocol.Errorf(protocol.CodeInvalidRequest, "%v", err)))
			continue
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, request{n, req})
		reply, canned := f.replies[req.Method]
		f.mu.Unlock()
		id, _ := json.Marshal(req.ID)
		switch {
		case req.Method == "ping":
			fmt.Fprintf(conn, `{"id":%s,"result":{"type":"pong","version":%q,"protocol":%d}}`+"\n", id, f.version, f.protocol)
		case canned:
			fmt.Fprintf(conn, reply+"\n", id)
		case req.Method == "server.stop":
			fmt.Fprintf(conn, `{"id":%s,"result":{"type":"ok"}}`+"\n", id)
			f.ln.Close()
			return
		default:
			params := req.Params
			if len(params) == 0 {
				params = json.RawMessage("null")
			}
			fmt.Fprintf(conn, `{"id":%s,"result":{"type":"echo","method":%q,"params":%s}}`+"\n", id, req.Method, params)
		}
	}
}

func (f *fakeServer) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// envFor points HERDR_SOCKET_PATH at the fake server.
func (f *fakeServer) envFor(t *testing.T) testEnv {
	env := newEnv(t)
	env["HERDR_SOCKET_PATH"] = f.sock
	return env
}

// sameJSON compares two JSON texts by value.
func sameJSON(t *testing.T, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("bad JSON %q: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("bad JSON %q: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

// errorLine decodes a one-line error response printed on stderr.
func errorLine(t *testing.T, s string) protocol.Response {
	t.Helper()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") {
		t.Fatalf("stderr is not one line: %q", s)
	}
	var resp protocol.Response
	if err := json.Unmarshal([]byte(s), &resp); err != nil || resp.Error == nil {
		t.Fatalf("stderr is not an error response: %q (%v)", s, err)
	}
	return resp
}

// --- usage, help, version --------------------------------------------------

func TestUsageErrorsExit2(t *testing.T) {
	f := startFake(t, "")
	env := f.envFor(t)
	cases := [][]string{
		{"pane", "list", "--bogus"},
		{"--bogus"},
		{"nosuchcommand"},
		{"pane", "nosuchverb"},
		{"pane", "read"},
		{"pane", "read", "w1:p1", "extra"},
		{"pane", "read", "w1:p1", "--source", "everything"},
		{"pane", "read", "w1:p1", "--lines", "many"},
		{"pane", "read", "w1:p1", "--format", "html"},
		{"pane", "read", "w1:p1", "--format", "text", "--raw"},
		{"pane", "run", "w1:p1"},
		{"pane", "send-keys", "w1:p1"},
		{"pane", "get"},
		{"pane", "rename", "w1:p1"},
		{"pane", "rename", "w1:p1", "x", "--clear"},
		{"pane", "split", "w1:p1"},
		{"pane", "split", "w1:p1", "--direction", "up"},
		{"pane", "split", "w1:p1", "--pane", "w1:p2", "--direction", "down"},
		{"pane", "split", "--current", "--direction", "down"}, // no $HERDR_PANE_ID
		{"pane", "split", "--direction", "right", "--ratio", "half"},
		{"pane", "wait-output", "w1:p1"},
		{"pane", "wait-output", "w1:p1", "--match", "a", "--regex", "b"},
		{"pane", "current", "--pane", "w1:p1", "--current"},
		{"workspace", "create", "--env", "NOEQUALS"},
		{"workspace", "create", "--env", "=value"},
		{"tab", "create", "--env", "=value"},
		{"pane", "split", "--direction", "down", "--env", "bad"},
		{"workspace", "create", "--focus", "--no-focus"},
		{"workspace", "create", "--cwd", ""},
		{"workspace", "rename", "w1"},
		{"tab", "get"},
		{"status", "everything"},
		{"server", "bogus"},
		{"--session"},
		{"pane", "list", "--bogus"},
		{"nonsense"},
		{"plugin", "pane", "open", "--entrypoint", "main"},
		{"plugin", "pane", "open", "--plugin", "p", "--entrypoint", "main", "--width", "wide"},
		{"plugin", "pane", "open", "--plugin", "p", "--entrypoint", "main", "--height", "150%"},
		{"plugin", "pane", "open", "--plugin", "p", "--entrypoint", "main", "--placement", "floating"},
		{"plugin", "pane", "close"},
		{"terminal", "session", "observe"},
		{"terminal", "session", "observe", "w1:p1", "extra"},
		{"terminal", "session", "observe", "w1:p1", "--cols", "0"},
		{"terminal", "session", "observe", "w1:p1", "--rows", "70000"},
		{"terminal", "session", "observe", "w1:p1", "--takeover"},
		{"terminal", "session", "control", "w1:p1", "--cols", "wide"},
		{"terminal", "session", "bogus"},
		{"terminal", "attach"},
		{"terminal", "attach", "term_1", "--cols", "80"},
		{"terminal", "title", "set"},
		{"terminal", "title", "set", "a", "b"},
		{"terminal", "title", "clear", "x"},
		{"agent", "attach"},
		{"--remote", ""},
		{"--remote", "devbox", "--no-session"},
		{"--remote"},
		{"remote-client-bridge", "extra"},
		// Refused by the server's own Validate, run before any socket use.
		{"pane", "report-metadata", "w1:p1", "--source", "   "},
		{"pane", "report-metadata", "w1:p1", "--source", "s", "--state-label", "bogus=X"},
		{"pane", "report-agent", "w1:p1", "--source", "  ", "--agent", "pi", "--state", "idle"},
		{"pane", "report-agent", "w1:p1", "--source", "s", "--agent", "pi", "--state", "sleepy"},
		{"pane", "report-agent", "w1:p1", "--source", "s", "--agent", "pi"},
		{"pane", "report-agent-session", "w1:p1", "--source", " ", "--agent", "pi"},
		{"pane", "release-agent", "w1:p1", "--source", " ", "--agent", "pi"},
		{"workspace", "report-metadata", "w1", "--source", "   "},
		{"notification", "show", "T", "--position", "middle"},
		{"notification", "show", "T", "--sound", "loud"},
		{"agent", "start", "a", "--kind", "nosuch", "--pane", "w1:p1"},
		{"agent", "start", "Bad", "--kind", "pi", "--pane", "w1:p1"},
		{"agent", "start", "a", "--kind", "pi", "--pane", "w1:p1", "--timeout", "3000"},
		{"agent", "rename", "w1:p1", "BadName"},
		{"agent", "rename", "w1:p1", "9lives"},
		{"pane", "zoom", "--on", "--off"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := run(t, env, args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2 (stdout %q stderr %q)", r.code, r.stdout, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want empty", r.stdout)
			}
			if !(strings.HasPrefix(r.stderr, "herdr: ") || strings.HasPrefix(r.stderr, "unknown ")) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting with herdr: or unknown", r.stderr)
			}
		})
	}
	if reqs := f.requests(); len(reqs) != 0 {
		t.Errorf("usage errors reached the server: %+v", reqs)
	}
	f.mu.Lock()
	conns := f.conns
	f.mu.Unlock()
	if conns != 0 {
		t.Errorf("usage errors opened %d connections to the socket", conns)
	}
}

// Mutually exclusive flags are worded as ours, not cobra's.
func TestUsageErrors_ExclusiveFlagsWording(t *testing.T) {
	env := newEnv(t)
	env["HERDR_SOCKET_PATH"] = filepath.Join(env["HOME"], "nowhere.sock")
	r := run(t, env, "pane", "zoom", "--on", "--off")
	want := "herdr: --off and --on cannot be used together (see 'herdr pane zoom --help')\n"
	if r.code != 2 || r.stdout != "" || r.stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
}

func TestBareGroupPrintsHelpOnStderrExit2(t *testing.T) {
	env := newEnv(t)
	for _, group := range []string{"pane", "workspace", "tab", "api"} {
		r := run(t, env, group)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "Usage:") || !strings.Contains(r.stderr, "herdr "+group) {
			t.Errorf("herdr %s: exit %d stdout %q stderr %q; want help on stderr, exit 2", group, r.code, r.stdout, r.stderr)
		}
	}
}

func TestHelpExits0(t *testing.T) {
	env := newEnv(t)
	cases := [][]string{
		{"--help"}, {"-h"}, {"help"}, {"help", "pane"}, {"pane", "--help"}, {"pane", "-h"}, {"pane", "help"},
		{"pane", "read", "--help"}, {"workspace", "create", "--help"}, {"server", "--help"}, {"status", "--help"},
		{"api", "--help"}, {"--session", "work", "tab", "--help"},
		{"terminal", "--help"}, {"terminal", "attach", "--help"}, {"terminal", "session", "--help"},
		{"terminal", "session", "observe", "--help"}, {"terminal", "session", "control", "--help"},
		{"terminal", "title", "--help"}, {"terminal", "title", "set", "--help"}, {"terminal", "title", "clear", "--help"},
		{"agent", "attach", "--help"}, {"remote-client-bridge", "--help"},
	}
	for _, args := range cases {
		r := run(t, env, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || r.stderr != "" {
			t.Errorf("%v: exit %d stdout %.60q stderr %q; want help on stdout, exit 0", args, r.code, r.stdout, r.stderr)
		}
	}
	// Every command documents itself.
	r := run(t, env, "api", "--help")
	if !strings.Contains(r.stdout, "pane.wait_for_output") {
		t.Errorf("api help does not list the methods: %q", r.stdout)
	}
}

func TestVersionAndBare(t *testing.T) {
	env := newEnv(t)
	for _, flag := range []string{"--version", "-V"} {
		r := run(t, env, flag)
		if r.code != 0 || r.stdout != "herdr "+protocol.Version+" ("+protocol.Build()+")\n" || !strings.HasPrefix(r.stdout, "herdr 0.9.5 (herdr-go ") {
			t.Errorf("%s: exit %d stdout %q", flag, r.code, r.stdout)
		}
	}
	r := run(t, env)
	if r.code != 1 || !strings.Contains(r.stderr, "needs a terminal") || r.stdout != "" {
		t.Errorf("bare herdr: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// --- server_not_running, sessions, protocol gate ---------------------------

func TestServerNotRunning(t *testing.T) {
	env := newEnv(t)
	def := filepath.Join(env["XDG_CONFIG_HOME"], "herdr", "herdr.sock")
	named := filepath.Join(env["XDG_CONFIG_HOME"], "herdr", "sessions", "work", "herdr.sock")
	cases := []struct {
		args    []string
		id      string
		message string
	}{
		{[]string{"pane", "list"}, "cli:pane:list", "no herdr server is running at " + def + "; run `herdr` to start or attach it"},
		{[]string{"pane", "run", "w1:p1", "ls"}, "cli:pane:run", "no herdr server is running at " + def + "; run `herdr` to start or attach it"},
		{[]string{"pane", "read", "w1:p1"}, "cli:pane:read", "no herdr server is running at " + def + "; run `herdr` to start or attach it"},
		{[]string{"--session", "work", "workspace", "list"}, "cli:workspace:list", "no herdr server is running at " + named + "; run `herdr --session work` to start or attach it"},
		{[]string{"workspace", "list", "--session", "work"}, "cli:workspace:list", "no herdr server is running at " + named + "; run `herdr --session work` to start or attach it"},
		{[]string{"--session", "default", "api", "snapshot"}, "cli:api:snapshot", "no herdr server is running at " + def + "; run `herdr` to start or attach it"},
	}
	for _, c := range cases {
		r := run(t, env, c.args...)
		if r.code != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d stdout %q, want 1 and nothing", c.args, r.code, r.stdout)
			continue
		}
		resp := errorLine(t, r.stderr)
		if resp.ID != c.id || resp.Error.Code != "server_not_running" || resp.Error.Message != c.message {
			t.Errorf("%v: got %s", c.args, r.stderr)
		}
	}

	// A socket path in a temp dir, via HERDR_SOCKET_PATH.
	env["HERDR_SOCKET_PATH"] = filepath.Join(env["HOME"], "none.sock")
	r := run(t, env, "tab", "list")
	if resp := errorLine(t, r.stderr); r.code != 1 || resp.Error.Code != "server_not_running" || !strings.Contains(resp.Error.Message, env["HERDR_SOCKET_PATH"]) {
		t.Errorf("HERDR_SOCKET_PATH: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestInvalidSessionName(t *testing.T) {
	env := newEnv(t)
	for _, args := range [][]string{
		{"--session", "../x", "pane", "list"},
		{"pane", "list", "--session", "a/b"},
		{"--session=", "status"},
		{"--session", "..", "server", "stop"},
	} {
		r := run(t, env, args...)
		if r.code != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d stdout %q", args, r.code, r.stdout)
			continue
		}
		if resp := errorLine(t, r.stderr); resp.Error.Code != "invalid_session_name" {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
	env["HERDR_SESSION"] = "bad/name"
	r := run(t, env, "pane", "list")
	if resp := errorLine(t, r.stderr); r.code != 1 || resp.Error.Code != "invalid_session_name" {
		t.Errorf("HERDR_SESSION: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestSessionFlagSelectsSocket(t *testing.T) {
	env := newEnv(t)
	f := startFake(t, protocol.SessionDir(env.get, "work")+"/herdr.sock")
	for _, args := range [][]string{
		{"--session", "work", "pane", "list"},
		{"pane", "--session", "work", "list"},
		{"pane", "list", "--session=work"},
	} {
		if r := run(t, env, args...); r.code != 0 {
			t.Errorf("%v: exit %d stderr %q", args, r.code, r.stderr)
		}
	}
	if n := len(f.requests()); n != 6 {
		t.Errorf("named-session server got %d requests, want 6 (3 × ping + pane.list)", n)
	}
	// HERDR_SESSION selects it too; an explicit --session beats HERDR_SOCKET_PATH.
	env["HERDR_SESSION"] = "work"
	if r := run(t, env, "pane", "list"); r.code != 0 {
		t.Errorf("HERDR_SESSION: exit %d stderr %q", r.code, r.stderr)
	}
	delete(env, "HERDR_SESSION")
	env["HERDR_SOCKET_PATH"] = filepath.Join(env["HOME"], "none.sock")
	if r := run(t, env, "--session", "work", "pane", "list"); r.code != 0 {
		t.Errorf("--session over HERDR_SOCKET_PATH: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestPingFirstOnSameConnection(t *testing.T) {
	f := startFake(t, "")
	r := run(t, f.envFor(t), "pane", "get", "w1:p2")
	if r.code != 0 {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[0].Method != "ping" || reqs[1].Method != "pane.get" || reqs[0].conn != reqs[1].conn {
		t.Fatalf("requests %+v, want ping then pane.get on one connection", reqs)
	}
}

func TestProtocolMismatch(t *testing.T) {
	f := startFake(t, "")
	f.protocol = 19
	f.version = "0.7.0"
	r := run(t, f.envFor(t), "pane", "send-text", "w1:p1", "hello")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q", r.code, r.stdout)
	}
	resp := errorLine(t, r.stderr)
	if resp.ID != "cli:pane:send-text" || resp.Error.Code != "protocol_mismatch" || !strings.Contains(resp.Error.Message, "19") {
		t.Errorf("stderr %q", r.stderr)
	}
	for _, req := range f.requests() {
		if req.Method != "ping" {
			t.Errorf("sent %s to a mismatched server", req.Method)
		}
	}
}

func TestErrorResponseGoesToStderr(t *testing.T) {
	f := startFake(t, "")
	const line = `{"id":%[1]s,"error":{"code":"pane_not_found","message":"pane w9:p9 not found"}}`
	f.replies["pane.get"] = line
	f.replies["pane.send_keys"] = line
	env := f.envFor(t)
	for _, args := range [][]string{{"pane", "get", "w9:p9"}, {"pane", "send-keys", "w9:p9", "Enter"}} {
		r := run(t, env, args...)
		if r.code != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d stdout %q, want 1 and nothing", args, r.code, r.stdout)
			continue
		}
		want := fmt.Sprintf(line, `"cli:pane:`+args[1]+`"`) + "\n"
		if r.stderr != want {
			t.Errorf("%v: stderr %q, want the response line %q", args, r.stderr, want)
		}
	}
}

func TestResponsePrintedVerbatim(t *testing.T) {
	f := startFake(t, "")
	const line = `{"id":%[1]s,"result":{"type":"pane_info","pane":{"pane_id":"w1:p2","label":"<b>&amp;","revision":3}}}`
	f.replies["pane.get"] = line
	r := run(t, f.envFor(t), "pane", "get", "w1:p2")
	if want := fmt.Sprintf(line, `"cli:pane:get"`) + "\n"; r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("exit %d stdout %q stderr %q, want stdout %q", r.code, r.stdout, r.stderr, want)
	}
}

// Unknown commands and options are worded as Herdr words them.
func TestUsageMessages(t *testing.T) {
	env := map[string]string{"HOME": t.TempDir()}
	for args, want := range map[string]string{
		"nonsense":             "unknown command: nonsense (see 'herdr --help')\n",
		"pane list --bogus":    "unknown option: --bogus (see 'herdr pane list --help')\n",
		"pane list -z":         "unknown option: -z (see 'herdr pane list --help')\n",
		"workspace frobnicate": "unknown command: frobnicate (see 'herdr workspace --help')\n",
	} {
		if r := run(t, env, strings.Fields(args)...); r.code != 2 || r.stderr != want {
			t.Errorf("%s: exit %d stderr %q, want 2 %q", args, r.code, r.stderr, want)
		}
	}
	if r := run(t, env, "completions", "bash"); r.code != 0 || !strings.Contains(r.stdout, "bash completion") {
		t.Errorf("completions bash: exit %d", r.code)
	}
}
