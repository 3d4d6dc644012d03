package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestKeys_TeaKeyName(t *testing.T) {
	cases := []struct{ combo, want string }{
		{"ctrl+b", "ctrl+b"}, {"v", "v"}, {"minus", "-"}, {"shift+h", "H"}, {"shift+n", "N"},
		{"?", "?"}, {"shift+tab", "shift+tab"}, {"tab", "tab"}, {"alt+x", "alt+x"}, {"ctrl+space", "ctrl+ "},
		{"left", "left"}, {"f5", "f5"}, {"+", "+"}, {"control+a", "ctrl+a"},
	}
	for _, c := range cases {
		got, err := teaKeyName(c.combo)
		if err != nil || got != c.want {
			t.Errorf("teaKeyName(%q) = %q, %v; want %q", c.combo, got, err, c.want)
		}
	}
	for _, bad := range []string{"hyperctrl+x", "super+nope", "pagedown"} {
		if _, err := teaKeyName(bad); err == nil {
			t.Errorf("teaKeyName(%q) accepted", bad)
		}
	}
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestKeys_DefaultBindings(t *testing.T) {
	km := defaultKeymap()
	cases := []struct {
		key  tea.KeyMsg
		want binding
	}{
		{runes("v"), binding{act: actSplitVertical}},
		{runes("-"), binding{act: actSplitHorizontal}},
		{runes("h"), binding{act: actFocusLeft}},
		{tea.KeyMsg{Type: tea.KeyDown}, binding{act: actFocusDown}},
		{runes("L"), binding{act: actSwapRight}},
		{runes("z"), binding{act: actZoom}},
		{runes("x"), binding{act: actClosePane}},
		{runes("c"), binding{act: actNewTab}},
		{runes("n"), binding{act: actNextTab}},
		{runes("p"), binding{act: actPrevTab}},
		{runes("3"), binding{act: actSwitchTab, index: 3}},
		{runes("N"), binding{act: actNewWorkspace}},
		{runes("W"), binding{act: actRenameWorkspace}},
		{runes("T"), binding{act: actRenameTab}},
		{runes("P"), binding{act: actRenamePane}},
		{runes("r"), binding{act: actResizeMode}},
		{runes("b"), binding{act: actToggleSidebar}},
		{runes("?"), binding{act: actHelp}},
		{runes("q"), binding{act: actDetach}},
		{tea.KeyMsg{Type: tea.KeyCtrlB}, binding{act: actSendPrefix}},
	}
	for _, c := range cases {
		got, ok := km.lookup(c.key)
		if !ok || got != c.want {
			t.Errorf("prefix %s = %+v, %v; want %+v", c.key, got, ok, c.want)
		}
	}
	if _, ok := km.lookup(runes("y")); ok {
		t.Error("prefix y is bound")
	}
	if !km.isPrefix(tea.KeyMsg{Type: tea.KeyCtrlB}) || km.isPrefix(runes("b")) {
		t.Error("ctrl+b must be the prefix, b must not")
	}
}

func TestKeys_ConfigRebinds(t *testing.T) {
	km, diags := newKeymap(map[string]any{"prefix": "ctrl+a", "split_vertical": []any{"shift+v", "|"}, "bogus": "x"})
	if len(diags) != 1 {
		t.Errorf("diagnostics = %v, want one for keys.bogus", diags)
	}
	if !km.isPrefix(tea.KeyMsg{Type: tea.KeyCtrlA}) || km.isPrefix(tea.KeyMsg{Type: tea.KeyCtrlB}) {
		t.Error("prefix was not rebound to ctrl+a")
	}
	for _, k := range []string{"V", "|"} {
		if b, ok := km.lookup(runes(k)); !ok || b.act != actSplitVertical {
			t.Errorf("%s = %+v, want split_vertical", k, b)
		}
	}
	if b, ok := km.lookup(runes("v")); ok {
		t.Errorf("v still bound to %+v after rebinding", b)
	}
}

func TestKeys_Encode(t *testing.T) {
	cases := []struct {
		name      string
		key       tea.KeyMsg
		appCursor bool
		want      string
	}{
		{"runes", runes("hé"), false, "hé"},
		{"enter", tea.KeyMsg{Type: tea.KeyEnter}, false, "\r"},
		{"backspace", tea.KeyMsg{Type: tea.KeyBackspace}, false, "\x7f"},
		{"ctrl+c", tea.KeyMsg{Type: tea.KeyCtrlC}, false, "\x03"},
		{"tab", tea.KeyMsg{Type: tea.KeyTab}, false, "\t"},
		{"esc", tea.KeyMsg{Type: tea.KeyEsc}, false, "\x1b"},
		{"space", tea.KeyMsg{Type: tea.KeySpace}, false, " "},
		{"up", tea.KeyMsg{Type: tea.KeyUp}, false, "\x1b[A"},
		{"up app cursor", tea.KeyMsg{Type: tea.KeyUp}, true, "\x1bOA"},
		{"home app cursor", tea.KeyMsg{Type: tea.KeyHome}, true, "\x1bOH"},
		{"ctrl+left ignores app cursor", tea.KeyMsg{Type: tea.KeyCtrlLeft}, true, "\x1b[1;5D"},
		{"alt+x", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x"), Alt: true}, false, "\x1bx"},
		{"shift+tab", tea.KeyMsg{Type: tea.KeyShiftTab}, false, "\x1b[Z"},
		{"f1", tea.KeyMsg{Type: tea.KeyF1}, false, "\x1bOP"},
		{"f12", tea.KeyMsg{Type: tea.KeyF12}, false, "\x1b[24~"},
		{"delete", tea.KeyMsg{Type: tea.KeyDelete}, false, "\x1b[3~"},
	}
	for _, c := range cases {
		got, ok := encodeKey(c.key, c.appCursor)
		if !ok || string(got) != c.want {
			t.Errorf("%s: encodeKey = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// TestKeys_EmptyComboUnbinds: "" unbinds an action (the default file
// writes it for unset ones) without a diagnostic; the settings key, not
// built, shows a message and is reported only when a file binds it.
func TestKeys_EmptyComboUnbinds(t *testing.T) {
	km, diags := newKeymap(map[string]any{"zoom": "", "settings": ""})
	if len(diags) != 0 {
		t.Errorf("diagnostics = %v, want none", diags)
	}
	for _, k := range []string{"z", "s"} {
		if b, ok := km.lookup(runes(k)); ok {
			t.Errorf("%s still bound to %+v after unbinding", k, b)
		}
	}
	if b, ok := defaultKeymap().lookup(runes("s")); !ok || b.act != actSettings {
		t.Errorf("s = %+v, want settings by default", b)
	}
	km, diags = newKeymap(map[string]any{"settings": "prefix+comma"})
	if b, ok := km.lookup(runes(",")); len(diags) != 0 || !ok || b.act != actSettings {
		t.Errorf("settings = prefix+comma: %+v %v, diagnostics %v; want it bound and no diagnostic", b, ok, diags)
	}
}

// TestKeys_DiagnosticsInNameOrder: the keymap's diagnostics come in the
// order of the keys' names, so `herdr config check` prints the same
// lines every time.
func TestKeys_DiagnosticsInNameOrder(t *testing.T) {
	for range 20 {
		_, diags := newKeymap(map[string]any{"remove_worktree": "prefix+;", "focus_agent": "prefix+alt+1..9", "open_worktree": "prefix+o", "bogus": "x"})
		want := []string{"keys.bogus", "keys.focus_agent", "keys.open_worktree", "keys.remove_worktree"}
		if len(diags) != len(want) {
			t.Fatalf("diagnostics = %q, want %d", diags, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(diags[i], w+":") {
				t.Fatalf("diagnostics = %q, want them in the order %q", diags, want)
			}
		}
	}
}
