package session

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/kit"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/actors/worktrees"
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

// openCheckoutAt opens a linked checkout of repo in w1's group, as the
// worktrees actor asks once git made it.
func (h *harness) openCheckoutAt(repo wsactor.Repo, path string) {
	h.t.Helper()
	call := &kit.Call{ID: "t", Method: "worktree.create", Params: &protocol.WorktreeCreateParams{}}
	msg := &worktrees.OpenCheckout{Call: call, SourceID: "w1", Repo: repo, Tree: protocol.WorktreeInfo{Path: path, IsLinkedWorktree: true}, Created: true}
	res, err := h.system.Root.RequestFuture(h.session, msg, 5*time.Second).Result()
	if err != nil || res.(*kit.Reply).Err != nil {
		h.t.Fatalf("open checkout %s: %v %v", path, err, res)
	}
}

func (h *harness) workspaceOrder() string {
	var ids []string
	for _, w := range h.snapshot().Workspaces {
		ids = append(ids, w.WorkspaceID)
	}
	return strings.Join(ids, ",")
}

// close_group on a worktree's workspace closes its whole group (the
// repository's workspace too); without it that workspace closes alone;
// the repository's workspace still needs it while worktrees are open.
func TestWorkspaceClose_Group(t *testing.T) {
	h := newHarness(t)
	root := t.TempDir()
	if r := h.call("workspace.create", `{"cwd":`+strconv.Quote(root)+`}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	if r := h.call("workspace.create", `{}`); r.Err != nil { // w2, not of the group
		t.Fatal(r.Err)
	}
	repo := wsactor.Repo{Key: root + "/.git", Name: "repo", Root: root, Checkout: root}
	for i := 0; i < 3; i++ {
		h.openCheckoutAt(repo, t.TempDir())
	}
	if got := h.workspaceOrder(); got != "w1,w3,w4,w5,w2" {
		t.Fatalf("group %s", got)
	}
	if r := h.call("workspace.close", `{"workspace_id":"w1"}`); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeGroupCloseRequired {
		t.Fatalf("root without close_group: %v", r.Err)
	}
	if r := h.call("workspace.close", `{"workspace_id":"w5"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	if got := h.workspaceOrder(); got != "w1,w3,w4,w2" {
		t.Fatalf("after closing w5 alone: %s", got)
	}
	if r := h.call("workspace.close", `{"workspace_id":"w4","close_group":true}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	if got := h.workspaceOrder(); got != "w2" {
		t.Fatalf("after closing w4's group: %s, want w2", got)
	}
	h.checkInvariants("after the group closed")
}
