//go:build unix

package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// requireUnixShell is a no-op where /bin/sh panes can run.
func requireUnixShell(testing.TB) {}

// TestServer_UnstartableShellChangesNothing: a shell that cannot start is
// refused with an error, and no workspace, tab or event is left behind.
// The shell is an executable file whose interpreter is missing: it passes
// the config's check (a missing program would be replaced by $SHELL), and
// the kernel refuses to run it.
func TestServer_UnstartableShellChangesNothing(t *testing.T) {
	shell := filepath.Join(t.TempDir(), "shell")
	if err := os.WriteFile(shell, []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sock := startServerWith(t, fmt.Sprintf("[terminal]\ndefault_shell = %q\n", shell))
	sub := subscribe(t, sock, `{"subscriptions":[{"type":"workspace.created"},{"type":"workspace.closed"},{"type":"tab.closed"}]}`)
	c := dial(t, sock)
	err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil)
	if e := protocol.AsError(err); err == nil || e.Code != protocol.CodePaneSplitFailed || !strings.Contains(e.Message, shell) {
		t.Fatalf("workspace.create = %v, want pane_split_failed naming the shell", err)
	}
	var list protocol.WorkspaceList
	if err := c.Call("workspace.list", nil, &list); err != nil || len(list.Workspaces) != 0 {
		t.Fatalf("workspaces after the failure: %+v %v", list, err)
	}
	// A layout whose command cannot start is refused the same way.
	err = c.Call("layout.apply", map[string]any{"workspace_id": "w1", "root": map[string]any{"type": "pane", "command": []string{"/nonexistent/cmd"}}}, nil)
	if err == nil {
		t.Fatal("layout.apply with a missing command succeeded")
	}
	sub.Conn().SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if line, err := sub.ReadLine(); err == nil {
		t.Fatalf("an event was published for a failed create: %s", line)
	}
}
