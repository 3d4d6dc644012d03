//go:build unix

package hardening

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// gatedGit puts a git on the server's PATH that, for `worktree add`, leaves
// a mark and waits until the test opens the gate, so a test can act while
// a worktree job runs. started counts the jobs waiting (or let through).
func gatedGit(t *testing.T, h *Home) (started func() int, open func()) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	bin, gate := filepath.Join(h.Dir, "gitbin"), filepath.Join(h.Dir, "gate")
	for _, d := range []string{bin, gate} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf(`#!/bin/sh
case " $* " in *" worktree add "*)
	: > %[1]q/started.$$
	while [ ! -e %[1]q/open ]; do sleep 0.02; done;;
esac
exec %[2]q "$@"
`, gate, real)
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			h.Env[i] = "PATH=" + bin + string(os.PathListSeparator) + v
		}
	}
	open = func() {
		if err := os.WriteFile(filepath.Join(gate, "open"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(open) // a failed test leaves no git waiting
	started = func() int {
		marks, _ := filepath.Glob(filepath.Join(gate, "started.*"))
		return len(marks)
	}
	return started, open
}

// answeredOnce checks that c has nothing more to say about its last call:
// the next line is the answer of a ping sent after it.
func answeredOnce(t *testing.T, c *protocol.Client) {
	t.Helper()
	if err := c.WriteLine([]byte(`{"id":"after","method":"ping","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if resp := ReadResponse(t, c); resp.ID != "after" {
		t.Fatalf("a second answer %+v before the ping's", resp)
	}
}

// The source workspace closes while its worktree.create runs git: the
// call is answered once, workspace_not_found saying that the checkout was
// made but not opened, and no workspace is made for it. Meanwhile a second
// job for the same workspace is refused.
func TestHardening_WorktreeSourceClosedWhileGitRuns(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	started, open := gatedGit(t, h)
	s := h.Start(t, "wt")
	src := s.CreateWorkspace(t, map[string]any{"cwd": repo}).Workspace.WorkspaceID
	other := s.CreateWorkspace(t, nil).Workspace.WorkspaceID

	c := s.Dial(t)
	if err := c.WriteLine([]byte(`{"id":"create","method":"worktree.create","params":{"workspace_id":"` + src + `","branch":"feat"}}`)); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "git worktree add to start", func() bool { return started() == 1 })
	Fail(t, s.Call("worktree.create", map[string]any{"workspace_id": src, "branch": "second"}), protocol.CodeWorktreeBusy)
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": src}), "ok")
	open()

	resp := ReadResponse(t, c)
	if resp.ID != "create" {
		t.Fatalf("answer %+v, want the create's", resp)
	}
	checkout := filepath.Join(h.Dir, "h", ".herdr", "worktrees", "repo", "feat")
	if msg := Fail(t, resp, protocol.CodeWorkspaceNotFound); !strings.Contains(msg, checkout) || !strings.Contains(msg, "not opened") {
		t.Fatalf("message %q does not say the checkout %s was made but not opened", msg, checkout)
	}
	answeredOnce(t, c)

	if ws := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces; len(ws) != 1 || ws[0].WorkspaceID != other {
		t.Fatalf("workspaces %+v, want only %s", ws, other)
	}
	list := OK[protocol.WorktreeList](t, s.Call("worktree.list", map[string]any{"cwd": repo}), "worktree_list")
	if len(list.Worktrees) != 2 || list.Worktrees[1].Path != checkout {
		t.Fatalf("worktrees %+v, want the main checkout and %s", list.Worktrees, checkout)
	}
	for _, wt := range list.Worktrees {
		if wt.OpenWorkspaceID != nil {
			t.Fatalf("%s open in %s, want no workspace on it", wt.Path, *wt.OpenWorkspaceID)
		}
	}
	if list.Source.SourceWorkspaceID != nil {
		t.Fatalf("a cwd source names workspace %s", *list.Source.SourceWorkspaceID)
	}
}

// Two worktree.create calls for one branch run git at once (folders, not
// workspaces, so neither waits for the other): one checkout and one
// workspace are made, the other call fails, and each is answered once.
func TestHardening_WorktreeCreatesRaceForOneBranch(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	started, open := gatedGit(t, h)
	s := h.Start(t, "wt")

	conns := []*protocol.Client{s.Dial(t), s.Dial(t)}
	for i, c := range conns {
		if err := c.WriteLine([]byte(fmt.Sprintf(`{"id":"create%d","method":"worktree.create","params":{"cwd":%q,"branch":"race"}}`, i, repo))); err != nil {
			t.Fatal(err)
		}
	}
	WaitFor(t, "both git worktree adds to start", func() bool { return started() == 2 })
	open()

	var created []protocol.WorktreeCreated
	for i, c := range conns {
		resp := ReadResponse(t, c)
		if resp.ID != fmt.Sprintf("create%d", i) {
			t.Fatalf("answer %+v on connection %d", resp, i)
		}
		if resp.Error != nil {
			Fail(t, resp, protocol.CodeWorktreeCreateFailed)
		} else {
			created = append(created, OK[protocol.WorktreeCreated](t, resp, "worktree_created"))
		}
		answeredOnce(t, c)
	}
	if len(created) != 1 {
		t.Fatalf("%d creates succeeded, want exactly one", len(created))
	}
	ws := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces
	if len(ws) != 1 || ws[0].WorkspaceID != created[0].Workspace.WorkspaceID || ws[0].Worktree == nil || ws[0].Worktree.CheckoutPath != created[0].Worktree.Path {
		t.Fatalf("workspaces %+v, want only the one on %s", ws, created[0].Worktree.Path)
	}
	list := OK[protocol.WorktreeList](t, s.Call("worktree.list", map[string]any{"cwd": repo}), "worktree_list")
	if len(list.Worktrees) != 2 || list.Worktrees[1].OpenWorkspaceID == nil || *list.Worktrees[1].OpenWorkspaceID != ws[0].WorkspaceID {
		t.Fatalf("worktrees %+v, want one checkout open in %s", list.Worktrees, ws[0].WorkspaceID)
	}
}
