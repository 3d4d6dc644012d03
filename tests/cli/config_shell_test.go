package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Config that cannot start a pane (issue 28, item 7): a default_shell that
// is not installed is reported by `config check`, at start and by
// reload-config, and new panes fall back to $SHELL, then /bin/sh. And the
// file `herdr --default-config` prints passes `config check`, so the two
// cannot drift apart.

// The default config, written as config.toml, is a config with no issues.
func TestConfigCheck_DefaultConfigPasses(t *testing.T) {
	h := NewHome(t)
	def, stderr, code := RunCLI(t, h.Env, "--default-config")
	if code != 0 || !strings.Contains(def, "[terminal]") {
		t.Fatalf("--default-config: exit %d, stderr %q, %d bytes", code, stderr, len(def))
	}
	path := filepath.Join(t.TempDir(), "default.toml")
	if err := os.WriteFile(path, []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := RunCLI(t, append(h.Env, "HERDR_CONFIG_PATH="+path), "config", "check")
	if code != 0 || strings.TrimSpace(out) != "config: ok" {
		t.Fatalf("config check of the default config: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

// A default_shell that does not exist: config check warns (exit 1), the
// server says so in its log and in reload-config's diagnostics, and
// workspaces and splits still start, on /bin/sh when $SHELL is missing
// too.
func TestConfig_MissingDefaultShellFallsBack(t *testing.T) {
	h := NewHome(t)
	missing := filepath.Join(t.TempDir(), "zsh")
	h.WriteConfig(t, "") // default_shell = "/bin/sh" …
	cfg := filepath.Join(h.ConfigHome, "herdr", "config.toml")
	body := "[terminal]\ndefault_shell = \"" + missing + "\"\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil { // … replaced by the missing one
		t.Fatal(err)
	}
	h.Env = append(h.Env, "SHELL="+filepath.Join(t.TempDir(), "bash")) // missing too: /bin/sh is left

	out, _, code := RunCLI(t, h.Env, "config", "check")
	if code != 1 || !strings.Contains(out, "config: issues found") || !strings.Contains(out, "terminal.default_shell: cannot start "+missing) {
		t.Fatalf("config check: exit %d, want 1 and a default_shell line:\n%s", code, out)
	}

	s := h.Start(t, "shell")
	ws := s.CreateWorkspace(t, nil)
	first := ws.RootPane.PaneID
	split := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": first, "direction": "right"}), "pane_info")
	for _, p := range []string{first, split.Pane.PaneID} {
		s.WaitPrompt(t, p)
		s.Run(t, p, `echo "shell=$0"`)
		s.WaitLine(t, p, "shell=/bin/sh")
	}

	r := OK[protocol.ConfigReload](t, s.CallT(t, "server.reload_config", nil), "config_reload")
	if r.Status != "partial" || !anyContains(r.Diagnostics, "terminal.default_shell: cannot start "+missing) {
		t.Fatalf("reload-config: status %q, diagnostics %q", r.Status, r.Diagnostics)
	}
	log := filepath.Join(h.Dir, "s", "herdr", "sessions", s.Name, "herdr-server.log")
	WaitFor(t, "the server log to say why and what it runs instead", func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), "terminal.default_shell: cannot start") && // at start
			strings.Contains(string(b), "falling back") && strings.Contains(string(b), "shell=/bin/sh") // at spawn
	})
}

func anyContains(list []string, want string) bool {
	for _, s := range list {
		if strings.Contains(s, want) {
			return true
		}
	}
	return false
}

// A pane.split sent right after server.reload_config's answer starts the
// reloaded default_shell: the reload reaches the session before it is
// answered.
func TestConfig_ReloadedShellStartsTheNextSplit(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "")
	dir, err := os.MkdirTemp("", "hs") // short: the line must fit the split pane
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	other := filepath.Join(dir, "othersh")
	if err := os.Symlink("/bin/sh", other); err != nil {
		t.Skipf("no symlink to /bin/sh: %v", err)
	}
	s := h.Start(t, "reload")
	ws := s.CreateWorkspace(t, nil)
	cfg := filepath.Join(h.ConfigHome, "herdr", "config.toml")
	if err := os.WriteFile(cfg, []byte("[terminal]\ndefault_shell = \""+other+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := OK[protocol.ConfigReload](t, s.CallT(t, "server.reload_config", nil), "config_reload"); r.Status != "applied" {
		t.Fatalf("reload-config: %+v", r)
	}
	split := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": ws.RootPane.PaneID, "direction": "right"}), "pane_info")
	s.WaitPrompt(t, split.Pane.PaneID)
	s.Run(t, split.Pane.PaneID, `echo "shell=$0"`)
	s.WaitLine(t, split.Pane.PaneID, "shell="+other)
}
