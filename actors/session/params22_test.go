package session

import (
	"strconv"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// workspace.create's source_workspace_id picks the folder of the named
// workspace's focused pane, not the focused workspace's; an unknown one
// answers workspace_not_found and creates nothing.
func TestWorkspaceCreate_SourceWorkspace(t *testing.T) {
	h := newHarness(t)
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if r := h.call("workspace.create", `{"cwd":`+strconv.Quote(dir)+`}`); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	if r := h.call("workspace.focus", `{"workspace_id":"w1"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	r := h.call("workspace.create", `{"source_workspace_id":"w2"}`)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if cwd := r.Result.(protocol.WorkspaceCreated).RootPane.Cwd; cwd == nil || *cwd != b {
		t.Fatalf("cwd %v, want w2's %s", cwd, b)
	}
	n := len(h.snapshot().Workspaces)
	r = h.call("workspace.create", `{"source_workspace_id":"w9"}`)
	if r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeWorkspaceNotFound {
		t.Fatalf("unknown source: %v", r.Err)
	}
	if got := len(h.snapshot().Workspaces); got != n {
		t.Fatalf("a refused create left %d workspaces, had %d", got, n)
	}
	if r := h.call("workspace.create", `{"source_workspace_id":""}`); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeInvalidParams {
		t.Fatalf("empty source: %v", r.Err)
	}
}
