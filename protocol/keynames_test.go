package protocol

import (
	"slices"
	"testing"
)

// The key-name switches take every name the tables they replaced took, to
// the same key, and nothing else.
func TestKeyNames_AsTheTables(t *testing.T) {
	names := map[string]string{
		"space": "space", "enter": "enter", "return": "enter", "esc": "esc", "escape": "esc",
		"tab": "tab", "backspace": "backspace", "bs": "backspace",
		"left": "left", "right": "right", "up": "up", "down": "down",
	}
	symbols := map[string]rune{
		"minus": '-', "comma": ',', "period": '.', "slash": '/', "backslash": '\\', "quote": '\'',
		"double_quote": '"', "double-quote": '"', "semicolon": ';', "colon": ':', "percent": '%',
		"ampersand": '&', "backtick": '`', "plus": '+',
	}
	mods := map[string]Key{
		"ctrl": {Ctrl: true}, "control": {Ctrl: true}, "shift": {Shift: true},
		"alt": {Alt: true}, "option": {Alt: true}, "meta": {Alt: true},
		"cmd": {Super: true}, "command": {Super: true}, "super": {Super: true}, "hyper": {Super: true},
	}
	for n, want := range names {
		if got := keyName(n); got != want {
			t.Errorf("keyName(%q) = %q, want %q", n, got, want)
		}
	}
	for n, want := range symbols {
		if got := symbolName(n); got != want {
			t.Errorf("symbolName(%q) = %q, want %q", n, got, want)
		}
	}
	for n, want := range mods {
		var k Key
		if !setModifier(&k, n) || k != want {
			t.Errorf("setModifier(%q) = %+v, want %+v", n, k, want)
		}
	}
	for _, n := range []string{"", "f1", "a", "prefix", "Enter", "ctrl+a", "spaces"} {
		var k Key
		if keyName(n) != "" || symbolName(n) != 0 || setModifier(&k, n) {
			t.Errorf("%q taken as a name", n)
		}
	}
}

// waitRequires answers what the table it replaced held, and no more.
func TestWaitRequires_AsTheTable(t *testing.T) {
	table := map[string][]string{
		"workspace_created": nil, "workspace_updated": {"workspace_id"}, "workspace_closed": {"workspace_id"},
		"workspace_renamed": {"workspace_id"}, "workspace_moved": {"workspace_id"}, "workspace_focused": {"workspace_id"},
		"tab_created": nil, "tab_closed": {"tab_id"}, "tab_renamed": {"tab_id"}, "tab_moved": {"tab_id"},
		"tab_focused": {"tab_id"}, "pane_created": nil, "pane_closed": {"pane_id"}, "pane_focused": {"pane_id"},
		"pane_moved": {"pane_id"}, "pane_output_changed": {"pane_id"}, "pane_exited": {"pane_id"},
		"pane_agent_detected": {"pane_id"}, "pane_agent_status_changed": {"pane_id", "agent_status"},
	}
	for _, e := range append(LifecycleKinds, "pane_output_changed", "nope", "") {
		want, wantOK := table[e]
		got, ok := waitRequires(e)
		if ok != wantOK || !slices.Equal(got, want) {
			t.Errorf("waitRequires(%q) = %v %v, want %v %v", e, got, ok, want, wantOK)
		}
	}
}
