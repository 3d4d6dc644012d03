//go:build unix

package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// The fixture plugin reacts to worktree.created: creating a worktree
// through the API makes its hook write the event and its context, with
// the new workspace's id and checkout path. Its actions run with the pane
// context; a failing one is logged with its exit code and stderr.
func TestE2E_Plugin_WorktreeHookAndActions(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	gitRepo(t, repo)
	fixture, err := filepath.Abs(filepath.Join("testdata", "plugins", "worktree-notes"))
	if err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "plug")
	out, stderr, code := s.CLI("plugin", "link", fixture)
	if code != 0 {
		t.Fatalf("plugin link: %d %s", code, stderr)
	}
	linked := OK[protocol.PluginLinked](t, CLIResponse(t, out), "plugin_linked").Plugin
	if linked.PluginID != "test.worktree-notes" || !linked.Enabled || len(linked.Events) != 1 || len(linked.Warnings) != 0 {
		t.Fatalf("linked %+v", linked)
	}
	state := filepath.Join(h.Dir, "s", "herdr", "plugins", "test.worktree-notes")

	s.CreateWorkspace(t, map[string]any{"cwd": repo})
	created := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "notes"}), "worktree_created")
	var event struct {
		Type      string                 `json:"type"`
		Workspace protocol.WorkspaceInfo `json:"workspace"`
		Worktree  protocol.WorktreeInfo  `json:"worktree"`
	}
	WaitFor(t, "the hook's event file", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "event.json"))
		return err == nil && json.Unmarshal(b, &event) == nil && event.Type != ""
	})
	if event.Type != "worktree_created" || event.Workspace.WorkspaceID != created.Workspace.WorkspaceID || event.Worktree.Path != created.Worktree.Path {
		t.Fatalf("hook saw %+v, want workspace %s at %s", event, created.Workspace.WorkspaceID, created.Worktree.Path)
	}
	var hookCtx protocol.PluginInvocationContext
	WaitFor(t, "the hook's context file", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "context.json"))
		return err == nil && json.Unmarshal(b, &hookCtx) == nil && hookCtx.WorkspaceID != nil
	})
	if *hookCtx.WorkspaceID != created.Workspace.WorkspaceID || hookCtx.Worktree == nil || hookCtx.Worktree.CheckoutPath != created.Worktree.Path {
		t.Fatalf("hook context %+v", hookCtx)
	}
	if name, _ := os.ReadFile(filepath.Join(state, "event-name")); strings.TrimSpace(string(name)) != "worktree.created" {
		t.Fatalf("HERDR_PLUGIN_EVENT = %q", name)
	}

	// An action with the focused pane's context.
	OK[protocol.PaneInfoResult](t, s.Call("pane.focus", map[string]any{"pane_id": "w1:p1"}), "pane_info")
	inv := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.worktree-notes.where"}), "plugin_action_invoked")
	if inv.Context.FocusedPaneID == nil || *inv.Context.FocusedPaneID != "w1:p1" || inv.Log.Status != "running" {
		t.Fatalf("invoked %+v", inv)
	}
	runOf := func(id string) protocol.PluginCommandLogInfo {
		var found protocol.PluginCommandLogInfo
		WaitFor(t, "run "+id+" to finish", func() bool {
			for _, l := range OK[protocol.PluginLogList](t, s.Call("plugin.log.list", map[string]any{"plugin_id": "test.worktree-notes"}), "plugin_log_list").Logs {
				if l.LogID == id && l.Status != "running" {
					found = l
					return true
				}
			}
			return false
		})
		return found
	}
	where := runOf(inv.Log.LogID)
	if where.Status != "succeeded" || where.Stdout == nil || !strings.Contains(*where.Stdout, "pane=w1:p1 workspace=w1 action=test.worktree-notes.where") {
		t.Fatalf("action run %+v", where)
	}
	failed := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "fail", "plugin_id": "test.worktree-notes"}), "plugin_action_invoked")
	if run := runOf(failed.Log.LogID); run.Status != "failed" || run.ExitCode == nil || *run.ExitCode != 3 || !strings.Contains(*run.Stderr, "broken") {
		t.Fatalf("failing run %+v", run)
	}

	// Disabled: its actions refuse, its hooks do not run.
	OK[protocol.PluginDisabled](t, s.Call("plugin.disable", map[string]any{"plugin_id": "test.worktree-notes"}), "plugin_disabled")
	Fail(t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.worktree-notes.where"}), "plugin_disabled")
	Fail(t, s.Call("plugin.action.invoke", map[string]any{"action_id": "nope"}), "plugin_action_not_found")

	// The registry survives a restart, with the startup hook run once the
	// plugin is enabled again.
	OK[protocol.PluginEnabled](t, s.Call("plugin.enable", map[string]any{"plugin_id": "test.worktree-notes"}), "plugin_enabled")
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("stop: %s", stderr)
	}
	s.WaitExit(t)
	os.Remove(filepath.Join(state, "started"))
	s2 := h.Start(t, "plug")
	list := OK[protocol.PluginList](t, s2.Call("plugin.list", nil), "plugin_list")
	if len(list.Plugins) != 1 || !list.Plugins[0].Enabled {
		t.Fatalf("after a restart: %+v", list.Plugins)
	}
	WaitFor(t, "the startup hook", func() bool {
		_, err := os.Stat(filepath.Join(state, "started"))
		return err == nil
	})
	out, _, code = s2.CLI("plugin", "unlink", "test.worktree-notes")
	if code != 0 || !strings.Contains(out, `"removed":true`) {
		t.Fatalf("unlink: %d %s", code, out)
	}
}
