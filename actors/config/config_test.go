package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// envMap returns an env lookup backed by m, so tests never read the process env.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefault(t *testing.T) {
	d := Default()
	if d.Terminal.DefaultShell != "" || d.Terminal.ShellMode != "auto" || d.Terminal.NewCwd != "follow" {
		t.Errorf("terminal defaults = %+v", d.Terminal)
	}
	if d.Advanced.ScrollbackLimitBytes != 10_000_000 {
		t.Errorf("scrollback default = %d", d.Advanced.ScrollbackLimitBytes)
	}
	if d.UI.Toast.Delivery != "off" {
		t.Errorf("toast default = %q", d.UI.Toast.Delivery)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(good, []byte("[terminal]\nshell_mode = \"login\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[terminal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	loginCfg := Default()
	loginCfg.Terminal.ShellMode = "login"

	tests := []struct {
		name      string
		path      string
		want      Config
		wantDiags int
		status    Status
	}{
		{"missing file gives defaults", filepath.Join(dir, "nope.toml"), Default(), 0, StatusApplied},
		{"existing file is read", good, loginCfg, 0, StatusApplied},
		{"syntax error fails", bad, Default(), 1, StatusFailed},
		{"directory is unreadable", dir, Default(), 1, StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags, status := Load(tt.path)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("config = %+v, want %+v", got, tt.want)
			}
			if len(diags) != tt.wantDiags {
				t.Errorf("diags = %q, want %d", diags, tt.wantDiags)
			}
			if status != tt.status {
				t.Errorf("status = %q, want %q", status, tt.status)
			}
		})
	}
}

func TestParse(t *testing.T) {
	with := func(f func(*Config)) Config {
		c := Default()
		f(&c)
		return c
	}
	tests := []struct {
		name   string
		input  string
		want   Config
		status Status
		diags  []string // Each must appear in its own diagnostic, in order.
	}{
		{"empty file", "", Default(), StatusApplied, nil},
		{"default_shell", "[terminal]\ndefault_shell = \"/bin/zsh\"\n",
			with(func(c *Config) { c.Terminal.DefaultShell = "/bin/zsh" }), StatusApplied, nil},
		{"shell_mode login", "[terminal]\nshell_mode = \"login\"\n",
			with(func(c *Config) { c.Terminal.ShellMode = "login" }), StatusApplied, nil},
		{"shell_mode non_login", "[terminal]\nshell_mode = \"non_login\"\n",
			with(func(c *Config) { c.Terminal.ShellMode = "non_login" }), StatusApplied, nil},
		{"new_cwd", "[terminal]\nnew_cwd = \"home\"\n",
			with(func(c *Config) { c.Terminal.NewCwd = "home" }), StatusApplied, nil},
		{"scrollback_limit_bytes", "[advanced]\nscrollback_limit_bytes = 5000\n",
			with(func(c *Config) { c.Advanced.ScrollbackLimitBytes = 5000 }), StatusApplied, nil},
		{"scrollback_lines alias", "[advanced]\nscrollback_lines = 42\n",
			with(func(c *Config) { c.Advanced.ScrollbackLimitBytes = 42 }), StatusApplied, nil},
		{"canonical key beats alias", "[advanced]\nscrollback_limit_bytes = 7\nscrollback_lines = 42\n",
			with(func(c *Config) { c.Advanced.ScrollbackLimitBytes = 7 }), StatusPartial,
			[]string{"advanced.scrollback_lines ignored"}},
		{"kitty_graphics off", "[terminal]\nkitty_graphics = false\n",
			with(func(c *Config) { c.Terminal.KittyGraphics = false }), StatusApplied, nil},
		{"experimental.kitty_graphics is the older place", "[experimental]\nkitty_graphics = false\n",
			with(func(c *Config) { c.Terminal.KittyGraphics = false }), StatusApplied, nil},
		{"terminal.kitty_graphics beats experimental", "[experimental]\nkitty_graphics = false\n[terminal]\nkitty_graphics = true\n",
			Default(), StatusPartial, []string{"experimental.kitty_graphics ignored: terminal.kitty_graphics is also set"}},
		{"experimental.kitty_graphics wrong type", "[experimental]\nkitty_graphics = 1\n",
			Default(), StatusPartial, []string{"experimental.kitty_graphics: expected a boolean"}},
		{"toast delivery", "[ui.toast]\ndelivery = \"system\"\n",
			with(func(c *Config) { c.UI.Toast.Delivery = "system" }), StatusApplied, nil},
		{"all keys together", `
[terminal]
default_shell = "/usr/bin/fish"
shell_mode = "non_login"
new_cwd = "home"

[advanced]
scrollback_limit_bytes = 123
headless_cols = 120
headless_rows = 40

[ui.toast]
delivery = "herdr"
`, with(func(c *Config) {
			c.Terminal = Terminal{DefaultShell: "/usr/bin/fish", ShellMode: "non_login", NewCwd: "home", KittyGraphics: true}
			c.Advanced = Advanced{ScrollbackLimitBytes: 123, HeadlessCols: 120, HeadlessRows: 40, PersistScrollbackLines: DefaultPersistScrollbackLines, PersistScrollbackDiskMB: DefaultPersistScrollbackDiskMB}
			c.UI.Toast.Delivery = "herdr"
		}), StatusApplied, nil},
		{"mistakes in every section are reported", `
onboarding = true
[theme]
name = "dark"
[theme.custom]
bg = "#000000"
[update]
check = false
[[keys.command]]
key = "ctrl+x"
[ui]
compact = true
[ui.sidebar]
width = 30
[ui.toast]
sound = true
[worktrees]
dir = "x"
[experimental]
thing = 1
[remote]
host = "h"
`, with(func(c *Config) { t := true; c.Onboarding = &t }), StatusPartial, []string{
			"unknown key experimental.thing", "keys.command[0].command: must not be empty", "unknown key remote.host",
			`theme.name: unknown theme "dark"`, "unknown key theme.custom.bg", "unknown key ui.compact",
			"unknown key ui.sidebar.width", "unknown key ui.toast.sound", "unknown key update.check", "unknown key worktrees.dir"}},
		{"unknown terminal key", "[terminal]\nfoo = 1\nshell_mode = \"login\"\n",
			with(func(c *Config) { c.Terminal.ShellMode = "login" }), StatusPartial,
			[]string{"unknown key terminal.foo"}},
		{"unknown advanced key", "[advanced]\nbar = \"x\"\n", Default(), StatusPartial,
			[]string{"unknown key advanced.bar"}},
		{"unknown section", "[foo]\nx = 1\n[terminal]\nnew_cwd = \"home\"\n",
			with(func(c *Config) { c.Terminal.NewCwd = "home" }), StatusPartial,
			[]string{"unknown section [foo]"}},
		{"misspelt section names the one meant", "[termnal]\nnew_cwd = \"home\"\n", Default(), StatusPartial,
			[]string{"unknown section [termnal]; did you mean [terminal]?"}},
		{"unknown top-level key", "stray = 1\n", Default(), StatusPartial,
			[]string{"unknown key stray"}},
		{"default_shell wrong type keeps default, rest applied", "[terminal]\ndefault_shell = 3\nshell_mode = \"login\"\n",
			with(func(c *Config) { c.Terminal.ShellMode = "login" }), StatusPartial,
			[]string{"terminal.default_shell: expected a string"}},
		{"shell_mode wrong type", "[terminal]\nshell_mode = true\n", Default(), StatusPartial,
			[]string{"terminal.shell_mode: expected a string"}},
		{"new_cwd wrong type", "[terminal]\nnew_cwd = []\n", Default(), StatusPartial,
			[]string{"terminal.new_cwd: expected a string"}},
		{"new_cwd empty means follow", "[terminal]\nnew_cwd = \"\"\n", Default(), StatusApplied, nil},
		{"scrollback wrong type", "[advanced]\nscrollback_limit_bytes = \"big\"\n", Default(), StatusPartial,
			[]string{"advanced.scrollback_limit_bytes: expected an integer"}},
		{"scrollback float", "[advanced]\nscrollback_limit_bytes = 1.5\n", Default(), StatusPartial,
			[]string{"advanced.scrollback_limit_bytes: expected an integer"}},
		{"scrollback zero", "[advanced]\nscrollback_limit_bytes = 0\n", Default(), StatusPartial,
			[]string{"advanced.scrollback_limit_bytes: must be at least 1"}},
		{"scrollback alias negative names alias", "[advanced]\nscrollback_lines = -5\n", Default(), StatusPartial,
			[]string{"advanced.scrollback_lines: must be at least 1"}},
		{"headless size out of range", "[advanced]\nheadless_cols = 5\nheadless_rows = 5000\n", Default(), StatusPartial,
			[]string{"advanced.headless_cols: must be at least 10", "advanced.headless_rows: 5000 is too large"}},
		{"section not a table", "terminal = 3\n[advanced]\nscrollback_lines = 9\n",
			with(func(c *Config) { c.Advanced.ScrollbackLimitBytes = 9 }), StatusPartial,
			[]string{"terminal: expected a table"}},
		{"ui.toast not a table", "[ui]\ntoast = \"on\"\n", Default(), StatusPartial,
			[]string{"ui.toast: expected a table"}},
		{"bad shell_mode enum", "[terminal]\nshell_mode = \"zsh\"\n", Default(), StatusPartial,
			[]string{`terminal.shell_mode: invalid value "zsh" (allowed: "auto", "login", "non_login")`}},
		{"bad toast enum", "[ui.toast]\ndelivery = \"loud\"\n", Default(), StatusPartial,
			[]string{`ui.toast.delivery: invalid value "loud" (allowed: "off", "herdr", "terminal", "system")`}},
		{"several problems all reported", "[terminal]\ndefault_shell = 1\nshell_mode = \"x\"\nzzz = 0\n", Default(), StatusPartial,
			[]string{"terminal.default_shell", "terminal.shell_mode", "unknown key terminal.zzz"}},
		{"syntax error keeps defaults", "[terminal]\nshell_mode = \"login\"\nbroken = \n", Default(), StatusFailed,
			[]string{"line 3"}},
		{"unterminated table header", "[advanced]\nscrollback_lines = 1\n[terminal\n", Default(), StatusFailed,
			[]string{"line 3"}},
		{"duplicate key is a TOML error", "[terminal]\nnew_cwd = \"a\"\nnew_cwd = \"b\"\n", Default(), StatusFailed,
			[]string{"line 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags, status := Parse([]byte(tt.input))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("config = %+v, want %+v", got, tt.want)
			}
			if status != tt.status {
				t.Errorf("status = %q, want %q (diags %q)", status, tt.status, diags)
			}
			if len(diags) != len(tt.diags) {
				t.Fatalf("diags = %q, want %d matching %q", diags, len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				if !strings.Contains(diags[i], want) {
					t.Errorf("diag[%d] = %q, want it to contain %q", i, diags[i], want)
				}
			}
		})
	}
}

func TestShell(t *testing.T) {
	withShell := func(shell, mode string) Config {
		c := Default()
		c.Terminal.DefaultShell = shell
		c.Terminal.ShellMode = mode
		return c
	}
	tests := []struct {
		name     string
		cfg      Config
		env      map[string]string
		goos     string
		wantPath string
		wantArgs []string
	}{
		{"config beats $SHELL", withShell("/bin/zsh", "non_login"), map[string]string{"SHELL": "/bin/bash"}, "linux", "/bin/zsh", nil},
		{"$SHELL when config empty", withShell("", "non_login"), map[string]string{"SHELL": "/bin/bash"}, "linux", "/bin/bash", nil},
		{"/bin/sh fallback", withShell("", "non_login"), nil, "linux", "/bin/sh", nil},
		{"login mode", withShell("/bin/zsh", "login"), nil, "linux", "/bin/zsh", []string{"-l"}},
		{"non_login on macOS", withShell("/bin/zsh", "non_login"), nil, "darwin", "/bin/zsh", nil},
		{"auto on macOS is login", withShell("", "auto"), map[string]string{"SHELL": "/bin/zsh"}, "darwin", "/bin/zsh", []string{"-l"}},
		{"auto on linux is not login", withShell("", "auto"), map[string]string{"SHELL": "/bin/zsh"}, "linux", "/bin/zsh", nil},
		{"PowerShell on Windows", withShell("", "auto"), nil, "windows", "powershell.exe", nil},
		{"no login mode on Windows", withShell("pwsh.exe", "login"), nil, "windows", "pwsh.exe", nil},
		{"$SHELL on Windows", withShell("", "non_login"), map[string]string{"SHELL": "bash.exe"}, "windows", "bash.exe", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, args := tt.cfg.shellFor(tt.goos, envMap(tt.env))
			if path != tt.wantPath || !slices.Equal(args, tt.wantArgs) {
				t.Errorf("shell = %q %q, want %q %q", path, args, tt.wantPath, tt.wantArgs)
			}
		})
	}
}

func TestShellPublic(t *testing.T) {
	// The exported method must honour config > $SHELL > the host's default.
	c := Default()
	c.Terminal.ShellMode = "login"
	wantArgs := []string{"-l"}
	if runtime.GOOS == "windows" {
		wantArgs = nil
	}
	if path, args := c.Shell(envMap(map[string]string{"SHELL": "/bin/fish"})); path != "/bin/fish" || !slices.Equal(args, wantArgs) {
		t.Errorf("Shell = %q %q", path, args)
	}
	c.Terminal.ShellMode = "non_login"
	if path, args := c.Shell(envMap(nil)); path != defaultShell(runtime.GOOS) || len(args) != 0 {
		t.Errorf("Shell = %q %q", path, args)
	}
}

func TestPathAndDir(t *testing.T) {
	tmp := protocol.ConfigDir(func(string) string { return "" })
	tests := []struct {
		name    string
		env     map[string]string
		wantDir string
		want    string
	}{
		{"HERDR_CONFIG_PATH wins", map[string]string{"HERDR_CONFIG_PATH": "/etc/h.toml", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"},
			"/xdg/herdr", "/etc/h.toml"},
		{"XDG_CONFIG_HOME beats HOME", map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"},
			"/xdg/herdr", "/xdg/herdr/config.toml"},
		{"HOME", map[string]string{"HOME": "/home/u"},
			"/home/u/.config/herdr", "/home/u/.config/herdr/config.toml"},
		{"temp dir fallback", nil, tmp, filepath.Join(tmp, "config.toml")},
		{"empty values are unset", map[string]string{"HERDR_CONFIG_PATH": "", "XDG_CONFIG_HOME": "", "HOME": "/home/u"},
			"/home/u/.config/herdr", "/home/u/.config/herdr/config.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := envMap(tt.env)
			if got := Dir(env); got != filepath.FromSlash(tt.wantDir) && got != tt.wantDir {
				t.Errorf("Dir = %q, want %q", got, tt.wantDir)
			}
			if got := Path(env); got != filepath.FromSlash(tt.want) && got != tt.want {
				t.Errorf("Path = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParse_Session(t *testing.T) {
	if !Default().Session.ResumeAgentsOnRestore {
		t.Fatal("resume_agents_on_restore defaults to true")
	}
	cfg, diags, st := Parse([]byte("[session]\nresume_agents_on_restore = false\n"))
	if cfg.Session.ResumeAgentsOnRestore || len(diags) != 0 || st != StatusApplied {
		t.Fatalf("got %+v %v %s", cfg.Session, diags, st)
	}
	cfg, diags, st = Parse([]byte("[session]\nresume_agents_on_restore = \"no\"\nsurprise = 1\n"))
	if !cfg.Session.ResumeAgentsOnRestore || len(diags) != 2 || st != StatusPartial {
		t.Fatalf("got %+v %v %s", cfg.Session, diags, st)
	}
}

// TestStartableShell: a shell that cannot start is passed over, saying
// why: default_shell, then $SHELL, then the platform's default.
func TestStartableShell(t *testing.T) {
	installed := map[string]bool{"/bin/bash": true, "/bin/sh": true, "pwsh.exe": true}
	check := func(p string) error {
		if installed[p] {
			return nil
		}
		return errors.New("no such program")
	}
	withShell := func(shell string) Config {
		c := Default()
		c.Terminal.DefaultShell, c.Terminal.ShellMode = shell, ShellModeLogin
		return c
	}
	tests := []struct {
		name, shell, env, goos, want string
		skipped                      int
	}{
		{"configured and installed", "/bin/bash", "/bin/zsh", "linux", "/bin/bash", 0},
		{"configured missing: $SHELL", "/bin/zsh", "/bin/bash", "linux", "/bin/bash", 1},
		{"both missing: /bin/sh", "/bin/zsh", "/usr/bin/fish", "linux", "/bin/sh", 2},
		{"nothing configured, $SHELL missing", "", "/usr/bin/fish", "darwin", "/bin/sh", 1},
		{"Windows: PowerShell", "nu.exe", "", "windows", "powershell.exe", 1},
		{"Windows: configured and installed", "pwsh.exe", "", "windows", "pwsh.exe", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, args, skipped := withShell(tt.shell).startableFor(tt.goos, envMap(map[string]string{"SHELL": tt.env}), check)
			if path != tt.want || len(skipped) != tt.skipped {
				t.Fatalf("shell %q, skipped %q; want %q after %d skipped", path, skipped, tt.want, tt.skipped)
			}
			if wantLogin := tt.goos != "windows"; wantLogin != slices.Equal(args, []string{"-l"}) {
				t.Errorf("args %q: the login mode applies to the shell run instead", args)
			}
			for _, s := range skipped {
				if !strings.Contains(s, "no such program") {
					t.Errorf("skipped %q does not say why", s)
				}
			}
		})
	}
}

// TestCheckShell: a missing program, a directory and a file without the
// execute bit cannot start a pane; a program found in PATH can. A config
// naming one that cannot is partly applied and says so.
func TestCheckShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("execute bits and /bin/sh are Unix's")
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "zsh"): "no such program",
		dir:                       "directory",
		plain:                     "not executable",
		"/bin/sh":                 "",
		"sh":                      "",
	} {
		err := CheckShell(path)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckShell(%s) = %v, want %q", path, err, want)
		}
	}
	cfgPath := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfgPath, []byte("[terminal]\ndefault_shell = \""+plain+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags, status := Load(cfgPath)
	if status != StatusPartial || len(diags) != 1 || !strings.HasPrefix(diags[0], "terminal.default_shell: cannot start "+plain+" (not executable)") {
		t.Fatalf("Load: %s %q", status, diags)
	}
	if cfg.Terminal.DefaultShell != plain {
		t.Errorf("default_shell %q: kept, for when it is installed", cfg.Terminal.DefaultShell)
	}
}
