//go:build unix

package persist

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A session.json that is a link to /dev/zero or a FIFO does not stop the
// server starting (it used to grow without end, or wait for a writer): it
// is reported and kept aside as it was, and the session is saved anew.
func TestE2E_HardeningPersist_SessionFileNotARegularFile(t *testing.T) {
	for name, c := range map[string]struct {
		create func(path string) error
		aside  func(os.FileInfo, string) bool
	}{
		"devzero": {
			func(path string) error { return os.Symlink("/dev/zero", path) },
			func(fi os.FileInfo, path string) bool {
				target, _ := os.Readlink(path)
				return fi.Mode()&os.ModeSymlink != 0 && target == "/dev/zero"
			},
		},
		"fifo": {
			func(path string) error { return syscall.Mkfifo(path, 0o600) },
			func(fi os.FileInfo, _ string) bool { return fi.Mode()&os.ModeNamedPipe != 0 },
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := NewHome(t)
			file := h.SessionFile("odd")
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := c.create(file); err != nil {
				t.Fatal(err)
			}
			s := h.Start(t, "odd") // fails the test unless it answers within seconds
			if out := s.Output(); !strings.Contains(out, "session file not restored") || !strings.Contains(out, "moved aside") {
				t.Fatalf("not reported at start:\n%s", out)
			}
			if log := h.ServerLog("odd"); !strings.Contains(log, "session file not restored") {
				t.Fatalf("not in the log:\n%s", log)
			}
			s.CreateWorkspace(t, map[string]any{"label": "fresh"})
			StopAndWait(t, s)
			aside, _ := filepath.Glob(file + ".bad-*")
			if len(aside) != 1 {
				t.Fatalf("kept aside: %v", aside)
			}
			if fi, err := os.Lstat(aside[0]); err != nil || !c.aside(fi, aside[0]) {
				t.Fatalf("the aside %s is not the original: %v %v", aside[0], fi.Mode(), err)
			}
			if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), `"fresh"`) {
				t.Fatalf("the new session was not saved: %v %.200s", err, b)
			}
		})
	}
}

// A session.json with a good workspace and one whose layout is bad: the
// server starts with the good one, the log names the bad one and counts
// it as failed, and the first save keeps the original file aside with
// its bytes before replacing it.
func TestE2E_HardeningPersist_BadLayoutWorkspaceReportedAndKept(t *testing.T) {
	for name, badLayout := range map[string]string{
		"no pane":         `{}`,
		"diagonal split":  `{"Split":{"direction":"Diagonal","ratio":0.5,"first":{"Pane":1},"second":{"Pane":2}}}`,
		"pane in a split": `{"Split":{"direction":"Vertical","ratio":0.5,"first":{"Pane":1},"second":{"Pane":1}}}`,
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			h := NewHome(t)
			file := h.SessionFile("lay")
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"version":3,"active":0,"workspaces":[`+
				`{"id":"w1","custom_name":"good","identity_cwd":%[1]q,"tabs":[{"layout":{"Pane":1},"panes":{"1":{"cwd":%[1]q}}}]},`+
				`{"id":"w2","custom_name":"broken","identity_cwd":%[1]q,"tabs":[{"layout":%[2]s,"panes":{"1":{"cwd":%[1]q}}}]}]}`, h.Dir, badLayout)
			if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			s := h.Start(t, "lay")
			list := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list")
			if len(list.Workspaces) != 1 || list.Workspaces[0].Label != "good" {
				t.Fatalf("restored %+v, want the good workspace only", list.Workspaces)
			}
			log := h.ServerLog("lay")
			if !strings.Contains(log, `msg="saved workspace not restored" workspace=w2 name=broken`) {
				t.Fatalf("the bad workspace is not named in the log:\n%s", log)
			}
			if !strings.Contains(log, `msg="session restored" workspaces=1 panes=1 failed=1`) {
				t.Fatalf("not counted as failed:\n%s", log)
			}
			StopAndWait(t, s)
			aside, _ := filepath.Glob(file + ".bad-*")
			if len(aside) != 1 {
				t.Fatalf("kept aside: %v", aside)
			}
			if b, _ := os.ReadFile(aside[0]); string(b) != body {
				t.Fatalf("the aside copy is not the original:\n%s", b)
			}
			if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"good"`) || strings.Contains(string(b), `"broken"`) {
				t.Fatalf("saved session:\n%.400s", b)
			}
		})
	}
}

// A symlink planted at session.json while the server runs is not followed
// when it saves: the file it points at is unchanged, and the session is
// saved as a plain file in its place.
func TestE2E_HardeningPersist_PlantedSessionLinkNotFollowed(t *testing.T) {
	h := NewHome(t)
	victim := filepath.Join(h.Dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "plant")
	s.CreateWorkspace(t, map[string]any{"label": "mine"})
	file := h.SessionFile("plant")
	os.Remove(file)
	if err := os.Symlink(victim, file); err != nil {
		t.Fatal(err)
	}
	StopAndWait(t, s)
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("the link's target was overwritten:\n%.300s", b)
	}
	fi, err := os.Lstat(file)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("session.json after the save: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"mine"`) {
		t.Fatalf("session not saved:\n%.300s", b)
	}
}

// An agent's settings.json that is a link to /dev/zero or a FIFO makes
// `integration install` fail at once with a one-line error saying so (it
// used to grow the server or hang the integration queue); the queue then
// serves the next install.
func TestE2E_HardeningPersist_IntegrationSettingsNotARegularFile(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "integ")
	settings := filepath.Join(h.Dir, "h", ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, create := range map[string]func(string) error{
		"devzero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"fifo":    func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		os.Remove(settings)
		if err := create(settings); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := s.CLI("integration", "install", "claude")
		resp := CLIResponse(t, stderr)
		if code != 1 || resp.Error == nil || resp.Error.Code != protocol.CodeIntegrationInstallFailed ||
			!strings.Contains(resp.Error.Message, "not a regular file") {
			t.Fatalf("%s: install exited %d: %s", name, code, stderr)
		}
	}
	os.Remove(settings)
	if err := os.WriteFile(settings, []byte(`{"model":"opus"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := s.CLI("integration", "install", "claude"); code != 0 {
		t.Fatalf("install after the bad files: %d %s", code, stderr)
	}
}

// listenRecording serves a Unix socket at path and reports, once the
// test ends it, whether any client wrote anything to it.
func listenRecording(t *testing.T, path string) func() string {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(got)
				return
			}
			go func() {
				defer c.Close()
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				b, _ := io.ReadAll(c)
				got <- string(b)
			}()
		}
	}()
	return func() string {
		l.Close()
		var all strings.Builder
		for {
			select {
			case s, ok := <-got:
				if !ok {
					return all.String()
				}
				all.WriteString(s)
			case <-time.After(3 * time.Second):
				return all.String()
			}
		}
	}
}

// With HOME and the XDG variables unset the socket falls back to the
// temporary folder; a folder there planted by another user is refused
// before anything is sent, with a one-line unsafe_socket error.
func TestE2E_HardeningPersist_CLIRefusesAPlantedFallbackFolder(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to plant a folder as another user")
	}
	tmp, err := os.MkdirTemp("", "hdfb")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	planted := filepath.Join(tmp, fmt.Sprintf("herdr-%d", os.Getuid()))
	if err := os.Mkdir(planted, 0o755); err != nil {
		t.Fatal(err)
	}
	received := listenRecording(t, filepath.Join(planted, "herdr.sock"))
	if err := os.Chown(planted, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range NewHome(t).Env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "HOME" && k != "TMPDIR" && !strings.HasPrefix(k, "XDG_") {
			env = append(env, kv)
		}
	}
	env = append(env, "TMPDIR="+tmp)
	_, stderr, code := RunCLI(t, env, "workspace", "list")
	resp := CLIResponse(t, stderr)
	if code != 1 || resp.Error == nil || resp.Error.Code != protocol.CodeUnsafeSocket ||
		!strings.Contains(resp.Error.Message, planted+": owned by uid 12345") {
		t.Fatalf("CLI with a planted fallback folder: exit %d: %s", code, stderr)
	}
	if got := received(); got != "" {
		t.Fatalf("the planted socket received %q", got)
	}
}

// A socket in a safe folder served by another user is refused after the
// connection, before a request is written: the CLI names the uid.
func TestE2E_HardeningPersist_CLIRefusesAnotherUsersServer(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to serve a socket as another user")
	}
	python := "/usr/bin/python3" // a system python any user may run
	if _, err := os.Stat(python); err != nil {
		t.Skip("needs /usr/bin/python3 to listen as another user")
	}
	sock := filepath.Join(os.TempDir(), fmt.Sprintf("hdpeer-e2e-%d.sock", os.Getpid()))
	os.Remove(sock)
	defer os.Remove(sock)
	script := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4); print("ready", flush=True)
c,_=s.accept(); c.settimeout(3)
try: data=c.recv(256)
except Exception: data=b""
print("got", repr(data), flush=True)`
	cmd := exec.Command(python, "-c", script, sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("listener: %q", lines.Text())
	}
	h := NewHome(t)
	_, stderr, code := RunCLI(t, append(h.Env, "HERDR_SOCKET_PATH="+sock), "workspace", "list")
	resp := CLIResponse(t, stderr)
	if code != 1 || resp.Error == nil || resp.Error.Code != protocol.CodeUnsafeSocket ||
		!strings.Contains(resp.Error.Message, "uid 65534") {
		t.Fatalf("CLI with another user's server: exit %d: %s", code, stderr)
	}
	if !lines.Scan() || lines.Text() != "got b''" {
		t.Fatalf("the other user's server received %s", lines.Text())
	}
	cmd.Wait()
}
