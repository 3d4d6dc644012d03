//go:build unix

package plugins

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The fixture plugin reacts to worktree.created: creating a worktree
// through the API makes its hook write the event and its context, with
// the new workspace's id and checkout path. Its actions run with the pane
// context; a failing one is logged with its exit code and stderr.
func TestE2E_Plugin_WorktreeHookAndActions(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	fixture, err := filepath.Abs(filepath.Join("..", "testdata", "plugins", "worktree-notes"))
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
	// The hook writes the event's name last: wait for its whole line.
	var name []byte
	WaitFor(t, "the hook's event-name file", func() bool {
		name, _ = os.ReadFile(filepath.Join(state, "event-name"))
		return strings.HasSuffix(string(name), "\n")
	})
	if strings.TrimSpace(string(name)) != "worktree.created" {
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
	if where.Status != "succeeded" || where.Stdout == nil || !strings.Contains(*where.Stdout, "pane=w1:p1 workspace=w1 action=where") {
		t.Fatalf("action run %+v", where)
	}
	failed := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "fail", "plugin_id": "test.worktree-notes"}), "plugin_action_invoked")
	if run := runOf(failed.Log.LogID); run.Status != "failed" || run.ExitCode == nil || *run.ExitCode != 3 || !strings.Contains(*run.Stderr, "broken") {
		t.Fatalf("failing run %+v", run)
	}

	// An agent view may name an enabled plugin as its source.
	OK[protocol.AgentViewResult](t, s.Call("agent.view.set", map[string]any{"source": "plugin:test.worktree-notes"}), "agent_view")
	Fail(t, s.Call("agent.view.set", map[string]any{"source": "plugin:nobody"}), "plugin_not_found")

	// Disabled: its actions refuse, its hooks do not run, views cannot name it.
	OK[protocol.PluginDisabled](t, s.Call("plugin.disable", map[string]any{"plugin_id": "test.worktree-notes"}), "plugin_disabled")
	Fail(t, s.Call("agent.view.set", map[string]any{"source": "plugin:test.worktree-notes"}), "plugin_disabled")
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

// bareRepo makes <base>/owner/name.git holding files, one commit.
func bareRepo(t *testing.T, base, name string, files map[string]string) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	for path, body := range files {
		full := filepath.Join(work, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", work},
		{"-C", work, "add", "."},
		{"-C", work, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "plugin"},
		{"clone", "-q", "--bare", work, filepath.Join(base, "owner", name+".git")},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// `herdr plugin install` fetches a repository (a local bare one here),
// runs the build step, moves the plugin under the config folder and links
// it with its source; a failing build installs nothing; without --yes a
// script is refused.
func TestE2E_Plugin_InstallFromGit(t *testing.T) {
	h := NewHome(t)
	base := filepath.Join(h.Dir, "git")
	manifest := "id = \"test.built\"\nname = \"Built\"\nversion = \"0.2.0\"\nmin_herdr_version = \"0.1.0\"\nplatforms = [\"linux\", \"macos\"]\n" +
		"[[build]]\ncommand = [\"sh\", \"-c\", \"echo compiled > built.txt\"]\n"
	bareRepo(t, base, "good", map[string]string{"tools/notes/herdr-plugin.toml": manifest})
	bareRepo(t, base, "bad", map[string]string{"herdr-plugin.toml": strings.Replace(strings.Replace(manifest, "echo compiled > built.txt", "exit 7", 1), "test.built", "test.bad", 1)})
	h.Env = append(h.Env, "HERDR_PLUGIN_GIT_BASE=file://"+base)
	s := h.Start(t, "install")

	if _, stderr, code := s.CLI("plugin", "install", "owner/good/tools/notes"); code != 2 || !strings.Contains(stderr, "requires --yes") {
		t.Fatalf("install without --yes: %d %s", code, stderr)
	}
	out, stderr, code := s.CLI("plugin", "install", "owner/good/tools/notes", "--yes")
	if code != 0 || !strings.HasPrefix(out, "Installed test.built from owner/good/tools/notes.") {
		t.Fatalf("install: %d %q %s", code, out, stderr)
	}
	pl := OK[protocol.PluginList](t, s.Call("plugin.list", map[string]any{"plugin_id": "test.built"}), "plugin_list").Plugins
	if len(pl) != 1 || pl[0].Source == nil || pl[0].Source.Kind != "github" || pl[0].Source.ResolvedCommit == nil || pl[0].Source.ManagedPath == nil {
		t.Fatalf("installed %+v", pl)
	}
	managed := *pl[0].Source.ManagedPath
	if !strings.HasPrefix(managed, filepath.Join(h.ConfigHome, "herdr", "plugins", "github", "good-")) {
		t.Fatalf("managed path %s", managed)
	}
	if b, err := os.ReadFile(filepath.Join(managed, "tools", "notes", "built.txt")); err != nil || strings.TrimSpace(string(b)) != "compiled" {
		t.Fatalf("the build step did not run: %v", err)
	}
	if _, stderr, code := s.CLI("plugin", "install", "owner/bad", "--yes"); code != 1 || !strings.Contains(stderr, "build") {
		t.Fatalf("failing build: %d %s", code, stderr)
	}
	if bad := OK[protocol.PluginList](t, s.Call("plugin.list", map[string]any{"plugin_id": "test.bad"}), "plugin_list").Plugins; len(bad) != 0 {
		t.Fatalf("a plugin whose build failed was linked: %+v", bad)
	}
	// Uninstall by its source: unlinked, its managed copy gone.
	if out, stderr, code := s.CLI("plugin", "uninstall", "owner/good/tools/notes"); code != 0 || strings.TrimSpace(out) != "Uninstalled test.built." {
		t.Fatalf("uninstall: %d %q %s", code, out, stderr)
	}
	if _, err := os.Stat(managed); !os.IsNotExist(err) {
		t.Fatalf("the managed copy is still there: %v", err)
	}
	if _, stderr, code := s.CLI("plugin", "uninstall", "test.built"); code != 1 || !strings.Contains(stderr, "plugin not installed") {
		t.Fatalf("uninstall twice: %d %s", code, stderr)
	}
}

// A plugin's pane entrypoint opens as a split or a tab running its command
// in the plugin's folder; plugin.pane.focus|close act on plugin panes only;
// a placement refuses targets it does not take (popups: popup_test.go).
func TestE2E_Plugin_Panes(t *testing.T) {
	h := NewHome(t)
	fixture, _ := filepath.Abs(filepath.Join("..", "testdata", "plugins", "worktree-notes"))
	// Wide enough that the plugin pane's line (it names the fixture's
	// folder) is not wrapped in half a 120-column terminal.
	h.WriteConfig(t, "[server]\nheadless_cols = 400\nheadless_rows = 50\n")
	s := h.Start(t, "panes")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": filepath.Join(fixture, "herdr-plugin.toml")}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	opened := OK[protocol.PluginPaneOpened](t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "notes", "focus": true}), "plugin_pane_opened").PluginPane
	if opened.Entrypoint != "notes" || opened.Pane.PaneID != "w1:p2" || !opened.Pane.Focused {
		t.Fatalf("opened %+v", opened)
	}
	s.WaitLine(t, "w1:p2", "plugin-pane-notes in "+fixture)
	tab := OK[protocol.PluginPaneOpened](t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "notes", "placement": "tab"}), "plugin_pane_opened").PluginPane
	if tab.Pane.TabID != "w1:t2" {
		t.Fatalf("tab placement opened %+v", tab.Pane)
	}
	Fail(t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "notes", "placement": "split", "width": 20}), "invalid_params")
	Fail(t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "notes", "placement": "split", "workspace_id": "w1"}), "invalid_params")
	Fail(t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "nope"}), "plugin_pane_not_found")
	Fail(t, s.Call("plugin.pane.close", map[string]any{"pane_id": "w1:p1"}), "plugin_pane_not_found")
	OK[protocol.PluginPaneFocused](t, s.Call("plugin.pane.focus", map[string]any{"pane_id": "w1:p2"}), "plugin_pane_focused")
	closed := OK[protocol.PluginPaneClosed](t, s.Call("plugin.pane.close", map[string]any{"pane_id": "w1:p2"}), "plugin_pane_closed")
	if closed.PaneID != "w1:p2" {
		t.Fatalf("closed %+v", closed)
	}
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_not_found")
}
