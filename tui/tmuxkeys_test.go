package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// TestTmuxPreset_Bindings: keys.preset = "tmux" gives tmux's default
// prefix keys, keeps Herdr's others, and says nothing about it.
func TestTmuxPreset_Bindings(t *testing.T) {
	km, diags := newKeymap(map[string]any{"preset": "tmux"})
	if len(diags) != 0 {
		t.Fatalf("diagnostics %q", diags)
	}
	want := map[string]action{
		"d": actDetach, "%": actSplitVertical, `"`: actSplitHorizontal, ",": actRenameTab, "$": actRenameWorkspace,
		"o": actCycleNext, ";": actLastPane, "[": actCopyMode, "]": actPasteBuffer, "c": actNewTab, "C": actNewTabNamed,
		"n": actNextTab, "p": actPrevTab, "x": actClosePane, "z": actZoom, "&": actCloseTab,
		"s": actChooseSession, ":": actCommandPrompt, "space": actNextLayout, "S": actSettings, "O": actAttention, "w": actPicker,
		"v": actSplitVertical, "-": actSplitHorizontal, // Herdr's keys that tmux leaves free stay
	}
	for key, a := range want {
		if b, ok := km.lookup(runes(key)); !ok || b.act != a {
			t.Errorf("tmux preset: prefix %s = %+v (%v), want %s", key, b, ok, a)
		}
	}
	if b, ok := km.lookup(runes("q")); ok {
		t.Errorf("tmux preset: prefix q = %s, want unbound (tmux detaches with d)", b.act)
	}
	// The default preset is as it was.
	def := defaultKeymap()
	for key, a := range map[string]action{"q": actDetach, "s": actSettings, "o": actAttention, "X": actCloseTab, "c": actNewTab, "C": actNewTabNamed} {
		if b, ok := def.lookup(runes(key)); !ok || b.act != a {
			t.Errorf("herdr preset: prefix %s = %+v, want %s", key, b, a)
		}
	}
	for key, a := range map[string]action{"S": actChooseSession, ":": actCommandPrompt, "space": actNextLayout} {
		if b, ok := def.lookup(runes(key)); !ok || b.act != a {
			t.Errorf("herdr preset: prefix %q = %+v, want %s", key, b, a)
		}
	}
	for _, key := range []string{"d", "%", `"`, ";"} {
		if b, ok := def.lookup(runes(key)); ok {
			t.Errorf("herdr preset: prefix %s = %s, want unbound", key, b.act)
		}
	}
}

// TestTmuxPreset_NoKeyTwice: in either preset no key is given to two
// actions (the keymap would keep one of them at random).
func TestTmuxPreset_NoKeyTwice(t *testing.T) {
	for name, base := range map[string]map[action][]string{"herdr": defaultBindings, "tmux": tmuxBindings()} {
		owner := map[string]action{}
		for a, combos := range base {
			for _, c := range combos {
				k, err := teaKeyName(c)
				if err != nil {
					t.Fatalf("%s: %s = %q: %v", name, a, c, err)
				}
				if o, dup := owner[k]; dup {
					t.Errorf("%s preset: %q is bound to both %s and %s", name, k, o, a)
				}
				owner[k] = a
			}
		}
	}
}

// TestTmuxPreset_UserKeyWins: a key the user gives an action is theirs,
// even when the preset gives it to another.
func TestTmuxPreset_UserKeyWins(t *testing.T) {
	for range 10 {
		km, diags := newKeymap(map[string]any{"preset": "tmux", "open_notification_target": "prefix+o"})
		if b, ok := km.lookup(runes("o")); len(diags) != 0 || !ok || b.act != actAttention {
			t.Fatalf("prefix o = %+v, diagnostics %q; want the user's open_notification_target", b, diags)
		}
	}
	if _, diags := newKeymap(map[string]any{"preset": "screen"}); len(diags) != 1 || !strings.Contains(diags[0], "keys.preset") {
		t.Errorf("an unknown preset: diagnostics %q, want one naming keys.preset", diags)
	}
}

// TestUnboundHint: a prefix key bound to nothing says, in a toast, the key
// that does what tmux does with it, or that it is not bound; in either
// preset. Esc leaves prefix mode quietly.
func TestUnboundHint(t *testing.T) {
	tmux, _ := newKeymap(map[string]any{"preset": "tmux"})
	noDetach, _ := newKeymap(map[string]any{"detach": ""})
	cases := []struct {
		name string
		km   *keymap
		key  tea.KeyPressMsg
		want string
	}{
		{"detach in herdr", defaultKeymap(), runes("d"), "detach is prefix q"},
		{"split in herdr", defaultKeymap(), runes("%"), "split right is prefix v"},
		{"split down in herdr", defaultKeymap(), runes(`"`), "split down is prefix -"},
		{"rename in herdr", defaultKeymap(), runes(","), "rename tab is prefix T"},
		{"close tab in herdr", defaultKeymap(), runes("&"), "close tab is prefix X"},
		{"no break pane", defaultKeymap(), runes("!"), "prefix ! is not bound (break pane in tmux): herdr pane move"},
		{"last pane unbound in herdr", defaultKeymap(), runes(";"), "prefix ; is not bound; last pane has no key ([keys] last_pane)"},
		{"detach unbound", noDetach, runes("d"), "prefix d is not bound; detach has no key ([keys] detach)"},
		{"q in tmux", tmux, runes("q"), "pane ids is prefix i"},
		{"settings key in tmux", tmux, runes("X"), "prefix X is not bound; prefix ? lists the keys"},
		{"nothing", defaultKeymap(), runes("y"), "prefix y is not bound; prefix ? lists the keys"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, _ := testModel(t, &fakeServer{})
			m.keys = c.km
			m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
			m.Update(c.key)
			if !strings.HasPrefix(m.toast.text, c.want) {
				t.Errorf("toast %q, want it to start %q", m.toast.text, c.want)
			}
			if m.mode != modeTerminal {
				t.Errorf("mode %v after the hint, want terminal", m.mode)
			}
		})
	}
	m, _ := testModel(t, &fakeServer{})
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.toast.text != "" || m.mode != modeTerminal {
		t.Errorf("prefix esc: toast %q, mode %v; want none and terminal", m.toast.text, m.mode)
	}
}

// TestNewTab_NoPromptUnlessAsked: prefix c makes a tab and leaves the keys
// typed next to it; prefix C (or [ui] prompt_new_tab_name) asks for a name.
func TestNewTab_NoPromptUnlessAsked(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("c"))
	waitFor(t, "tab.create", func() bool { return len(f.requests("tab.create")) == 1 })
	if m.mode != modeTerminal {
		t.Fatalf("prefix c: mode %v, want terminal (no name prompt)", m.mode)
	}
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	_, cmd := m.Update(keyRunes("C"))
	if cmd == nil {
		t.Fatal("prefix C: no command (it should create the tab, then ask for its name)")
	}
	msg, ok := cmd().(createdMsg)
	if !ok || msg.method != "tab.create" {
		t.Fatalf("prefix C: %#v, want a created tab", msg)
	}
	m.Update(msg)
	if m.mode != modeRename || m.rename.what != "tab" {
		t.Errorf("prefix C: mode %v (%q), want the tab name prompt", m.mode, m.rename.what)
	}
}

// TestLastPane: prefix ; in the tmux preset goes back to the pane focused
// before this one; with none it says so.
func TestLastPane(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.keys, _ = newKeymap(map[string]any{"preset": "tmux"})
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes(";"))
	if !strings.Contains(m.toast.text, "no previous pane") {
		t.Errorf("prefix ; with no earlier pane: toast %q", m.toast.text)
	}
	snap := twoPanes()
	m.applySnapshot(snap, protocol.AgentViewList{}) // w1:p2 focused
	p1 := "w1:p1"
	snap.FocusedPaneID = &p1
	m.applySnapshot(snap, protocol.AgentViewList{})
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes(";"))
	waitFor(t, "pane.focus", func() bool { return len(f.requests("pane.focus")) == 1 })
	var p protocol.PaneTarget
	if err := protocol.Unmarshal(f.requests("pane.focus")[0].Params, &p); err != nil || p.PaneID != "w1:p2" {
		t.Errorf("prefix ; focused %+v (%v), want w1:p2", p, err)
	}
}
