package tui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/pelletier/go-toml/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// action is what a prefix binding does.
type action string

// Actions of the prefix bindings (Herdr's names).
const (
	actHelp            action = "help"
	actSettings        action = "settings" // the settings screen (settings.go)
	actDetach          action = "detach"
	actNewWorkspace    action = "new_workspace"
	actRenameWorkspace action = "rename_workspace"
	actCloseWorkspace  action = "close_workspace"
	actNewTab          action = "new_tab"
	actRenameTab       action = "rename_tab"
	actPrevTab         action = "previous_tab"
	actNextTab         action = "next_tab"
	actSwitchTab       action = "switch_tab" // with an index
	actCloseTab        action = "close_tab"
	actRenamePane      action = "rename_pane"
	actFocusLeft       action = "focus_pane_left"
	actFocusDown       action = "focus_pane_down"
	actFocusUp         action = "focus_pane_up"
	actFocusRight      action = "focus_pane_right"
	actSwapLeft        action = "swap_pane_left"
	actSwapDown        action = "swap_pane_down"
	actSwapUp          action = "swap_pane_up"
	actSwapRight       action = "swap_pane_right"
	actCycleNext       action = "cycle_pane_next"
	actCyclePrev       action = "cycle_pane_previous"
	actSplitVertical   action = "split_vertical"
	actSplitHorizontal action = "split_horizontal"
	actClosePane       action = "close_pane"
	actZoom            action = "zoom"
	actResizeMode      action = "resize_mode"
	actToggleSidebar   action = "toggle_sidebar"
	actSendPrefix      action = "send_prefix"
	actPicker          action = "workspace_picker"
	actGoto            action = "goto"
	actAttention       action = "open_notification_target"
	actPrevWorkspace   action = "previous_workspace"
	actNextWorkspace   action = "next_workspace"
	actCopyMode        action = "copy_mode"
	actEditScrollback  action = "edit_scrollback"
	actNewWorktree     action = "new_worktree"
	actPaneInfo        action = "pane_info" // the focused pane's id, in a toast
	actReloadConfig    action = "reload_config"
	actPrevAgent       action = "previous_agent"
	actNextAgent       action = "next_agent"
	actTaskPanel       action = "task_panel"   // cycle the task dock (tasks.go)
	actTaskBoard       action = "task_board"   // the full task board
	actPasteBuffer     action = "paste_buffer" // the newest paste buffer into the focused pane (buffer.go)
	actNewTabNamed     action = "new_tab_named"
	actLastPane        action = "last_pane"      // the pane focused before this one (tmuxkeys.go)
	actChooseSession   action = "choose_session" // the session chooser (chooser.go)
	actCommandPrompt   action = "command_prompt" // the command prompt (cmdprompt.go)
	actNextLayout      action = "next_layout"    // the tab's next layout preset (layoutcycle.go)
	actNextBlocked     action = "next_blocked"   // the next agent waiting for an answer (inbox.go)
	actReviewDiff      action = "review_diff"    // the focused worktree's diff, to review (reviewdiff.go)
	actInbox           action = "inbox"          // the blocked agents, to answer (inboxview.go)
)

// binding is a resolved prefix binding.
type binding struct {
	act   action
	index int // switch_tab: 1–9
}

// keymap maps Bubble Tea key names (tea.Key.String) to bindings.
type keymap struct {
	preset   string // keys.preset: "herdr" or "tmux"
	prefix   map[string]bool
	bindings map[string]binding
	commands map[string]config.KeyCommand // [[keys.command]] (keycmd.go)
}

// defaultBindings are Herdr's defaults, in config combo syntax.
var defaultBindings = map[action][]string{
	actHelp: {"?"}, actSettings: {"s"}, actDetach: {"q"},
	actNewWorkspace: {"shift+n"}, actRenameWorkspace: {"shift+w"}, actCloseWorkspace: {"shift+d"},
	actNewTab: {"c"}, actNewTabNamed: {"shift+c"}, actRenameTab: {"shift+t"}, actPrevTab: {"p"}, actNextTab: {"n"}, actCloseTab: {"shift+x"},
	actRenamePane: {"shift+p"}, actPaneInfo: {"i"},
	actFocusLeft: {"h", "left"}, actFocusDown: {"j", "down"}, actFocusUp: {"k", "up"}, actFocusRight: {"l", "right"},
	actSwapLeft: {"shift+h"}, actSwapDown: {"shift+j"}, actSwapUp: {"shift+k"}, actSwapRight: {"shift+l"},
	actCycleNext: {"tab"}, actCyclePrev: {"shift+tab"},
	actSplitVertical: {"v"}, actSplitHorizontal: {"minus"}, actClosePane: {"x"}, actZoom: {"z"},
	actResizeMode: {"r"}, actToggleSidebar: {"b"},
	actPicker: {"w"}, actGoto: {"g"}, actAttention: {"o"}, actCopyMode: {"["}, actEditScrollback: {"e"},
	actNewWorktree: {"shift+g"}, actReloadConfig: {"shift+r"},
	actTaskPanel: {"t"}, actTaskBoard: {"shift+b"}, actPasteBuffer: {"]"},
	// Unset in Herdr too: they walk the agent panel, in its order.
	actPrevAgent: nil, actNextAgent: nil, actLastPane: nil,
	actChooseSession: {"shift+s"}, actCommandPrompt: {":"}, actNextLayout: {"space"},
	actNextBlocked: {"a"}, actReviewDiff: {"shift+v"}, actInbox: {"shift+a"},
	// Herdr leaves these unset; tmux's keys for the previous and next
	// session.
	actPrevWorkspace: {"("}, actNextWorkspace: {")"},
}

// defaultKeymap is the keymap with no [keys] overrides.
func defaultKeymap() *keymap {
	km, _ := newKeymap(nil)
	return km
}

// newKeymap builds the keymap from the [keys] table of config.toml
// (action = "combo" or ["combo", …]; prefix likewise). Unknown actions
// and unparsable combos are reported and skipped.
func newKeymap(keys map[string]any) (*keymap, []string) {
	kb := &keymapBuild{keys: keys, km: &keymap{preset: "herdr", prefix: map[string]bool{}, bindings: map[string]binding{}}}
	kb.setPrefix()
	base := kb.preset()
	// The preset's keys first, then the user's, so that a key the user
	// gives another action is theirs.
	for _, user := range []bool{false, true} {
		for _, a := range slices.Sorted(maps.Keys(base)) {
			v, set := keys[string(a)]
			switch {
			case set != user:
			case set:
				kb.bind(a, kb.combos(string(a), v))
			default:
				kb.bind(a, base[a])
			}
		}
	}
	for i := 1; i <= 9; i++ {
		kb.km.bindings[fmt.Sprint(i)] = binding{act: actSwitchTab, index: i}
	}
	kb.checkOthers()
	return kb.km, kb.diags
}

// keymapBuild is a keymap being built from [keys], and the problems found.
type keymapBuild struct {
	keys  map[string]any
	km    *keymap
	diags []string
}

// combos is a binding's value as its list of combos.
func (kb *keymapBuild) combos(name string, v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	kb.diags = append(kb.diags, fmt.Sprintf("keys.%s: expected a string or an array of strings", name))
	return nil
}

// setPrefix takes keys.prefix (ctrl+b when unset).
func (kb *keymapBuild) setPrefix() {
	prefix := []string{"ctrl+b"}
	if v, ok := kb.keys["prefix"]; ok {
		prefix = kb.combos("prefix", v)
	}
	for _, c := range prefix {
		if k, err := teaKeyName(c); err == nil {
			kb.km.prefix[k] = true
		} else {
			kb.diags = append(kb.diags, "keys.prefix: "+err.Error())
		}
	}
}

// preset is keys.preset's bindings.
func (kb *keymapBuild) preset() map[action][]string {
	switch v := kb.keys["preset"]; v {
	case nil, "herdr":
	case "tmux":
		kb.km.preset = "tmux"
		return tmuxBindings()
	default:
		kb.diags = append(kb.diags, fmt.Sprintf("keys.preset: %v is not a preset (herdr, tmux); using herdr", v))
	}
	return defaultBindings
}

// bind gives action a the keys of list.
func (kb *keymapBuild) bind(a action, list []string) {
	for _, c := range list {
		if c == "" {
			continue // "" unbinds
		}
		// Config writes prefix bindings as "prefix+v"; the keymap holds
		// the key pressed after the prefix.
		if rest, ok := cutFold(c, "prefix+"); ok {
			c = rest
		}
		k, err := teaKeyName(c)
		if err != nil {
			kb.diags = append(kb.diags, fmt.Sprintf("keys.%s: %v", a, err))
			continue
		}
		kb.km.bindings[k] = binding{act: a}
	}
}

// checkOthers reports the keys of [keys] this client does not bind.
func (kb *keymapBuild) checkOthers() {
	herdr := map[string][]string{}
	for _, a := range config.Actions() {
		herdr[a.Name] = a.Default
	}
	for _, name := range slices.Sorted(maps.Keys(kb.keys)) {
		v := kb.keys[name]
		_, bindable := defaultBindings[action(name)]
		def, known := herdr[name]
		switch {
		case name == "prefix" || name == "preset" || name == "command" || bindable:
		case name == "remote_image_paste" || name == "indexed": // unsupportedKeys says why
		case !known:
			kb.diags = append(kb.diags, fmt.Sprintf("keys.%s: not a binding this client knows", name))
		case sameCombos(kb.combos(name, v), def):
			// Herdr's default: what this client does (or, when unbound, does not).
		case def == nil:
			kb.diags = append(kb.diags, fmt.Sprintf("keys.%s: not supported by this client (the action is not built); ignored", name))
		default:
			kb.diags = append(kb.diags, fmt.Sprintf("keys.%s: not supported by this client (it keeps Herdr's default %s); ignored", name, strings.Join(def, ", ")))
		}
	}
}

// sameCombos says whether a binding's combos are def's; "" binds nothing.
func sameCombos(got, def []string) bool {
	got = slices.DeleteFunc(slices.Clone(got), func(c string) bool { return c == "" })
	return slices.EqualFunc(got, def, strings.EqualFold)
}

// cutFold is strings.CutPrefix ignoring case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// loadKeymap reads [keys] from config.toml; a missing file means defaults.
func loadKeymap(path string) (*keymap, []string) {
	raw, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	if err != nil {
		return defaultKeymap(), nil
	}
	var doc struct {
		Keys map[string]any `toml:"keys"`
	}
	if err := toml.Unmarshal(raw, &doc); err != nil {
		km := defaultKeymap()
		return km, []string{fmt.Sprintf("%s: %v", path, err)}
	}
	return newKeymap(doc.Keys)
}

// loadUIFlags reads [ui] confirm_close and copy_on_select (both default
// true).
func loadUIFlags(path string) (confirmClose, copyOnSelect bool) {
	confirmClose, copyOnSelect = true, true
	raw, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	if err != nil {
		return
	}
	var doc struct {
		UI struct {
			ConfirmClose *bool `toml:"confirm_close"`
			CopyOnSelect *bool `toml:"copy_on_select"`
		} `toml:"ui"`
	}
	if toml.Unmarshal(raw, &doc) != nil {
		return
	}
	if doc.UI.ConfirmClose != nil {
		confirmClose = *doc.UI.ConfirmClose
	}
	if doc.UI.CopyOnSelect != nil {
		copyOnSelect = *doc.UI.CopyOnSelect
	}
	return
}

// comboKeys maps combo key words to the names Bubble Tea gives keys.
var comboKeys = map[string]string{
	"space": "space", "enter": "enter", "return": "enter", "esc": "esc", "escape": "esc", "tab": "tab",
	"backspace": "backspace", "bs": "backspace", "left": "left", "right": "right", "up": "up", "down": "down",
	"minus": "-", "comma": ",", "period": ".", "slash": "/", "backslash": "\\", "quote": "'",
	"double_quote": "\"", "double-quote": "\"", "semicolon": ";", "colon": ":", "percent": "%",
	"ampersand": "&", "backtick": "`", "plus": "+",
}

// teaKeyName turns a combo ("ctrl+b", "shift+h", "minus") into the string
// tea.Key.String returns for that key.
func teaKeyName(combo string) (string, error) {
	parts := strings.Split(strings.TrimSpace(combo), "+")
	if combo == "+" {
		parts = []string{"plus"}
	}
	key := parts[len(parts)-1]
	var ctrl, alt, shift bool
	for _, m := range parts[:len(parts)-1] {
		switch strings.ToLower(m) {
		case "ctrl", "control":
			ctrl = true
		case "alt", "option", "meta":
			alt = true
		case "shift":
			shift = true
		default:
			return "", fmt.Errorf("unknown modifier %q in %q", m, combo)
		}
	}
	name, ok := comboKeys[strings.ToLower(key)]
	switch {
	case ok:
	case len([]rune(key)) == 1:
		name = key
	case len(key) >= 2 && (key[0] == 'f' || key[0] == 'F'):
		name = strings.ToLower(key)
	default:
		return "", fmt.Errorf("unknown key %q in %q", key, combo)
	}
	if shift {
		switch {
		case len([]rune(name)) == 1:
			name = strings.ToUpper(name)
		case name == "tab":
			name = "shift+tab"
		default:
			name = "shift+" + name
		}
	}
	if ctrl {
		name = "ctrl+" + strings.ToLower(name)
	}
	if alt {
		name = "alt+" + name
	}
	return name, nil
}

// lookup returns the binding of a key pressed after the prefix.
func (km *keymap) lookup(k tea.KeyPressMsg) (binding, bool) {
	name := keyName(k)
	if km.prefix[name] {
		return binding{act: actSendPrefix}, true
	}
	b, ok := km.bindings[name]
	return b, ok
}

// isPrefix reports whether k is the prefix key.
func (km *keymap) isPrefix(k tea.KeyPressMsg) bool { return km.prefix[keyName(k)] }

// prefixName is the (first) prefix key as a person would write it.
func (km *keymap) prefixName() string {
	names := make([]string, 0, len(km.prefix))
	for k := range km.prefix {
		names = append(names, k)
	}
	if len(names) == 0 {
		return "prefix"
	}
	slices.Sort(names)
	return names[0]
}
