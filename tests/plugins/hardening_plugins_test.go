//go:build unix

package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// controlBytes lists the control characters in text (C0 but newline, DEL,
// C1) and its invalid UTF-8, as a terminal would act on them.
func controlBytes(text string) []string {
	var found []string
	if !utf8.ValidString(text) {
		found = append(found, "invalid UTF-8")
	}
	for i, r := range text {
		if r != '\n' && (r < 0x20 || r >= 0x7f && r <= 0x9f) {
			found = append(found, fmt.Sprintf("%q at %d", r, i))
		}
	}
	return found
}

// runningPid reports whether pid is a live process whose command line
// holds want (a zombie, or a pid taken by another program, is not).
func runningPid(pid int, want string) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: the pid alone
	}
	if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
		return false
	}
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), want)
}

// The preview `plugin install` shows before it builds anything prints the
// manifest's strings escaped: a hostile name, description or action title
// (cursor moves, line erases, an OSC 52 clipboard write) reaches the
// person's terminal as visible replacement characters, never as control
// bytes. An [[events]] on with escapes is no event: the plugin installs
// (as in Herdr, an unknown event is a warning), and the preview's warning
// names it escaped too.
func TestHardening_PluginInstall_PreviewShowsNoControlBytes(t *testing.T) {
	h := NewHome(t)
	base := filepath.Join(h.Dir, "git")
	const erase = `\u001b[1A\u001b[2K\r  build:   [\"true\"]\u001b]52;c;aGVsbG8=\u0007\u009b31m`
	hostile := "id = \"test.evil\"\nname = \"Evil" + erase + "\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n" +
		"description = \"fine\\n" + erase + "\"\nplatforms = [\"linux\", \"macos\"]\n" +
		"[[build]]\ncommand = [\"sh\", \"-c\", \"printf 'built\\\\033]52;c;eA==\\\\007'\"]\n" +
		"[[events]]\non = \"pane.created\"\ncommand = [\"true\", \"" + erase + "\"]\n" +
		"[[actions]]\nid = \"a\"\ntitle = \"T" + erase + "\"\ncommand = [\"true\"]\n"
	bareRepo(t, base, "evil", map[string]string{"herdr-plugin.toml": hostile})
	bareRepo(t, base, "evilevent", map[string]string{"herdr-plugin.toml": PluginManifest("test.evilevent", "[[events]]\non = \"\\u001b]52;c;aGk=\\u0007pane.created\"\ncommand = [\"true\"]\n")})
	h.Env = append(h.Env, "HERDR_PLUGIN_GIT_BASE=file://"+base)
	cli := func(args ...string) (string, string, int) {
		return RunCLI(t, h.Env, append([]string{"--session", "preview"}, args...)...)
	}

	out, stderr, code := cli("plugin", "install", "owner/evil", "--yes")
	if code != 0 || !strings.HasPrefix(out, "Installed test.evil from owner/evil.") {
		t.Fatalf("install: %d %q %q", code, out, stderr)
	}
	if bad := controlBytes(out + stderr); len(bad) != 0 {
		t.Fatalf("the install printed control characters %v:\n%q\n%q", bad, out, stderr)
	}
	lines := Lines(stderr)
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "Plugin test.evil (Evil\uFFFD[1A\uFFFD[2K\uFFFD  build:") {
		t.Fatalf("preview %q", stderr)
	}
	if !strings.Contains(stderr, "  on pane.created: [\"true\" \"\\x1b[1A") || !strings.Contains(stderr, "  action a (T\uFFFD[1A") {
		t.Fatalf("preview %q", stderr)
	}

	out, stderr, code = cli("plugin", "install", "owner/evilevent", "--yes")
	if code != 0 || !strings.Contains(stderr, `  warning: unknown event '\x1b]52;c;aGk=\apane.created'`) {
		t.Fatalf("install of a manifest with an escape in its event: %d %q %q", code, out, stderr)
	}
	if bad := controlBytes(out + stderr); len(bad) != 0 {
		t.Fatalf("the install printed control characters %v: %q", bad, stderr)
	}
	out, _, _ = cli("plugin", "list")
	listed := OK[protocol.PluginList](t, CLIResponse(t, out), "plugin_list").Plugins
	if len(listed) != 2 || listed[0].PluginID != "test.evil" || listed[1].PluginID != "test.evilevent" ||
		!slices.Contains(listed[1].Warnings, `unknown event '\x1b]52;c;aGk=\apane.created'`) {
		t.Fatalf("installed %+v", listed)
	}
}

// A --ref git could read as an option is refused before git runs: with a
// local repository as the git base, --ref=--upload-pack=CMD used to run
// CMD. So is an owner or repository that starts with '-'.
func TestHardening_PluginInstall_RefIsNeverAnOption(t *testing.T) {
	h := NewHome(t)
	base := filepath.Join(h.Dir, "git")
	bareRepo(t, base, "good", map[string]string{"herdr-plugin.toml": PluginManifest("test.good", "")})
	h.Env = append(h.Env, "HERDR_PLUGIN_GIT_BASE="+base)
	cli := func(args ...string) (string, string, int) {
		return RunCLI(t, h.Env, append([]string{"--session", "ref"}, args...)...)
	}
	marker := filepath.Join(h.Dir, "pwned")
	for _, args := range [][]string{
		{"owner/good", "--ref=--upload-pack=touch " + marker},
		{"owner/good", "--ref", "-c"},
		{"owner/good", "--ref", "main:refs/heads/evil"},
		{"--", "-owner/good"},
		{"owner/--upload-pack=touch " + marker},
	} {
		out, stderr, code := cli(append([]string{"plugin", "install", "--yes"}, args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, "--ref") && !strings.Contains(stderr, "bad plugin source") {
			t.Errorf("install %q: %d %q %q", args, code, out, stderr)
		}
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("git ran the command a --ref smuggled in: %v", err)
	}
	// A ref that is one still installs.
	if out, stderr, code := cli("plugin", "install", "owner/good", "--ref", "main", "--yes"); code != 0 || !strings.HasPrefix(out, "Installed test.good") {
		t.Fatalf("install --ref main: %d %q %q", code, out, stderr)
	}
}

// A plugin command that leaves a child in the background ends with its
// first process, and the child is killed then; one still running at the
// timeout is killed with its child; and one still running when the server
// stops is killed with its child by the stop. No `sleep 7301` survives.
func TestHardening_PluginCommands_LeaveNoProcessBehind(t *testing.T) {
	h := NewHome(t)
	h.Env = append(h.Env, "HERDR_PLUGIN_TIMEOUT_MS=1500")
	dir := WritePlugin(t, filepath.Join(h.Dir, "bg"), PluginManifest("test.bg",
		"[[actions]]\nid = \"detach\"\ntitle = \"Detach\"\ncommand = [\"sh\", \"-c\", \"sleep 7301 & echo $! > detach.pid; echo started\"]\n"+
			"[[actions]]\nid = \"hang\"\ntitle = \"Hang\"\ncommand = [\"sh\", \"-c\", \"sleep 7301 & echo $! > hang.pid; wait\"]\n"+
			"[[events]]\non = \"workspace.created\"\ncommand = [\"sh\", \"-c\", \"sleep 7301 & echo $! > hook.pid; echo started\"]\n"))
	pid := func(name string) int { return pidFrom(t, filepath.Join(dir, name)) }
	gone := func(what string, p int) {
		t.Helper()
		WaitFor(t, what+" (pid "+strconv.Itoa(p)+") to be gone", func() bool { return !runningPid(p, "sleep 7301") })
	}
	s := h.Start(t, "bg")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	runOf := func(logID string) protocol.PluginCommandLogInfo {
		var run protocol.PluginCommandLogInfo
		WaitFor(t, "run "+logID+" to end", func() bool {
			for _, l := range OK[protocol.PluginLogList](t, s.Call("plugin.log.list", map[string]any{"plugin_id": "test.bg"}), "plugin_log_list").Logs {
				if l.LogID == logID && l.Status != "running" {
					run = l
					return true
				}
			}
			return false
		})
		return run
	}

	// The action ends with its shell; its output is kept; the child dies.
	inv := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.bg.detach"}), "plugin_action_invoked")
	if run := runOf(inv.Log.LogID); run.Status != "succeeded" || run.Stdout == nil || *run.Stdout != "started\n" {
		t.Fatalf("detach run %+v", run)
	}
	gone("the action's background child", pid("detach.pid"))
	// So does a hook's.
	s.CreateWorkspace(t, nil)
	gone("the hook's background child", pid("hook.pid"))
	// A hung command is killed at the timeout with its child.
	inv = OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.bg.hang"}), "plugin_action_invoked")
	hung := pid("hang.pid")
	if run := runOf(inv.Log.LogID); run.Status != "failed" || run.Error == nil || !strings.Contains(*run.Error, "timeout") {
		t.Fatalf("hang run %+v", run)
	}
	gone("the timed-out action's child", hung)

	// The server's stop kills what runs, long before any timeout.
	h.Env = append(h.Env, "HERDR_PLUGIN_TIMEOUT_MS=3600000")
	os.Remove(filepath.Join(dir, "hang.pid"))
	s2 := h.Start(t, "bg2")
	OK[protocol.PluginLinked](t, s2.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	OK[protocol.PluginActionInvoked](t, s2.Call("plugin.action.invoke", map[string]any{"action_id": "test.bg.hang"}), "plugin_action_invoked")
	hung = pid("hang.pid")
	if _, stderr, code := s2.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	s2.WaitExit(t)
	gone("the running action's child after server stop", hung)
}

// Forty hooks on one event all run: those beyond the 32 in flight wait
// their turn, and every run is in plugin log list.
func TestHardening_PluginHooks_FortyAtOnceAllRun(t *testing.T) {
	h := NewHome(t)
	var hooks strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&hooks, "[[events]]\non = \"pane.created\"\ncommand = [\"sh\", \"-c\", \"sleep 0.2; echo hook-%d\"]\n", i)
	}
	dir := WritePlugin(t, filepath.Join(h.Dir, "many"), PluginManifest("test.many", hooks.String()))
	s := h.Start(t, "many")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	var logs []protocol.PluginCommandLogInfo
	WaitFor(t, "forty hook runs to succeed", func() bool {
		out, _, code := s.CLI("plugin", "log", "list", "--plugin", "test.many")
		if code != 0 {
			return false
		}
		logs = OK[protocol.PluginLogList](t, CLIResponse(t, out), "plugin_log_list").Logs
		done := 0
		for _, l := range logs {
			if l.Status == "succeeded" {
				done++
			}
		}
		return done == 40
	})
	seen := map[string]bool{}
	for _, l := range logs {
		if l.Event == nil || *l.Event != "pane.created" || l.Stdout == nil {
			t.Fatalf("run %+v", l)
		}
		seen[strings.TrimSpace(*l.Stdout)] = true
	}
	if len(logs) != 40 || len(seen) != 40 {
		t.Fatalf("%d runs, %d distinct hooks", len(logs), len(seen))
	}
}

// A plugin id names its state folder: "." and ".." (which would make it
// herdr's own state folder, the one that holds web-token) are refused when
// a manifest is linked, through the server and without one, and an entry
// of plugins.json with such an id is refused when the registry is read.
func TestHardening_PluginIDs_DotAndDotDotRefused(t *testing.T) {
	h := NewHome(t)
	cli := func(args ...string) (string, string, int) {
		return RunCLI(t, h.Env, append([]string{"--session", "ids"}, args...)...)
	}
	for _, id := range []string{"..", ".", "a..b", "-x"} {
		dir := WritePlugin(t, filepath.Join(h.Dir, "p"+strconv.Itoa(len(id))+strings.Trim(id, ".-")), PluginManifest(id, ""))
		if out, stderr, code := cli("plugin", "link", dir); code != 1 || out != "" || CLIResponse(t, stderr).Error.Code != "invalid_plugin_id" {
			t.Fatalf("offline link of id %q: %d %q %s", id, code, out, stderr)
		}
	}
	if _, stderr, code := cli("plugin", "config-dir", ".."); code != 2 || !strings.Contains(stderr, `plugin id ".."`) {
		t.Fatalf("config-dir ..: %d %s", code, stderr)
	}
	good := WritePlugin(t, filepath.Join(h.Dir, "good"), PluginManifest("test.good", ""))
	entry := func(id string) string {
		return `{"plugin_id":"` + id + `","name":"N","version":"1.0.0","min_herdr_version":"0.1.0","manifest_path":"` + filepath.Join(h.Dir, "gone", "herdr-plugin.toml") +
			`","plugin_root":"` + h.Dir + `","enabled":true,"build":[],"startup":[],"actions":[],"events":[],"panes":[],"link_handlers":[],"warnings":[]}`
	}
	reg := filepath.Join(h.ConfigHome, "herdr", "plugins.json")
	if err := os.WriteFile(reg, []byte("["+entry("..")+","+entry(".")+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := cli("plugin", "list")
	if code != 0 || len(OK[protocol.PluginList](t, CLIResponse(t, out), "plugin_list").Plugins) != 0 || strings.Count(stderr, "entry refused") != 2 {
		t.Fatalf("offline list of a registry with ids . and ..: %d %q %q", code, out, stderr)
	}

	s := h.Start(t, "ids")
	if listed := OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list").Plugins; len(listed) != 0 {
		t.Fatalf("the server loaded %+v", listed)
	}
	Fail(t, s.Call("plugin.link", map[string]any{"path": WritePlugin(t, filepath.Join(h.Dir, "up"), PluginManifest("..", ""))}), "invalid_plugin_id")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": good}), "plugin_linked")
	if listed := OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list").Plugins; len(listed) != 1 || listed[0].PluginID != "test.good" {
		t.Fatalf("listed %+v", listed)
	}
}

// A manifest that is a symlink to /dev/zero, or a FIFO, is refused at once
// with plugin_manifest_read_failed; the server keeps answering. A
// plugins.json that is a FIFO does not hold the server's start, and is not
// saved over.
func TestHardening_PluginFiles_NotRegularRefused(t *testing.T) {
	h := NewHome(t)
	zero := filepath.Join(h.Dir, "zero")
	fifo := filepath.Join(h.Dir, "fifo")
	for _, d := range []string{zero, fifo} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(zero, "herdr-plugin.toml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fifo, "herdr-plugin.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "files")
	for _, dir := range []string{zero, fifo} {
		msg := Fail(t, s.Call("plugin.link", map[string]any{"path": dir}), protocol.CodePluginManifestRead)
		if !strings.Contains(msg, "not a regular file") {
			t.Fatalf("link %s: %s", dir, msg)
		}
		OK[protocol.Pong](t, s.Call("ping", nil), "pong")
	}

	reg := filepath.Join(h.ConfigHome, "herdr", "plugins.json")
	if err := syscall.Mkfifo(reg, 0o600); err != nil {
		t.Fatal(err)
	}
	s = h.Start(t, "fifo")
	OK[protocol.PluginList](t, s.Call("plugin.list", nil), "plugin_list")
	Fail(t, s.Call("plugin.link", map[string]any{"path": WritePlugin(t, filepath.Join(h.Dir, "good"), PluginManifest("test.good", ""))}), protocol.CodePluginRegistryLoad)
	if fi, err := os.Lstat(reg); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("plugins.json was replaced: %v %v", fi.Mode(), err)
	}
}
