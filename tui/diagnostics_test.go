package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/config"
)

// diagnose writes text as config.toml and returns its diagnostics.
func diagnose(t *testing.T, text string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return ConfigDiagnostics(path)
}

// TestDiagnostics_UnsupportedKeys: a key this client does not act on is
// reported once, by name, when its value asks for what is not built; a
// value that is what the client does anyway, or the key's default, is not
// reported.
func TestDiagnostics_UnsupportedKeys(t *testing.T) {
	cases := []struct {
		name, text string
		want       string // "" means no diagnostic at all
	}{
		{"onboarding asked again", "onboarding = true\n", "onboarding: not supported by this client (the first-run guide is not built)"},
		{"onboarding done", "onboarding = false\n", ""},
		{"new_cwd home", "[terminal]\nnew_cwd = \"home\"\n", "terminal.new_cwd: not supported by this client (new panes always start in the source pane's folder"},
		{"new_cwd a path", "[terminal]\nnew_cwd = \"/tmp\"\n", "terminal.new_cwd: not supported"},
		{"new_cwd follow", "[terminal]\nnew_cwd = \"follow\"\n", ""},
		{"version_check on, its default", "[update]\nversion_check = true\n", ""},
		{"version_check off", "[update]\nversion_check = false\n", ""},
		{"manifest_check on, its default", "[update]\nmanifest_check = true\n", ""},
		{"manifest_check off", "[update]\nmanifest_check = false\n", ""},
		{"cjk reveal on", "[experimental]\nreveal_hidden_cursor_for_cjk_ime = true\n", "experimental.reveal_hidden_cursor_for_cjk_ime: not supported"},
		{"cjk reveal off", "[experimental]\nreveal_hidden_cursor_for_cjk_ime = false\n", ""},
		{"cjk agents", "[experimental]\ncjk_ime_agents = [\"claude\"]\n", "experimental.cjk_ime_agents: not supported"},
		{"cjk agents none", "[experimental]\ncjk_ime_agents = []\n", ""},
		{"cjk shape bar", "[experimental]\ncjk_ime_cursor_shape = \"steady_bar\"\n", "experimental.cjk_ime_cursor_shape: not supported"},
		{"cjk shape default", "[experimental]\ncjk_ime_cursor_shape = \"steady_block\"\n", ""},
		{"ascii input source", "[experimental]\nswitch_ascii_input_source_in_prefix = true\n", "experimental.switch_ascii_input_source_in_prefix: not supported"},
		{"ascii input source off", "[experimental]\nswitch_ascii_input_source_in_prefix = false\n", ""},
		{"ssh config managed, its default", "[remote]\nmanage_ssh_config = true\n", ""},
		{"ssh config left alone", "[remote]\nmanage_ssh_config = false\n", ""},
		{"allow_nested is built", "[experimental]\nallow_nested = true\n", ""},
		{"remote_image_paste", "[keys]\nremote_image_paste = \"ctrl+shift+v\"\n", "keys.remote_image_paste: not supported by this client (herdr --remote does not paste images from the local clipboard yet)"},
		{"remote_image_paste, its default", "[keys]\nremote_image_paste = \"ctrl+v\"\n", ""},
		{"pane_borders off", "[ui]\npane_borders = false\n", "ui.pane_borders: not supported by this client"},
		{"pane_borders on, its default", "[ui]\npane_borders = true\n", ""},
		{"keys.indexed", "[keys.indexed]\ntabs = \"alt\"\n", "keys.indexed: not supported by this client ([keys.indexed] is not built"},
		{"keys.indexed all unset", "[keys.indexed]\ntabs = \"\"\nworkspaces = \"\"\n", ""},
		{"remote_image_paste off", "[keys]\nremote_image_paste = \"\"\n", ""},
		{"action not built", "[keys]\nremove_worktree = \"prefix+semicolon\"\n", "keys.remove_worktree: not supported by this client (the action is not built)"},
		{"action not built, unbound", "[keys]\nremove_worktree = \"\"\n", ""},
		{"fixed binding moved", "[keys]\nswitch_tab = \"prefix+alt+1..9\"\n", "keys.switch_tab: not supported by this client (it keeps Herdr's default prefix+1..9)"},
		{"fixed binding at its default", "[keys]\nswitch_tab = \"prefix+1..9\"\nnavigate_pane_left = \"h\"\n", ""},
		{"unknown action", "[keys]\nfly = \"prefix+f\"\n", "unknown key keys.fly"},
		{"settings bound", "[keys]\nsettings = \"prefix+s\"\n", ""},
		{"settings unbound", "[keys]\nsettings = \"\"\n", ""},
		{"popup command", "[[keys.command]]\nkey = \"prefix+g\"\ncommand = \"lazygit\"\ntype = \"popup\"\n", ""},
		{"pane command", "[[keys.command]]\nkey = \"prefix+g\"\ncommand = \"lazygit\"\ntype = \"pane\"\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := diagnose(t, c.text)
			if c.want == "" {
				if len(diags) != 0 {
					t.Fatalf("diagnostics %q, want none", diags)
				}
				return
			}
			if len(diags) != 1 || !strings.HasPrefix(diags[0], c.want) {
				t.Fatalf("diagnostics %q, want exactly one starting %q", diags, c.want)
			}
			if strings.Contains(c.want, "not supported by this client") && !strings.HasSuffix(diags[0], "; ignored") {
				t.Errorf("diagnostic %q does not say the key is ignored", diags[0])
			}
		})
	}
}

// TestDiagnostics_NoStaleRemoteMessage: remote clients exist, so no
// diagnostic may say they are not built.
func TestDiagnostics_NoStaleRemoteMessage(t *testing.T) {
	for _, u := range unsupportedKeys {
		if strings.Contains(u.why, "remote clients are not built") {
			t.Errorf("%s.%s: stale reason %q", u.section, u.key, u.why)
		}
	}
}

// TestDiagnostics_DefaultFileHasNone: the file `herdr --default-config`
// prints, every key at its default, has nothing to report, so the two
// cannot drift apart.
func TestDiagnostics_DefaultFileHasNone(t *testing.T) {
	if diags := diagnose(t, config.DefaultFile()); len(diags) != 0 {
		t.Fatalf("the default config has diagnostics:\n%s", strings.Join(diags, "\n"))
	}
}
