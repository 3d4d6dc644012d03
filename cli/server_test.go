package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func TestServerStop(t *testing.T) {
	f := startFake(t, "")
	r := run(t, f.envFor(t), "server", "stop")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q, want silent success", r.code, r.stdout, r.stderr)
	}
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Method != "server.stop" || reqs[0].ID != "cli:session:stop" {
		t.Errorf("requests %+v, want only server.stop", reqs)
	}
	if _, err := os.Stat(f.sock); !os.IsNotExist(err) {
		t.Errorf("socket still there: %v", err)
	}
}

func TestServerStopNotRunning(t *testing.T) {
	env := newEnv(t)
	r := run(t, env, "server", "stop")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "not running") {
		t.Errorf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestServerStopRefusedOrStuck(t *testing.T) {
	f := startFake(t, "")
	f.replies["server.stop"] = `{"id":%[1]s,"error":{"code":"internal_error","message":"no"}}`
	r := run(t, f.envFor(t), "server", "stop")
	if r.code != 1 || !strings.Contains(r.stderr, `"internal_error"`) {
		t.Errorf("error response: exit %d stderr %q", r.code, r.stderr)
	}

	// The server acknowledges but keeps its socket: time out.
	f.replies["server.stop"] = `{"id":%[1]s,"result":{"type":"ok"}}`
	defer func(d time.Duration) { stopTimeout = d }(stopTimeout)
	stopTimeout = 200 * time.Millisecond
	r = run(t, f.envFor(t), "server", "stop")
	if r.code != 1 || !strings.Contains(r.stderr, "did not stop") {
		t.Errorf("stuck server: exit %d stderr %q", r.code, r.stderr)
	}
}

// TestServerRunSocketBusy runs `herdr server` against a socket a live server
// already owns: it must fail with exit 1 and an error line, having prepared
// the named session's log directory.
func TestServerRunSocketBusy(t *testing.T) {
	env := newEnv(t)
	startFake(t, filepath.Join(protocol.SessionDir(env.get, "work"), protocol.SocketName))
	done := make(chan result, 1)
	go func() { done <- run(t, env, "--session", "work", "server") }()
	select {
	case r := <-done:
		if r.code != 1 || !strings.HasPrefix(r.stderr, "error: ") {
			t.Errorf("exit %d stderr %q, want 1 and an error line", r.code, r.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("herdr server did not give up on a busy socket")
	}
	if st, err := os.Stat(filepath.Join(env["XDG_STATE_HOME"], "herdr", "sessions", "work")); err != nil || !st.IsDir() {
		t.Errorf("named session log directory missing: %v", err)
	}
}

func TestStatus(t *testing.T) {
	env := newEnv(t)
	sock := filepath.Join(env["XDG_CONFIG_HOME"], "herdr", "herdr.sock")

	r := run(t, env, "status")
	for _, want := range []string{"client:\n  version: " + protocol.Version + "\n  channel: stable\n  protocol: 22\n",
		"server:\n  status: not running\n  socket: " + sock + "\n", "update:\n  restart_needed: no\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("not running: stdout %q lacks %q", r.stdout, want)
		}
	}
	if r.code != 0 {
		t.Errorf("not running: exit %d", r.code)
	}

	f := startFake(t, sock)
	r = run(t, env, "status")
	for _, want := range []string{"status: running\n  version: " + protocol.Version + "\n  protocol: 22\n  compatible: yes\n  socket: " + sock + "\n", "restart_needed: no\n"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("running: exit %d stdout %q lacks %q", r.code, r.stdout, want)
		}
	}

	f.protocol, f.version = 19, "0.7.0"
	r = run(t, env, "status", "--json")
	var st statusReport
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil || st.Server == nil || st.Client == nil || st.Update == nil {
		t.Fatalf("--json: exit %d stdout %q", r.code, r.stdout)
	}
	s := st.Server
	if s.Status != "running" || !s.Running || *s.Protocol != 19 || *s.Version != "0.7.0" || *s.Compatible || !*s.RestartNeeded || s.Socket != sock || s.Session != "default" {
		t.Errorf("--json server %+v", s)
	}
	if st.Client.Protocol != 22 || !*st.Update.RestartNeeded {
		t.Errorf("--json client %+v update %+v", st.Client, st.Update)
	}

	r = run(t, env, "status", "client")
	if r.code != 0 || !strings.Contains(r.stdout, "binary: ") || strings.Contains(r.stdout, "server:") {
		t.Errorf("status client: %q", r.stdout)
	}
	r = run(t, env, "status", "server")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "server:\n") || strings.Contains(r.stdout, "client:") {
		t.Errorf("status server: %q", r.stdout)
	}
}
