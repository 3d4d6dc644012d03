package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestKeys_TeaKeyName(t *testing.T) {
	cases := []struct{ combo, want string }{
		{"ctrl+b", "ctrl+b"}, {"v", "v"}, {"minus", "-"}, {"shift+h", "H"}, {"shift+n", "N"},
		{"?", "?"}, {"shift+tab", "shift+tab"}, {"tab", "tab"}, {"alt+x", "alt+x"}, {"ctrl+space", "ctrl+space"},
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

func runes(s string) tea.KeyPressMsg { return textKey(s) }

func TestKeys_DefaultBindings(t *testing.T) {
	km := defaultKeymap()
	cases := []struct {
		key  tea.KeyPressMsg
		want binding
	}{
		{runes("v"), binding{act: actSplitVertical}},
		{runes("-"), binding{act: actSplitHorizontal}},
		{runes("h"), binding{act: actFocusLeft}},
		{tea.KeyPressMsg{Code: tea.KeyDown}, binding{act: actFocusDown}},
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
		{tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}, binding{act: actSendPrefix}},
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
	if !km.isPrefix(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}) || km.isPrefix(runes("b")) {
		t.Error("ctrl+b must be the prefix, b must not")
	}
}

func TestKeys_ConfigRebinds(t *testing.T) {
	km, diags := newKeymap(map[string]any{"prefix": "ctrl+a", "split_vertical": []any{"shift+v", "|"}, "bogus": "x"})
	if len(diags) != 1 {
		t.Errorf("diagnostics = %v, want one for keys.bogus", diags)
	}
	if !km.isPrefix(tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}) || km.isPrefix(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}) {
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
		key       tea.KeyPressMsg
		appCursor bool
		want      string
		kitty     string // what a pane that pushed the kitty protocol's flag 1 gets, when it differs
	}{
		{"runes", runes("hé"), false, "hé", ""},
		{"enter", tea.KeyPressMsg{Code: tea.KeyEnter}, false, "\r", ""},
		{"backspace", tea.KeyPressMsg{Code: tea.KeyBackspace}, false, "\x7f", ""},
		{"ctrl+c", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, false, "\x03", "\x1b[99;5u"},
		{"tab", tea.KeyPressMsg{Code: tea.KeyTab}, false, "\t", ""},
		{"esc", tea.KeyPressMsg{Code: tea.KeyEsc}, false, "\x1b", "\x1b[27u"},
		{"space", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, false, " ", ""},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, false, "\x1b[A", ""},
		{"up app cursor", tea.KeyPressMsg{Code: tea.KeyUp}, true, "\x1bOA", ""},
		{"home app cursor", tea.KeyPressMsg{Code: tea.KeyHome}, true, "\x1bOH", ""},
		{"ctrl+left ignores app cursor", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, true, "\x1b[1;5D", ""},
		{"alt+x", tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt}, false, "\x1bx", "\x1b[120;3u"},
		{"shift+tab", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, false, "\x1b[Z", "\x1b[9;2u"},
		{"f1", tea.KeyPressMsg{Code: tea.KeyF1}, false, "\x1bOP", ""},
		{"f12", tea.KeyPressMsg{Code: tea.KeyF12}, false, "\x1b[24~", ""},
		{"delete", tea.KeyPressMsg{Code: tea.KeyDelete}, false, "\x1b[3~", ""},
		// Keys a legacy terminal cannot tell apart: the legacy bytes for a
		// pane that did not ask, CSI u for one that did.
		{"shift+enter", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}, false, "\r", "\x1b[13;2u"},
		{"ctrl+enter", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModCtrl}, false, "\r", "\x1b[13;5u"},
		{"alt+enter", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}, false, "\x1b\r", "\x1b[13;3u"},
		{"ctrl+i", tea.KeyPressMsg{Code: 'i', Mod: tea.ModCtrl}, false, "\t", "\x1b[105;5u"},
		{"esc kitty", tea.KeyPressMsg{Code: tea.KeyEscape}, false, "\x1b", "\x1b[27u"},
		{"ctrl+shift+a", tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl | tea.ModShift}, false, "\x01", "\x1b[97;6u"},
		{"shift+a types A", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}, false, "A", ""},
		{"alt+up", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}, false, "\x1b[1;3A", ""},
		{"shift+f5", tea.KeyPressMsg{Code: tea.KeyF5, Mod: tea.ModShift}, false, "\x1b[15;2~", ""},
		{"caps lock changes nothing", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModCapsLock}, false, "\r", ""},
		{"ctrl+[", tea.KeyPressMsg{Code: '[', Mod: tea.ModCtrl}, false, "\x1b", "\x1b[91;5u"},
		{"ctrl+1", tea.KeyPressMsg{Code: '1', Mod: tea.ModCtrl}, false, "1", "\x1b[49;5u"},
	}
	for _, c := range cases {
		got, ok := encodeKey(c.key, c.appCursor, false)
		if !ok || string(got) != c.want {
			t.Errorf("%s: encodeKey = %q, %v; want %q", c.name, got, ok, c.want)
		}
		want := c.kitty
		if want == "" {
			want = c.want
		}
		if got, ok := encodeKey(c.key, c.appCursor, true); !ok || string(got) != want {
			t.Errorf("%s (kitty): encodeKey = %q, %v; want %q", c.name, got, ok, want)
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

// TestKeys_EscThenPrefix: esc typed just before the prefix reaches Bubble
// Tea from a legacy terminal as alt+ctrl+b; the client takes it as esc and
// the prefix, so a chooser closes and the next key is a binding's.
func TestKeys_EscThenPrefix(t *testing.T) {
	km := defaultKeymap()
	esc, rest, ok := km.escThenPrefix(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl | tea.ModAlt})
	if !ok || esc.Code != tea.KeyEscape || !km.isPrefix(rest) {
		t.Fatalf("alt+ctrl+b: %v %v %v; want esc and the prefix", esc, rest, ok)
	}
	for _, k := range []tea.KeyPressMsg{{Code: 'x', Mod: tea.ModAlt}, {Code: 'b', Mod: tea.ModCtrl}, textKey("b")} {
		if _, _, ok := km.escThenPrefix(k); ok {
			t.Errorf("%s split", k)
		}
	}
	// In the terminal: esc goes to the pane, and the prefix waits for
	// its binding.
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl | tea.ModAlt})
	if m.mode != modePrefix {
		t.Errorf("after esc and the prefix read as one key: mode %v, want the prefix's", m.mode)
	}
	m.Update(drainMsg{})
	waitFor(t, "esc sent", func() bool { return len(f.requests("pane.send_text")) == 1 })
	if got := sentText(t, f.requests("pane.send_text")[0]); got != "w1:p2=\x1b" {
		t.Errorf("the pane got %q, want esc", got)
	}
}

// TestKeys_NameAsLegacy: a terminal speaking the kitty protocol reports
// shift on ctrl and alt letters; the keymap names them as a legacy
// terminal's keys, so [keys] bindings match either way.
func TestKeys_NameAsLegacy(t *testing.T) {
	for _, c := range []struct {
		k    tea.KeyPressMsg
		want string
	}{
		{tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl | tea.ModShift}, "ctrl+x"},
		{tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt | tea.ModShift}, "alt+X"},
		{tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}, "ctrl+b"},
		{tea.KeyPressMsg{Code: 'h', ShiftedCode: 'H', Text: "H", Mod: tea.ModShift}, "H"},
		{tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}, "shift+enter"},
	} {
		if got := keyName(c.k); got != c.want {
			t.Errorf("keyName(%v) = %q, want %q", c.k, got, c.want)
		}
	}
	km, _ := newKeymap(map[string]any{"zoom": "prefix+alt+shift+z"})
	if b, ok := km.lookup(tea.KeyPressMsg{Code: 'z', Mod: tea.ModAlt | tea.ModShift}); !ok || b.act != actZoom {
		t.Errorf("alt+shift+z from a kitty terminal: %v %v, want zoom", b, ok)
	}
}

// TestKeys_KeypadTypesAsTheMainKeyboard: a terminal speaking the kitty
// protocol reports the keypad's keys apart; they reach a pane as the
// digits and keys a legacy terminal sends.
func TestKeys_KeypadTypesAsTheMainKeyboard(t *testing.T) {
	f := &fakeServer{}
	m, msgs := testModel(t, f)
	for _, code := range []rune{tea.KeyKp4, tea.KeyKp2, tea.KeyKpPlus, tea.KeyKpEnter, tea.KeyKpUp} {
		m.Update(tea.KeyPressMsg{Code: code})
	}
	waitFor(t, "the first write", func() bool { return len(f.requests("pane.send_text")) > 0 })
	m.Update(<-msgs) // its answer: the rest goes
	m.Update(drainMsg{})
	waitFor(t, "the second write", func() bool { return len(f.requests("pane.send_text")) > 1 })
	var got string
	for _, r := range f.requests("pane.send_text") {
		got += strings.TrimPrefix(sentText(t, r), "w1:p2=")
	}
	if got != "42+\r\x1b[A" {
		t.Errorf("the keypad typed %q, want the digits and keys a legacy terminal sends", got)
	}
}
