//go:build unix

package persist

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// processGone reports whether pid has exited (a zombie counts as gone).
func processGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	m := regexp.MustCompile(`\) (\S)`).FindSubmatch(data)
	return m != nil && string(m[1]) == "Z"
}

// printedPID runs line in pane and returns the number it prints after tag=.
func printedPID(t *testing.T, s *Server, pane, line, tag string) int {
	t.Helper()
	s.Run(t, pane, line)
	re := regexp.MustCompile(`(?m)^` + tag + `=(\d+)$`)
	var pid int
	WaitFor(t, tag+" printed", func() bool {
		m := re.FindStringSubmatch(s.Read(t, pane, "recent", 50).Text)
		if m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		return pid > 0
	})
	return pid
}

// A program that ignores SIGHUP must not outlive the server, whether it is
// stopped through the API or by a signal.
func TestE2E_ServerExitTakesPanesThatIgnoreHangup(t *testing.T) {
	for _, how := range []string{"server stop", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			s := StartServer(t)
			s.CreateWorkspace(t, nil)
			shell := printedPID(t, s, "w1:p1", "trap '' HUP; echo shell=$$", "shell")
			job := printedPID(t, s, "w1:p1", "sleep 1000 & echo job=$!", "job")
			t.Cleanup(func() { syscall.Kill(shell, syscall.SIGKILL); syscall.Kill(job, syscall.SIGKILL) })
			if how == "SIGTERM" {
				s.Cmd.Process.Signal(syscall.SIGTERM)
			} else if _, stderr, code := s.CLI("server", "stop"); code != 0 {
				t.Fatalf("server stop: exit %d: %s", code, stderr)
			}
			s.WaitExit(t)
			for _, pid := range []int{shell, job} {
				if !Eventually(func() bool { return processGone(pid) }) {
					t.Errorf("process %d outlived the server", pid)
				}
			}
		})
	}
}

// A pane whose shell was killed closes even while a background job it
// started still holds the terminal open.
func TestE2E_PaneOfKilledShellCloses(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	job := printedPID(t, s, "w1:p1", "sleep 1000 & echo job=$!", "job")
	t.Cleanup(func() { syscall.Kill(job, syscall.SIGKILL) })
	s.Run(t, "w1:p1", "kill -9 $$")
	WaitFor(t, "w1:p1 closed", func() bool {
		for _, id := range s.PaneIDs(t) {
			if id == "w1:p1" {
				return false
			}
		}
		return true
	})
	if processGone(job) {
		t.Error("the background job should survive its shell, as under tmux")
	}
}

// A shell that cannot start (its interpreter is missing) is refused before
// anything is created: no workspace appears, not even for a moment.
func TestE2E_PaneThatCannotStartIsRefused(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	script := filepath.Join(h.Dir, "broken-shell")
	if err := os.WriteFile(script, []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.WriteConfig(t, "")
	body := "[terminal]\ndefault_shell = \"" + script + "\"\n"
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	c := s.Dial(t)
	ack, err := c.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"workspace.created"}]}}`))
	if err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %s %v", ack, err)
	}
	resp := s.CallT(t, "workspace.create", map[string]any{})
	if resp.Error == nil {
		t.Fatalf("workspace.create succeeded for a shell that cannot start: %s", resp.Result)
	}
	if list := OK[protocol.WorkspaceList](t, s.CallT(t, "workspace.list", nil), "workspace_list"); len(list.Workspaces) != 0 {
		t.Errorf("workspaces after a refused create: %+v", list.Workspaces)
	}
	_ = c.Conn().SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if line, err := c.ReadLine(); err == nil {
		t.Errorf("an event was published for a refused create: %s", line)
	}
}
