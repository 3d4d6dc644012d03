package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/config"
)

// writeConfig writes config.toml where env's config directory puts it.
func writeConfig(t *testing.T, env testEnv, text string) string {
	t.Helper()
	path := config.Path(env.get)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfig_Check_NoFileIsOK(t *testing.T) {
	r := run(t, newEnv(t), "config", "check")
	if r.code != 0 || r.stdout != "config: ok\n" || r.stderr != "" {
		t.Fatalf("got %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestConfig_Check_ValidFileIsOK(t *testing.T) {
	env := newEnv(t)
	writeConfig(t, env, "[keys]\nsplit_vertical = \"prefix+|\"\n[ui]\nsidebar_width = 30\n")
	if r := run(t, env, "config", "check"); r.code != 0 || r.stdout != "config: ok\n" {
		t.Fatalf("got %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestConfig_Check_ReportsEachIssue(t *testing.T) {
	env := newEnv(t)
	writeConfig(t, env, "[keys]\nsplit_vertical = 5\nclose_pane = \"bogus+q\"\n[theme]\nname = \"neon\"\n[ui]\naccent = \"#12\"\nwat = 1\n[experimental]\nswitch_ascii_input_source_in_prefix = true\n")
	r := run(t, env, "config", "check")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (%q %q)", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := []string{"config: issues found", "keys.close_pane", "keys.split_vertical", "theme.name", "ui.accent", "unknown key ui.wat", "experimental.switch_ascii_input_source_in_prefix: not supported by this client"}
	if len(lines) != len(want) {
		t.Fatalf("lines = %q, want %d", lines, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) && !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %q, want it to name %q", i, lines[i], w)
		}
	}
}

func TestConfig_Check_SyntaxError(t *testing.T) {
	env := newEnv(t)
	writeConfig(t, env, "[ui\n")
	r := run(t, env, "config", "check")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "config: issues found\ninvalid TOML at line 1") {
		t.Fatalf("got %d %q", r.code, r.stdout)
	}
}

func TestConfig_Path(t *testing.T) {
	env := newEnv(t)
	if r := run(t, env, "config", "path"); r.code != 0 || r.stdout != filepath.Join(env["XDG_CONFIG_HOME"], "herdr", "config.toml")+"\n" {
		t.Fatalf("got %d %q", r.code, r.stdout)
	}
	env["HERDR_CONFIG_PATH"] = "/somewhere/else.toml"
	if r := run(t, env, "config", "path"); r.code != 0 || r.stdout != "/somewhere/else.toml\n" {
		t.Fatalf("HERDR_CONFIG_PATH: got %d %q", r.code, r.stdout)
	}
}

func TestConfig_Usage(t *testing.T) {
	env := newEnv(t)
	for _, args := range [][]string{{"config"}, {"config", "check", "x"}, {"config", "path", "x"}, {"config", "reset-keys", "x"}, {"config", "nope"}} {
		if r := run(t, env, args...); r.code != 2 {
			t.Errorf("%q: exit %d, want 2", args, r.code)
		}
	}
}

func TestConfig_ResetKeys(t *testing.T) {
	env := newEnv(t)
	original := `# my settings
onboarding = false

[theme]
name = "nord" # cold

[keys]
prefix = "ctrl+a"
new_tab = "prefix+t"

[[keys.command]]
key = "prefix+g"
command = "lazygit"

[ keys.indexed ]
tabs = "ctrl"

[ui]
# keep me
mouse_capture = false
`
	path := writeConfig(t, env, original)
	before := time.Now().Unix()
	r := run(t, env, "config", "reset-keys")
	if r.code != 0 {
		t.Fatalf("exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "# my settings\nonboarding = false\n\n[theme]\nname = \"nord\" # cold\n\n[ui]\n# keep me\nmouse_capture = false\n"
	if string(got) != want {
		t.Errorf("config.toml =\n%s\nwant\n%s", got, want)
	}
	backups, _ := filepath.Glob(path + ".bak-keybind-v2-*")
	if len(backups) != 1 {
		t.Fatalf("backups = %q", backups)
	}
	var stamp int64
	if _, err := fmt.Sscan(strings.TrimPrefix(backups[0], path+".bak-keybind-v2-"), &stamp); err != nil || stamp < before || stamp > time.Now().Unix() {
		t.Errorf("backup name %q has no current timestamp", backups[0])
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != original {
		t.Errorf("backup = %q, want the original", b)
	}
	if !strings.Contains(r.stdout, backups[0]) {
		t.Errorf("stdout %q does not name the backup", r.stdout)
	}
	cfg, diags, _ := config.Load(path)
	if len(diags) != 0 || cfg.Keys.Prefix != "ctrl+b" || cfg.UI.MouseCapture || cfg.Theme.Name != "nord" {
		t.Errorf("after reset: %v prefix=%q mouse=%v theme=%q", diags, cfg.Keys.Prefix, cfg.UI.MouseCapture, cfg.Theme.Name)
	}
}

func TestConfig_ResetKeys_NothingToDo(t *testing.T) {
	env := newEnv(t)
	if r := run(t, env, "config", "reset-keys"); r.code != 0 || !strings.Contains(r.stdout, "No config file") {
		t.Fatalf("no file: %d %q", r.code, r.stdout)
	}
	path := writeConfig(t, env, "[ui]\nmouse_capture = false\n")
	if r := run(t, env, "config", "reset-keys"); r.code != 0 || !strings.Contains(r.stdout, "No [keys]") {
		t.Fatalf("no keys: %d %q", r.code, r.stdout)
	}
	if backups, _ := filepath.Glob(path + ".bak-*"); len(backups) != 0 {
		t.Errorf("backups made with nothing to reset: %q", backups)
	}
}

func TestConfig_ResetKeys_InvalidTOMLIsLeftAlone(t *testing.T) {
	env := newEnv(t)
	path := writeConfig(t, env, "[keys\nprefix = 1\n")
	r := run(t, env, "config", "reset-keys")
	if r.code != 1 || !strings.Contains(r.stderr, "not valid TOML") {
		t.Fatalf("got %d %q %q", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "[keys\nprefix = 1\n" {
		t.Errorf("file changed: %q", b)
	}
}

func TestDefaultConfigFlag(t *testing.T) {
	r := run(t, newEnv(t), "--default-config")
	if r.code != 0 || r.stdout != config.DefaultFile() {
		t.Fatalf("exit %d, output differs from config.DefaultFile", r.code)
	}
	cfg, diags, status := config.Parse([]byte(r.stdout))
	if len(diags) != 0 || status != config.StatusApplied || !reflect.DeepEqual(cfg, config.Default()) {
		t.Fatalf("parsing --default-config: %v %s; equal to Default: %v", diags, status, reflect.DeepEqual(cfg, config.Default()))
	}
}

func TestChannel_ShowAndSet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	env := map[string]string{"HOME": dir, "HERDR_CONFIG_PATH": path}
	if r := run(t, env, "channel", "show"); r.code != 0 || strings.TrimSpace(r.stdout) != "stable" {
		t.Fatalf("show with no file: %d %q", r.code, r.stdout)
	}
	os.WriteFile(path, []byte("# mine\n[terminal]\nshell_mode = \"login\"\n\n[update]\nversion_check = false\n"), 0o600)
	if r := run(t, env, "channel", "set", "preview"); r.code != 0 || !strings.Contains(r.stdout, "set to preview") {
		t.Fatalf("set: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, env, "channel", "show"); strings.TrimSpace(r.stdout) != "preview" {
		t.Fatalf("show after set: %q", r.stdout)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "# mine") || !strings.Contains(string(b), "version_check = false") || strings.Count(string(b), "[update]") != 1 {
		t.Fatalf("the rest of the file was not kept:\n%s", b)
	}
	run(t, env, "channel", "set", "stable")
	if b, _ := os.ReadFile(path); strings.Count(string(b), "channel =") != 1 {
		t.Fatalf("a second set added a line:\n%s", b)
	}
	if r := run(t, env, "channel", "set", "nightly"); r.code != 2 {
		t.Fatalf("bad channel: exit %d", r.code)
	}
	os.WriteFile(path, []byte("[update\n"), 0o600)
	if r := run(t, env, "channel", "set", "stable"); r.code != 1 || !strings.Contains(r.stderr, "invalid TOML") {
		t.Fatalf("invalid file: %d %s", r.code, r.stderr)
	}
}

func TestSkillFlag(t *testing.T) {
	r := run(t, map[string]string{"HOME": t.TempDir()}, "--skill")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "---\nname: herdr\n") || !strings.Contains(r.stdout, "herdr worktree create") {
		t.Fatalf("--skill: exit %d %q", r.code, r.stdout[:min(len(r.stdout), 80)])
	}
}
