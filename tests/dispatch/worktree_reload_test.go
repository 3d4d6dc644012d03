//go:build unix

package dispatch

import (
	"path/filepath"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The worktrees actor resolves worktree.create's source from the read
// side and takes the [worktrees] directory a server.reload_config applied
// before its answer: a checkout made right after the reload goes there,
// its workspace opened on the focused workspace's repository.
func TestE2E_WorktreeDirectoryReloaded(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "wtdir")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})

	root := filepath.Join(h.Dir, "trees")
	h.WriteConfig(t, "[worktrees]\ndirectory = \""+root+"\"\n")
	if r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload"); r.Status != "applied" {
		t.Fatalf("reload: %+v", r)
	}
	c := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"branch": "after-reload"}), "worktree_created")
	if want := filepath.Join(root, "repo", "after-reload"); c.Worktree.Path != want {
		t.Fatalf("checkout at %s, want %s (the reloaded directory)", c.Worktree.Path, want)
	}
	if wt := c.Workspace.Worktree; wt == nil || wt.CheckoutPath != c.Worktree.Path {
		t.Fatalf("workspace provenance %+v", c.Workspace.Worktree)
	}
}
