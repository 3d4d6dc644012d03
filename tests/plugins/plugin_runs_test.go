//go:build unix

package plugins

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fixturePlugin is the test plugin's folder.
func fixturePlugin(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "plugins", "worktree-notes"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// pidFrom reads a pid a plugin script wrote, waiting for the file.
func pidFrom(t *testing.T, path string) int {
	t.Helper()
	var pid int
	WaitFor(t, filepath.Base(path), func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 1
	})
	return pid
}

// A command that hangs is killed at the server's command timeout
// (HERDR_PLUGIN_TIMEOUT_MS, here 1 s), with the process it started; the
// log shows the run failed, why, and no exit code. A command that fails
// on its own keeps its exit code. Both are read with `herdr plugin log
// list`, newest first.
func TestE2E_Plugin_HangIsKilledAtTheTimeout(t *testing.T) {
	h := NewHome(t)
	h.Env = append(h.Env, "HERDR_PLUGIN_TIMEOUT_MS=1000")
	s := h.Start(t, "hang")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": fixturePlugin(t)}), "plugin_linked")
	state := filepath.Join(h.Dir, "s", "herdr", "plugins", "test.worktree-notes")

	out, stderr, code := s.CLI("plugin", "action", "invoke", "hang", "--plugin", "test.worktree-notes")
	if code != 0 {
		t.Fatalf("invoke hang: %d %s", code, stderr)
	}
	hang := OK[protocol.PluginActionInvoked](t, CLIResponse(t, out), "plugin_action_invoked")
	if hang.Log.Status != "running" || hang.Action.ActionID != "hang" || hang.Context.InvocationSource == nil || *hang.Context.InvocationSource != "cli" {
		t.Fatalf("invoked %+v", hang)
	}
	shell, child := pidFrom(t, filepath.Join(state, "hang.pid")), pidFrom(t, filepath.Join(state, "hang-child.pid"))

	var run protocol.PluginCommandLogInfo
	WaitFor(t, "the hung run to end", func() bool {
		out, _, code := s.CLI("plugin", "log", "list", "--plugin", "test.worktree-notes", "--limit", "1")
		if code != 0 {
			return false
		}
		logs := OK[protocol.PluginLogList](t, CLIResponse(t, out), "plugin_log_list").Logs
		if len(logs) != 1 {
			t.Fatalf("--limit 1 gave %d runs", len(logs))
		}
		run = logs[0]
		return run.Status != "running"
	})
	if run.LogID != hang.Log.LogID || run.Status != "failed" || run.Error == nil || !strings.Contains(*run.Error, "timeout") || run.ExitCode != nil {
		t.Fatalf("hung run %+v", run)
	}
	if took := *run.FinishedUnixMS - run.StartedUnixMS; took < 1000 || took > 10000 {
		t.Fatalf("killed after %d ms, want about 1000", took)
	}
	for name, pid := range map[string]int{"shell": shell, "child": child} {
		WaitFor(t, "the hung "+name+" to be gone", func() bool { return syscall.Kill(pid, 0) != nil })
	}

	failed := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.worktree-notes.fail"}), "plugin_action_invoked")
	WaitFor(t, "the failing run to end", func() bool {
		out, _, _ := s.CLI("plugin", "log", "list", "--limit", "1")
		logs := OK[protocol.PluginLogList](t, CLIResponse(t, out), "plugin_log_list").Logs
		run = logs[0]
		return run.LogID == failed.Log.LogID && run.Status != "running"
	})
	if run.Status != "failed" || run.ExitCode == nil || *run.ExitCode != 3 || run.Error != nil || run.Stderr == nil || !strings.Contains(*run.Stderr, "broken") {
		t.Fatalf("failing run %+v", run)
	}
}

// The listing and toggling CLI forms answer per the schema (RunCLI checks
// every response line) and agree with the API: plugin list, plugin action
// list (with the platforms each action inherits), plugin disable and
// enable, and plugin log list.
func TestE2E_Plugin_CLIListsAndToggles(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "plcli")
	if out, stderr, code := s.CLI("plugin", "link", fixturePlugin(t)); code != 0 {
		t.Fatalf("link: %d %s %s", code, out, stderr)
	}

	cli := func(args ...string) protocol.Response {
		t.Helper()
		out, stderr, code := s.CLI(args...)
		if code != 0 {
			t.Fatalf("herdr %s: %d %s", strings.Join(args, " "), code, stderr)
		}
		return CLIResponse(t, out)
	}
	listed := OK[protocol.PluginList](t, cli("plugin", "list"), "plugin_list").Plugins
	if len(listed) != 1 || listed[0].PluginID != "test.worktree-notes" || !listed[0].Enabled || listed[0].Source == nil || listed[0].Source.Kind != "local" {
		t.Fatalf("plugin list %+v", listed)
	}
	if none := OK[protocol.PluginList](t, cli("plugin", "list", "--plugin", "nobody"), "plugin_list").Plugins; len(none) != 0 {
		t.Fatalf("plugin list --plugin nobody: %+v", none)
	}

	apiActions := OK[protocol.PluginActionList](t, s.Call("plugin.action.list", nil), "plugin_action_list").Actions
	cliActions := OK[protocol.PluginActionList](t, cli("plugin", "action", "list", "--plugin", "test.worktree-notes"), "plugin_action_list").Actions
	ids := func(as []protocol.PluginActionInfo) string {
		var out []string
		for _, a := range as {
			out = append(out, a.ActionID)
		}
		return strings.Join(out, " ")
	}
	want := "where fail hang link"
	if ids(apiActions) != want || ids(cliActions) != want {
		t.Fatalf("actions: api %q, cli %q, want %q", ids(apiActions), ids(cliActions), want)
	}
	for _, a := range apiActions {
		if strings.Join(a.Platforms, ",") != "linux,macos" || a.PluginID != "test.worktree-notes" || len(a.Command) == 0 {
			t.Fatalf("action %+v: want the plugin's platforms", a)
		}
	}
	if where := apiActions[0]; strings.Join(where.Contexts, ",") != "pane" || where.Title != "Say where it runs" {
		t.Fatalf("action where %+v", where)
	}
	if other := OK[protocol.PluginActionList](t, s.Call("plugin.action.list", map[string]any{"plugin_id": "nobody"}), "plugin_action_list").Actions; len(other) != 0 {
		t.Fatalf("actions of nobody: %+v", other)
	}

	off := OK[protocol.PluginDisabled](t, cli("plugin", "disable", "test.worktree-notes"), "plugin_disabled").Plugin
	if off.Enabled || OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list").Plugins[0].Enabled {
		t.Fatalf("still enabled after plugin disable: %+v", off)
	}
	if _, stderr, code := s.CLI("plugin", "action", "invoke", "where"); code != 1 || !strings.Contains(stderr, `"plugin_disabled"`) {
		t.Fatalf("invoke while disabled: %d %s", code, stderr)
	}
	on := OK[protocol.PluginEnabled](t, cli("plugin", "enable", "test.worktree-notes"), "plugin_enabled").Plugin
	if !on.Enabled || !OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list").Plugins[0].Enabled {
		t.Fatalf("not enabled after plugin enable: %+v", on)
	}
	if _, stderr, code := s.CLI("plugin", "enable", "nobody"); code != 1 || !strings.Contains(stderr, `"plugin_not_found"`) {
		t.Fatalf("enable nobody: %d %s", code, stderr)
	}

	inv := OK[protocol.PluginActionInvoked](t, cli("plugin", "action", "invoke", "where"), "plugin_action_invoked")
	WaitFor(t, "the run in plugin log list", func() bool {
		logs := OK[protocol.PluginLogList](t, cli("plugin", "log", "list"), "plugin_log_list").Logs
		return len(logs) > 0 && logs[0].LogID == inv.Log.LogID && logs[0].Status == "succeeded" &&
			logs[0].ActionID != nil && *logs[0].ActionID == "where" && logs[0].ExitCode != nil && *logs[0].ExitCode == 0
	})
	if none := OK[protocol.PluginLogList](t, cli("plugin", "log", "list", "--plugin", "nobody"), "plugin_log_list").Logs; len(none) != 0 {
		t.Fatalf("logs of nobody: %+v", none)
	}
}

// With no server running, `plugin link` and `plugin list` work on the
// registry file and print the answers a server would (schema-checked);
// a bad manifest is refused with its code; the server started next loads
// what was linked. Commands that need a server still say it is not running.
func TestE2E_Plugin_LinkAndListWithoutAServer(t *testing.T) {
	h := NewHome(t)
	cli := func(args ...string) (string, string, int) {
		return RunCLI(t, h.Env, append([]string{"--session", "off"}, args...)...)
	}
	out, stderr, code := cli("plugin", "link", fixturePlugin(t), "--disabled")
	if code != 0 {
		t.Fatalf("offline link: %d %s", code, stderr)
	}
	resp := CLIResponse(t, out)
	linked := OK[protocol.PluginLinked](t, resp, "plugin_linked").Plugin
	if resp.ID != "cli:plugin:link" || linked.PluginID != "test.worktree-notes" || linked.Enabled || linked.Source == nil || linked.Source.Kind != "local" {
		t.Fatalf("offline link %s: %+v", resp.ID, linked)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "s", "herdr", "plugins", "test.worktree-notes")); err != nil {
		t.Fatalf("no state folder after an offline link: %v", err)
	}

	bad := filepath.Join(h.Dir, "bad")
	if err := os.MkdirAll(bad, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "herdr-plugin.toml"), []byte("id = \"bad id\"\nname = \"B\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := cli("plugin", "link", bad); code != 1 || out != "" || CLIResponse(t, stderr).Error.Code != "invalid_plugin_id" {
		t.Fatalf("offline link of a bad manifest: %d %q %s", code, out, stderr)
	}

	out, stderr, code = cli("plugin", "list")
	if code != 0 {
		t.Fatalf("offline list: %d %s", code, stderr)
	}
	listed := OK[protocol.PluginList](t, CLIResponse(t, out), "plugin_list").Plugins
	if len(listed) != 1 || listed[0].PluginID != "test.worktree-notes" || listed[0].Enabled {
		t.Fatalf("offline list %+v", listed)
	}
	out, _, _ = cli("plugin", "list", "--plugin", "nobody")
	if none := OK[protocol.PluginList](t, CLIResponse(t, out), "plugin_list").Plugins; len(none) != 0 {
		t.Fatalf("offline list --plugin nobody: %+v", none)
	}
	if _, stderr, code := cli("plugin", "action", "list"); code != 1 || CLIResponse(t, stderr).Error.Code != protocol.CodeServerNotRunning {
		t.Fatalf("action list without a server: %d %s", code, stderr)
	}

	s := h.Start(t, "off")
	served := OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list").Plugins
	if len(served) != 1 || served[0].PluginID != "test.worktree-notes" || served[0].Enabled || served[0].ManifestPath != filepath.Join(fixturePlugin(t), "herdr-plugin.toml") {
		t.Fatalf("the server loaded %+v", served)
	}
	// With the server up, plugin list still answers, now from the server.
	out, _, code = s.CLI("plugin", "list")
	if code != 0 || len(OK[protocol.PluginList](t, CLIResponse(t, out), "plugin_list").Plugins) != 1 {
		t.Fatalf("list through the server: %d %s", code, out)
	}
}

// A zoomed plugin pane splits its target pane and zooms the new pane,
// which is focused even when the caller asked for no focus and runs the
// entrypoint's command; it is a plugin pane plugin.pane.close can close.
func TestE2E_Plugin_PaneZoomed(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "zoom")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": fixturePlugin(t)}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	before := PaneLayout(t, s, "w1:p1")
	if before.Zoomed {
		t.Fatalf("zoomed before the plugin pane: %+v", before)
	}
	opened := OK[protocol.PluginPaneOpened](t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "peek",
		"placement": "zoomed", "target_pane_id": "w1:p1", "focus": false}), "plugin_pane_opened").PluginPane
	if opened.Entrypoint != "peek" || opened.Pane.PaneID != "w1:p2" || !opened.Pane.Focused || opened.Pane.TabID != before.TabID {
		t.Fatalf("opened %+v", opened)
	}
	s.WaitLine(t, "w1:p2", "overlay-peek")
	l := PaneLayout(t, s, "w1:p2")
	if !l.Zoomed || l.FocusedPaneID != "w1:p2" || len(l.Panes) != 2 {
		t.Fatalf("layout after a zoomed plugin pane: %+v", l)
	}
	if got := RectOf(t, l, "w1:p2"); got != l.Area {
		t.Fatalf("the zoomed pane has %+v, want the whole area %+v", got, l.Area)
	}
	OK[protocol.PluginPaneClosed](t, s.Call("plugin.pane.close", map[string]any{"pane_id": "w1:p2"}), "plugin_pane_closed")
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_not_found")
}
