package config

import (
	"slices"
	"strings"
	"testing"
)

// TestKeysPreset: keys.preset = "tmux" starts the bindings from tmux's
// keys; the user's entries still win, a conflict goes back to the preset's
// key, and an unknown preset is reported and leaves Herdr's.
func TestKeysPreset(t *testing.T) {
	cfg, diags, _ := Parse([]byte("[keys]\npreset = \"tmux\"\nsettings = \"prefix+comma\"\n"))
	if cfg.Keys.Preset != "tmux" {
		t.Fatalf("preset = %q", cfg.Keys.Preset)
	}
	want := map[string][]string{
		"detach": {"prefix+d"}, "split_vertical": {"prefix+%", "prefix+v"}, "last_pane": {"prefix+;"},
		"choose_session": {"prefix+s"}, "paste_buffer": {"prefix+]"}, "new_tab": {"prefix+c"}, "help": {"prefix+?"},
	}
	for name, combos := range want {
		if got := cfg.Keys.Bindings[name]; !slices.Equal(got, combos) {
			t.Errorf("keys.%s = %q, want %q", name, got, combos)
		}
	}
	// settings = prefix+, is the user's, and tmux's rename_tab is also
	// prefix+,: reported by keyConflicts only between user entries, so none.
	if got := cfg.Keys.Bindings["settings"]; !slices.Equal(got, []string{"prefix+comma"}) || len(diags) != 0 {
		t.Errorf("keys.settings = %q, diagnostics %q", got, diags)
	}

	cfg, _, _ = Parse([]byte("[keys]\nprefix = \"ctrl+a\"\n"))
	if cfg.Keys.Preset != "herdr" || !slices.Equal(cfg.Keys.Bindings["detach"], []string{"prefix+q"}) || cfg.Keys.Bindings["last_pane"] != nil {
		t.Errorf("no preset: %q detach %q last_pane %q", cfg.Keys.Preset, cfg.Keys.Bindings["detach"], cfg.Keys.Bindings["last_pane"])
	}

	cfg, diags, _ = Parse([]byte("[keys]\npreset = \"screen\"\n"))
	if cfg.Keys.Preset != "herdr" || len(diags) != 1 || !strings.Contains(diags[0], "keys.preset") {
		t.Errorf("unknown preset: %q, diagnostics %q", cfg.Keys.Preset, diags)
	}

	// Two user entries on one key: the later goes back to the preset's.
	cfg, diags, _ = Parse([]byte("[keys]\npreset = \"tmux\"\nhelp = \"prefix+y\"\ncycle_pane_next = \"prefix+y\"\n"))
	if got := cfg.Keys.Bindings["cycle_pane_next"]; !slices.Equal(got, []string{"prefix+o", "prefix+tab"}) || len(diags) != 1 {
		t.Errorf("a conflict: cycle_pane_next = %q, diagnostics %q", got, diags)
	}
}

// TestNewTabPromptOff: new tabs do not ask for a name unless asked.
func TestNewTabPromptOff(t *testing.T) {
	if Default().UI.PromptNewTabName {
		t.Error("[ui] prompt_new_tab_name is on by default; a new tab would swallow the next command typed")
	}
	if cfg, _, _ := Parse([]byte("[ui]\nprompt_new_tab_name = true\n")); !cfg.UI.PromptNewTabName {
		t.Error("prompt_new_tab_name = true is not read")
	}
}
