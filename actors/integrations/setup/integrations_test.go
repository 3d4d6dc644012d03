package setup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// fakeEnv is a temp HOME plus extra variables.
func fakeEnv(t *testing.T, vars map[string]string) (string, func(string) string) {
	t.Helper()
	home := t.TempDir()
	return home, func(k string) string {
		if k == "HOME" {
			return home
		}
		return vars[k]
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot maps every file under dir to its contents and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = info.Mode().String() + "\n" + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fixture is one target's pre-existing configuration: files the user
// already had (one of them holding an old herdr entry), where herdr's
// registration must appear, and where the user's own entry must survive.
type fixture struct {
	dir      string            // config dir relative to HOME
	seed     map[string]string // files relative to the config dir
	settings string            // file holding herdr's registration ("" = none)
	mark     string            // what shows herdr is registered there ("" = the script path)
	user     string            // file holding the user's entry
	old      string            // an old herdr entry that install must replace ("" = none)
}

const oldHook = "/old/place/herdr-agent-state.sh"

func claudeStyle(event string) string {
	return `{"model":"opus","hooks":{"` + event + `":[{"matcher":"*","hooks":[{"type":"command","command":"echo user-hook"}]}],` +
		`"Stop":[{"matcher":"*","hooks":[{"type":"command","command":"bash '` + oldHook + `' idle","timeout":10}]}]}}`
}

var fixtures = map[string]fixture{
	"pi":  {dir: ".pi/agent", seed: map[string]string{"extensions/user.ts": "// user-hook\n"}, user: "extensions/user.ts"},
	"omp": {dir: ".omp/agent", seed: map[string]string{"extensions/user.ts": "// user-hook\n"}, user: "extensions/user.ts"},
	"claude": {dir: ".claude", seed: map[string]string{"settings.json": claudeStyle("SessionStart")},
		settings: "settings.json", user: "settings.json", old: oldHook},
	"codex": {dir: ".codex", seed: map[string]string{"hooks.json": claudeStyle("SessionStart"), "config.toml": "model = \"gpt-5\" # user-hook\n\n[features]\nother = true\n"},
		settings: "hooks.json", user: "hooks.json", old: oldHook},
	"copilot": {dir: ".copilot", seed: map[string]string{"settings.json": `{"hooks":{"SessionStart":[{"type":"command","bash":"echo user-hook","timeoutSec":5},` +
		`{"type":"command","bash":"bash '` + oldHook + `'","timeoutSec":10}]},"theme":"dark"}`},
		settings: "settings.json", user: "settings.json", old: oldHook},
	"devin": {dir: ".config/devin", seed: map[string]string{"config.json": claudeStyle("PreToolUse")},
		settings: "config.json", user: "config.json", old: oldHook},
	"droid": {dir: ".factory", seed: map[string]string{"settings.json": claudeStyle("SessionStart"), "hooks.json": claudeStyle("SessionStart")},
		settings: "settings.json", user: "settings.json", old: oldHook},
	"kimi": {dir: ".kimi-code", seed: map[string]string{"config.toml": "default_model = \"k2\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"echo user-hook\"\n\n" +
		"# >>> herdr kimi integration\n[[hooks]]\nevent = \"Stop\"\ncommand = \"bash '" + oldHook + "' idle\"\n# <<< herdr kimi integration\n"},
		settings: "config.toml", user: "config.toml", old: oldHook},
	"opencode": {dir: ".config/opencode", seed: map[string]string{"plugins/user.js": "// user-hook\n"}, user: "plugins/user.js"},
	"kilo":     {dir: ".config/kilo", seed: map[string]string{"plugin/user.js": "// user-hook\n"}, user: "plugin/user.js"},
	"hermes": {dir: ".hermes", seed: map[string]string{"config.yaml": "model: x\nplugins:\n  enabled:\n    - user-hook\ndisplay:\n  theme: dark\n"},
		settings: "config.yaml", mark: "- herdr-agent-state", user: "config.yaml"},
	"qodercli": {dir: ".qoder", seed: map[string]string{"settings.json": claudeStyle("SessionStart")},
		settings: "settings.json", user: "settings.json", old: oldHook},
	"qwen": {dir: ".qwen", seed: map[string]string{"settings.json": claudeStyle("SessionStart")},
		settings: "settings.json", user: "settings.json", old: oldHook},
	"cursor": {dir: ".cursor", seed: map[string]string{"hooks.json": `{"version":1,"hooks":{"sessionStart":[{"command":"echo user-hook"}],"stop":[{"command":"bash '` + oldHook + `' session"}]}}`},
		settings: "hooks.json", user: "hooks.json", old: oldHook},
	"mastracode": {dir: ".mastracode", seed: map[string]string{"hooks.json": `{"SessionStart":[{"type":"command","command":"echo user-hook"}],"Stop":[{"type":"command","command":"bash '` + oldHook + `' idle"}]}`},
		settings: "hooks.json", user: "hooks.json", old: oldHook},
	"antigravity-cli": {dir: ".gemini/config", seed: map[string]string{"hooks.json": `{"mine":{"PreInvocation":[{"type":"command","command":"echo user-hook"}]},"herdr":{"PreInvocation":[{"type":"command","command":"bash '` + oldHook + `' session"}]}}`},
		settings: "hooks.json", user: "hooks.json", old: oldHook},
	"grok": {dir: ".grok", seed: map[string]string{"hooks/user.json": `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo user-hook"}]}]}}`,
		"hooks/herdr.json": `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"bash '` + oldHook + `' session"}]}]}}`},
		settings: "hooks/herdr.json", user: "hooks/user.json", old: oldHook},
}

func TestInstall_EveryTarget(t *testing.T) {
	if len(fixtures) != len(Targets()) || len(Targets()) != len(protocol.IntegrationTargets) {
		t.Fatalf("%d fixtures, %d targets, %d schema targets", len(fixtures), len(Targets()), len(protocol.IntegrationTargets))
	}
	for _, tg := range Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			fx, ok := fixtures[tg.Name]
			if !ok {
				t.Fatalf("no fixture for %s", tg.Name)
			}
			home, env := fakeEnv(t, nil)
			dir := filepath.Join(home, filepath.FromSlash(fx.dir))
			if got, _ := tg.Dir(env); got != dir {
				t.Fatalf("config dir %s, want %s", got, dir)
			}
			for rel, body := range fx.seed {
				write(t, filepath.Join(dir, rel), body)
			}
			marker, _ := tg.MarkerFile(env)
			write(t, marker, "# HERDR_INTEGRATION_ID="+tg.Name+"\n# HERDR_INTEGRATION_VERSION=0\n")
			if s := StatusOf(tg, env); !s.Outdated() {
				t.Errorf("an old install is not outdated: %s", s)
			}
			msgs, err := Install(tg.Wire, env)
			if err != nil {
				t.Fatalf("install: %v (%v)", err, msgs)
			}
			if len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1], "installed "+tg.Name) {
				t.Errorf("messages %q", msgs)
			}
			text := read(t, marker)
			for _, want := range []string{"HERDR_INTEGRATION_ID=" + tg.Name, "HERDR_INTEGRATION_VERSION=" + strconv.Itoa(tg.Version), "HERDR_SOCKET_PATH", "HERDR_PANE_ID", tg.Source} {
				if !strings.Contains(text, want) {
					t.Errorf("%s lacks %q", marker, want)
				}
			}
			for _, a := range tg.files {
				p := filepath.Join(dir, filepath.FromSlash(a.rel))
				st, err := os.Stat(p)
				if err != nil {
					t.Fatalf("installed file: %v", err)
				}
				if a.exec && runtime.GOOS != "windows" && st.Mode().Perm()&0o100 == 0 {
					t.Errorf("%s is not executable: %v", p, st.Mode())
				}
			}
			if s := StatusOf(tg, env); !s.Present || s.Outdated() || s.Installed != tg.Version {
				t.Errorf("status after install: %s", s)
			}
			mark := fx.mark
			if mark == "" {
				mark = marker
			}
			if fx.settings != "" {
				settings := read(t, filepath.Join(dir, fx.settings))
				if !strings.Contains(settings, mark) {
					t.Errorf("%s does not register %q:\n%s", fx.settings, mark, settings)
				}
				if fx.old != "" && strings.Contains(settings, fx.old) {
					t.Errorf("old herdr entry kept in %s:\n%s", fx.settings, settings)
				}
			}
			if user := read(t, filepath.Join(dir, fx.user)); !strings.Contains(user, "user-hook") {
				t.Errorf("user's entry lost from %s on install:\n%s", fx.user, user)
			}
			if tg.Name == "droid" {
				legacy := read(t, filepath.Join(dir, "hooks.json"))
				if strings.Contains(legacy, scriptBase) || !strings.Contains(legacy, "user-hook") {
					t.Errorf("droid's legacy hooks.json:\n%s", legacy)
				}
			}
			if tg.Name == "codex" {
				cfg := read(t, filepath.Join(dir, "config.toml"))
				if !strings.Contains(cfg, "hooks = true") || !strings.Contains(cfg, "other = true") || !strings.Contains(cfg, "# user-hook") {
					t.Errorf("config.toml:\n%s", cfg)
				}
			}

			before := snapshot(t, home)
			if _, err := Install(tg.Name, env); err != nil {
				t.Fatalf("second install: %v", err)
			}
			after := snapshot(t, home)
			if len(before) != len(after) {
				t.Errorf("second install changed the file set: %d → %d files", len(before), len(after))
			}
			for p, b := range before {
				if after[p] != b {
					t.Errorf("second install changed %s:\n%s\n---\n%s", p, b, after[p])
				}
			}

			if _, err := Uninstall(tg.Name, env); err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			for _, a := range tg.files {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(a.rel))); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s still there after uninstall (%v)", a.rel, err)
				}
			}
			if fx.settings != "" {
				if settings, err := os.ReadFile(filepath.Join(dir, fx.settings)); err == nil && (strings.Contains(string(settings), mark) || strings.Contains(string(settings), scriptBase)) {
					t.Errorf("herdr entry left in %s:\n%s", fx.settings, settings)
				}
			}
			if user := read(t, filepath.Join(dir, fx.user)); !strings.Contains(user, "user-hook") {
				t.Errorf("user's entry lost from %s on uninstall:\n%s", fx.user, user)
			}
			if s := StatusOf(tg, env); s.Present {
				t.Errorf("status after uninstall: %s", s)
			}
			if msgs, err := Uninstall(tg.Name, env); err != nil || len(msgs) != 1 || !strings.Contains(msgs[0], "not installed") {
				t.Errorf("second uninstall: %q, %v", msgs, err)
			}
		})
	}
}

func TestInstall_FreshSettingsAndCleanUninstall(t *testing.T) {
	home, env := fakeEnv(t, nil)
	dir := filepath.Join(home, ".claude")
	write(t, filepath.Join(dir, "settings.json"), `{"model":"opus","permissions":{"allow":["Bash(ls)"]}}`)
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	got := read(t, filepath.Join(dir, "settings.json"))
	if strings.Index(got, `"model"`) > strings.Index(got, `"permissions"`) || strings.Index(got, `"permissions"`) > strings.Index(got, `"hooks"`) {
		t.Errorf("member order not kept:\n%s", got)
	}
	if _, err := Uninstall("claude", env); err != nil {
		t.Fatal(err)
	}
	got = read(t, filepath.Join(dir, "settings.json"))
	if strings.Contains(got, "hooks") || !strings.Contains(got, "Bash(ls)") {
		t.Errorf("after uninstall:\n%s", got)
	}
}

func TestInstall_MissingConfigDir(t *testing.T) {
	home, env := fakeEnv(t, nil)
	if _, err := Install("claude", env); err == nil || !strings.HasSuffix(err.Error(), "needs the directory "+filepath.Join(home, ".claude")) {
		t.Fatalf("install without ~/.claude: %v", err)
	}
	// mastracode creates its own.
	if _, err := Install("mastracode", env); err != nil {
		t.Fatalf("mastracode: %v", err)
	}
}

func TestInstall_EnvOverride(t *testing.T) {
	alt := t.TempDir()
	home, env := fakeEnv(t, map[string]string{"CLAUDE_CONFIG_DIR": alt, "CODEX_HOME": "~/elsewhere"})
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(alt, "hooks", "herdr-agent-state"+scriptExt)); err != nil {
		t.Errorf("CLAUDE_CONFIG_DIR ignored: %v", err)
	}
	tg, _ := Lookup("codex")
	if d, _ := tg.Dir(env); d != filepath.Join(home, "elsewhere") {
		t.Errorf("CODEX_HOME ~ not expanded: %s", d)
	}
}

func TestInstall_OmpRefusedInPiDir(t *testing.T) {
	dir := t.TempDir()
	_, env := fakeEnv(t, map[string]string{"PI_CODING_AGENT_DIR": dir})
	if _, err := Install("omp", env); err == nil || !strings.Contains(err.Error(), "pi") {
		t.Fatalf("omp into pi's dir: %v", err)
	}
	if _, err := Install("pi", env); err != nil {
		t.Fatalf("pi: %v", err)
	}
}

func TestInstall_BadTarget(t *testing.T) {
	_, env := fakeEnv(t, nil)
	if _, err := Install("vim", env); err == nil || !strings.Contains(err.Error(), "vim") {
		t.Errorf("install vim: %v", err)
	}
	for _, m := range []string{"integration.install", "integration.uninstall"} {
		_, err := protocol.DecodeParams(m, []byte(`{"target":"vim"}`))
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodeInvalidParams || !strings.Contains(pe.Message, "target") || !strings.Contains(pe.Message, "vim") {
			t.Errorf("%s vim: %v", m, err)
		}
		if _, err := protocol.DecodeParams(m, []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "target") {
			t.Errorf("%s without target: %v", m, err)
		}
		if _, err := protocol.DecodeParams(m, []byte(`{"target":"antigravity_cli"}`)); err != nil {
			t.Errorf("%s antigravity_cli: %v", m, err)
		}
	}
}

func TestStatus_Lines(t *testing.T) {
	home, env := fakeEnv(t, nil)
	tg, _ := Lookup("claude")
	if got := StatusOf(tg, env).String(); got != "claude: not installed" {
		t.Errorf("got %q", got)
	}
	write(t, filepath.Join(home, ".claude", "settings.json"), "{}")
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	path, _ := tg.MarkerFile(env)
	if got, want := StatusOf(tg, env).String(), "claude: current (v7) ("+path+")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	write(t, path, strings.Replace(read(t, path), "HERDR_INTEGRATION_VERSION=7", "HERDR_INTEGRATION_VERSION=5", 1))
	s := StatusOf(tg, env)
	if got, want := s.String(), "claude: outdated (v5 < v7) ("+path+")"; got != want || !s.Outdated() {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := Install("claude", env); err != nil || StatusOf(tg, env).Outdated() {
		t.Errorf("reinstall did not bring it current: %v", err)
	}
}

func TestHermesConfig_Shapes(t *testing.T) {
	h := hermesConfig{file: "config.yaml", plugin: "herdr-agent-state"}
	cases := []struct{ name, in, installed, uninstalled string }{
		{"empty", "", "plugins:\n  enabled:\n    - herdr-agent-state\n", "plugins:\n  enabled: []\n"},
		{"no enabled", "plugins:\n  disabled:\n    - x\n", "plugins:\n  enabled:\n    - herdr-agent-state\n  disabled:\n    - x\n", "plugins:\n  enabled: []\n  disabled:\n    - x\n"},
		{"flow", "plugins:\n  enabled: [a, b]\n", "plugins:\n  enabled: [a, b, herdr-agent-state]\n", "plugins:\n  enabled: [a, b]\n"},
		{"same-indent items", "plugins:\n  enabled:\n  - a\nx: 1\n", "plugins:\n  enabled:\n  - herdr-agent-state\n  - a\nx: 1\n", "plugins:\n  enabled:\n  - a\nx: 1\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.in != "" {
				write(t, filepath.Join(dir, "config.yaml"), c.in)
			}
			if _, err := h.install(dir, ""); err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(dir, "config.yaml")); got != c.installed {
				t.Errorf("installed:\n%s\nwant:\n%s", got, c.installed)
			}
			if _, err := h.install(dir, ""); err != nil || read(t, filepath.Join(dir, "config.yaml")) != c.installed {
				t.Errorf("second install changed it: %v", err)
			}
			if _, err := h.uninstall(dir, ""); err != nil {
				t.Fatal(err)
			}
			if got := read(t, filepath.Join(dir, "config.yaml")); got != c.uninstalled {
				t.Errorf("uninstalled:\n%s\nwant:\n%s", got, c.uninstalled)
			}
		})
	}
}

func TestCodexFeatures_InvalidTOMLRefused(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "config.toml"), "model = \n")
	if _, err := (codexFeatures{file: "config.toml"}).install(dir, ""); err == nil {
		t.Fatal("broken config.toml edited")
	}
	if got := read(t, filepath.Join(dir, "config.toml")); got != "model = \n" {
		t.Errorf("file changed: %q", got)
	}
}

// TestPowershellScript checks the Windows hook's shape: markers, the
// param block as its first statement, the pane guard and the pipe.
func TestPowershellScript(t *testing.T) {
	tg, _ := Lookup("claude")
	s := powershellScript(tg)
	var first string
	for _, l := range strings.Split(s, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			first = l
			break
		}
	}
	if !strings.HasPrefix(first, "param(") {
		t.Errorf("first statement %q", first)
	}
	for _, want := range []string{"# HERDR_INTEGRATION_ID=claude\n", "# HERDR_INTEGRATION_VERSION=7\n", `$env:HERDR_ENV -ne "1"`,
		"NamedPipeClientStream", "Connect(500)", `$IdKeys = @("session_id")`, `$SkipKeys = @("agent_id")`, `$Source = "herdr:claude"`} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q", want)
		}
	}
}
