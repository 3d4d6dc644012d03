package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/herdr-go/herdr/protocol"
)

// actionKind says which combos an action accepts.
type actionKind uint8

const (
	plainAction    actionKind = iota // prefix+key, or a modified key pressed directly
	indexedAction                    // also ranges such as prefix+1..9; keys must be 1 to 9
	navigateAction                   // keys of navigate mode: no prefix, never esc
)

// Action is one bindable action of [keys].
type Action struct {
	Name    string   // config key, e.g. "split_vertical"
	Default []string // Herdr's default combos; nil when unbound
	Doc     string   // one line for the default file
	kind    actionKind
}

// actions lists every action of [keys], in the default file's order.
var actions = []Action{
	{"help", []string{"prefix+?"}, "Show the key bindings.", plainAction},
	{"settings", []string{"prefix+s"}, "Open the settings.", plainAction},
	{"detach", []string{"prefix+q"}, "Detach this client; everything keeps running.", plainAction},
	{"reload_config", []string{"prefix+shift+r"}, "Reload this file.", plainAction},
	{"open_notification_target", []string{"prefix+o"}, "Jump to the pane of the last notification.", plainAction},
	{"workspace_picker", []string{"prefix+w"}, "Pick a workspace from a list.", plainAction},
	{"goto", []string{"prefix+g"}, "Go to a workspace, tab or pane by name.", plainAction},
	{"new_workspace", []string{"prefix+shift+n"}, "Create a workspace.", plainAction},
	{"new_worktree", []string{"prefix+shift+g"}, "Create a git worktree and a workspace for it.", plainAction},
	{"open_worktree", nil, "Open an existing git worktree as a workspace.", plainAction},
	{"remove_worktree", nil, "Remove the current workspace's git worktree (asks first).", plainAction},
	{"rename_workspace", []string{"prefix+shift+w"}, "Rename the current workspace.", plainAction},
	{"close_workspace", []string{"prefix+shift+d"}, "Close the current workspace.", plainAction},
	{"previous_workspace", nil, "Go to the previous workspace.", plainAction},
	{"next_workspace", nil, "Go to the next workspace.", plainAction},
	{"previous_agent", nil, "Focus the previous agent.", plainAction},
	{"next_agent", nil, "Focus the next agent.", plainAction},
	{"next_blocked", []string{"prefix+a"}, "Focus the next agent waiting for an answer (the inbox).", plainAction},
	{"review_diff", []string{"prefix+shift+v"}, "Review the current worktree workspace: its diff against its base, comments, send, accept.", plainAction},
	{"inbox", []string{"prefix+shift+a"}, "Open the inbox: every agent waiting for an answer, its question and choices, answered from the list.", plainAction},
	{"focus_agent", nil, `Focus agent N of the list (a range such as "prefix+alt+1..9").`, indexedAction},
	{"new_tab", []string{"prefix+c"}, "Create a tab (it asks for a name only with [ui] prompt_new_tab_name).", plainAction},
	{"new_tab_named", []string{"prefix+shift+c"}, "Create a tab and ask for its name.", plainAction},
	{"rename_tab", []string{"prefix+shift+t"}, "Rename the current tab.", plainAction},
	{"previous_tab", []string{"prefix+p"}, "Go to the previous tab.", plainAction},
	{"next_tab", []string{"prefix+n"}, "Go to the next tab.", plainAction},
	{"switch_tab", []string{"prefix+1..9"}, "Go to tab N.", indexedAction},
	{"switch_workspace", nil, `Go to workspace N (a range such as "prefix+shift+1..9").`, indexedAction},
	{"close_tab", []string{"prefix+shift+x"}, "Close the current tab.", plainAction},
	{"rename_pane", []string{"prefix+shift+p"}, "Label the focused pane.", plainAction},
	{"pane_info", []string{"prefix+i"}, "Show the focused pane's id (what scripts address it by) and folder.", plainAction},
	{"edit_scrollback", []string{"prefix+e"}, "Open the pane's scrollback in $EDITOR.", plainAction},
	{"copy_mode", []string{"prefix+["}, "Enter copy mode.", plainAction},
	{"paste_buffer", []string{"prefix+]"}, "Paste the newest paste buffer (a yank keeps one) into the focused pane.", plainAction},
	{"focus_pane_left", []string{"prefix+h"}, "Focus the pane to the left.", plainAction},
	{"focus_pane_down", []string{"prefix+j"}, "Focus the pane below.", plainAction},
	{"focus_pane_up", []string{"prefix+k"}, "Focus the pane above.", plainAction},
	{"focus_pane_right", []string{"prefix+l"}, "Focus the pane to the right.", plainAction},
	{"swap_pane_left", []string{"prefix+shift+h"}, "Swap the focused pane with the one to its left.", plainAction},
	{"swap_pane_down", []string{"prefix+shift+j"}, "Swap the focused pane with the one below.", plainAction},
	{"swap_pane_up", []string{"prefix+shift+k"}, "Swap the focused pane with the one above.", plainAction},
	{"swap_pane_right", []string{"prefix+shift+l"}, "Swap the focused pane with the one to its right.", plainAction},
	{"cycle_pane_next", []string{"prefix+tab"}, "Focus the next pane of the tab.", plainAction},
	{"cycle_pane_previous", []string{"prefix+shift+tab"}, "Focus the previous pane of the tab.", plainAction},
	{"last_pane", nil, "Go back to the pane focused before this one.", plainAction},
	{"choose_session", []string{"prefix+shift+s"}, "Choose a session for this client from a list (tmux: prefix+s).", plainAction},
	{"command_prompt", []string{"prefix+:"}, "Open the command prompt: run a herdr command line against this session.", plainAction},
	{"next_layout", []string{"prefix+space"}, "Arrange the tab's panes in the next layout: even-horizontal, even-vertical, main-horizontal, main-vertical, tiled.", plainAction},
	{"split_vertical", []string{"prefix+v"}, "Split the focused pane side by side.", plainAction},
	{"split_horizontal", []string{"prefix+minus"}, "Split the focused pane into a top and a bottom half.", plainAction},
	{"close_pane", []string{"prefix+x"}, "Close the focused pane.", plainAction},
	{"zoom", []string{"prefix+z"}, "Zoom the focused pane to the whole tab and back (older name: fullscreen).", plainAction},
	{"resize_mode", []string{"prefix+r"}, "Enter resize mode.", plainAction},
	{"toggle_sidebar", []string{"prefix+b"}, "Show or hide the sidebar.", plainAction},
	{"task_panel", []string{"prefix+t"}, "Cycle the task dock: hidden, right, bottom.", plainAction},
	{"task_board", []string{"prefix+shift+b"}, "Open the full task board.", plainAction},
	{"navigate_workspace_up", []string{"up"}, "Navigate mode: previous workspace.", navigateAction},
	{"navigate_workspace_down", []string{"down"}, "Navigate mode: next workspace.", navigateAction},
	{"navigate_pane_left", []string{"h"}, "Navigate mode: pane to the left (the arrow key always works too).", navigateAction},
	{"navigate_pane_down", []string{"j"}, "Navigate mode: pane below.", navigateAction},
	{"navigate_pane_up", []string{"k"}, "Navigate mode: pane above.", navigateAction},
	{"navigate_pane_right", []string{"l"}, "Navigate mode: pane to the right (the arrow key always works too).", navigateAction},
}

// Actions returns every bindable action of [keys] with Herdr's defaults.
func Actions() []Action { return slices.Clone(actions) }

// Presets are the values of keys.preset: the set of bindings the [keys]
// table starts from before its own entries.
var Presets = []string{"herdr", "tmux"}

// TmuxPreset is what keys.preset = "tmux" changes from Herdr's defaults:
// tmux's default bindings on the same prefix. Herdr keys that tmux uses for
// something else move to a shifted key (settings, the notification jump).
func TmuxPreset() map[string][]string {
	// Built when asked: a map literal at package level is built at every
	// herdr call's start.
	return map[string][]string{
		"detach":                   {"prefix+d"},
		"split_vertical":           {"prefix+%", "prefix+v"},
		"split_horizontal":         {`prefix+"`, "prefix+minus"},
		"rename_tab":               {"prefix+,"},
		"rename_workspace":         {"prefix+$"},
		"cycle_pane_next":          {"prefix+o", "prefix+tab"},
		"last_pane":                {"prefix+;"},
		"close_tab":                {"prefix+&"},
		"choose_session":           {"prefix+s"},
		"command_prompt":           {"prefix+:"},
		"settings":                 {"prefix+shift+s"},
		"open_notification_target": {"prefix+shift+o"},
	}
}

// PresetBindings is every action's combos in a preset ("" or an unknown
// name is Herdr's).
func PresetBindings(preset string) map[string][]string {
	m := make(map[string][]string, len(actions))
	for _, a := range actions {
		m[a.Name] = slices.Clone(a.Default)
	}
	if preset == "tmux" {
		for name, combos := range TmuxPreset() {
			m[name] = slices.Clone(combos)
		}
	}
	return m
}

func defaultBindings() map[string][]string { return PresetBindings("herdr") }

// CommandTypes are the values of [[keys.command]] type.
var CommandTypes = []string{"shell", "pane", "popup", "plugin_action"}

func (d *decoder) keys(t map[string]any) {
	k := &d.cfg.Keys
	if v, ok := t["preset"]; ok {
		d.set("keys.preset", field{ptr: func(*Config) any { return &k.Preset }, enum: Presets}, v)
		k.Bindings = PresetBindings(k.Preset)
	}
	if v, ok := t["prefix"]; ok {
		d.set("keys.prefix", field{ptr: func(*Config) any { return &k.Prefix }, check: prefixKey}, v)
	}
	if v, ok := t["remote_image_paste"]; ok {
		d.set("keys.remote_image_paste", field{ptr: func(*Config) any { return &k.RemoteImagePaste }, check: func(s string) (string, error) {
			if strings.TrimSpace(s) == "" {
				return "", nil
			}
			_, err := parseCombo(s)
			return s, err
		}}, v)
	}
	user := map[string]bool{}
	for _, name := range sortedKeys(t) {
		v, full := t[name], "keys."+name
		switch name {
		case "prefix", "remote_image_paste", "preset":
			continue
		case "indexed":
			d.subtable("keys", t, name, d.indexedKeys)
			continue
		case "command":
			d.keyCommands(v)
			continue
		case "fullscreen": // Older name of zoom.
			if _, zoom := t["zoom"]; zoom {
				d.addf("keys.fullscreen ignored: keys.zoom is also set")
				continue
			}
			name = "zoom"
		}
		i := slices.IndexFunc(actions, func(a Action) bool { return a.Name == name })
		if i < 0 {
			d.addf("unknown key keys.%s", name)
			continue
		}
		if combos, ok := d.bindingValue(full, v, actions[i].kind); ok {
			k.Bindings[name] = combos
			user[name] = true
		}
	}
	d.keyConflicts(user)
}

// bindingValue decodes a string or array of combos for an action of kind;
// empty strings are dropped. As in Herdr, a bad combo of a list is
// reported and left out while the others work; when none is left, the
// action keeps its default.
func (d *decoder) bindingValue(full string, v any, kind actionKind) ([]string, bool) {
	var list []string
	switch v := v.(type) {
	case string:
		list = []string{v}
	case []any:
		var ok bool
		if list, ok = d.strings(full, v); !ok {
			return nil, false
		}
	default:
		d.addf("%s: expected a key combo or an array of them, got %s; using the default", full, typeName(v))
		return nil, false
	}
	var out []string
	var bad []error
	for _, c := range list {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if err := checkBinding(c, kind); err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, c)
	}
	for _, err := range bad {
		if len(out) == 0 {
			d.addf("%s: %v; using the default", full, err)
			return nil, false
		}
		d.addf("%s: %v; left out, the other keys of the list work", full, err)
	}
	return out, true
}

// binding is a parsed combo: pressed after the prefix or directly; a
// 1..9 range keeps its modifiers in key, with no rune.
type binding struct {
	prefix, isRange bool
	key             protocol.Key
}

// parseBinding splits "prefix+" off c and parses the rest as a key or a
// 1..9 range.
func parseBinding(c string) (binding, error) {
	var b binding
	body := strings.TrimSpace(c)
	if rest, ok := strings.CutPrefix(strings.ToLower(body), "prefix+"); ok {
		b.prefix, body = true, body[len(body)-len(rest):]
	}
	if mods, ok := strings.CutSuffix(body, "1..9"); ok {
		b.isRange = true
		if mods = strings.TrimSuffix(mods, "+"); mods != "" {
			k, err := parseCombo(mods + "+1")
			if err != nil {
				return b, fmt.Errorf("invalid range %q: %v", c, err)
			}
			b.key = protocol.Key{Ctrl: k.Ctrl, Shift: k.Shift, Alt: k.Alt, Super: k.Super}
		}
		return b, nil
	}
	k, err := parseCombo(body)
	b.key = k
	return b, err
}

// parseCombo parses one key combo with the protocol's key grammar.
func parseCombo(s string) (protocol.Key, error) {
	k, err := protocol.ParseKey(strings.TrimSpace(s))
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return k, errors.New(pe.Message)
		}
		return k, err
	}
	return k, nil
}

// checkBinding applies Herdr's rules for one combo of an action of kind.
func checkBinding(c string, kind actionKind) error {
	b, err := parseBinding(c)
	if err != nil {
		return err
	}
	direct := kind != navigateAction && !b.prefix
	switch {
	case b.isRange && kind != indexedAction:
		return fmt.Errorf("%q: a 1..9 range only fits switch_tab, switch_workspace and focus_agent", c)
	case kind == indexedAction && !b.isRange && (b.key.Rune < '1' || b.key.Rune > '9'):
		return fmt.Errorf("%q: an indexed binding must use a key from 1 to 9", c)
	case kind == navigateAction && b.prefix:
		return fmt.Errorf("%q: navigate mode bindings take no prefix", c)
	case kind == navigateAction && b.key.Name == "esc":
		return fmt.Errorf("%q: esc always leaves navigate mode", c)
	case direct && b.isRange && !b.key.Ctrl && !b.key.Alt && !b.key.Super,
		direct && !b.isRange && unmodifiedPrintable(b.key):
		return fmt.Errorf("%q would swallow typing; use \"prefix+%s\" or add ctrl, alt or cmd", c, strings.TrimSpace(c))
	}
	return nil
}

// unmodifiedPrintable reports a key that types a character by itself.
func unmodifiedPrintable(k protocol.Key) bool {
	if k.Ctrl || k.Alt || k.Super {
		return false
	}
	return k.Name == "space" || (k.Rune != 0 && unicode.IsPrint(k.Rune))
}

// prefixKey validates keys.prefix: one key combo, without "prefix+".
func prefixKey(s string) (string, error) {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "prefix+") {
		return "", fmt.Errorf("%q: the prefix cannot itself use prefix", s)
	}
	if _, err := parseCombo(s); err != nil {
		return "", err
	}
	return s, nil
}

// keyConflicts reports two user bindings on the same keys (the later one, in
// action order, goes back to its default) and a prefix binding on the prefix
// key itself, which pressing the prefix twice already means.
func (d *decoder) keyConflicts(user map[string]bool) {
	k := &d.cfg.Keys
	prefix, _ := parseCombo(k.Prefix)
	seen := map[string]string{}
	for _, a := range actions {
		if !user[a.Name] {
			continue
		}
		for _, c := range k.Bindings[a.Name] {
			b, _ := parseBinding(c)
			if b.prefix && !b.isRange && b.key == prefix {
				d.addf("keys.%s: %q is reserved: pressing the prefix twice sends the prefix key to the pane; using the default", a.Name, c)
				k.Bindings[a.Name] = PresetBindings(k.Preset)[a.Name]
				break
			}
			id := fmt.Sprintf("%v %v %+v", b.prefix, b.isRange, b.key)
			if a.kind == navigateAction {
				id = "navigate " + id
			}
			if first, dup := seen[id]; dup {
				d.addf("keys.%s: %q is already bound by keys.%s; using the default", a.Name, c, first)
				k.Bindings[a.Name] = PresetBindings(k.Preset)[a.Name]
				break
			}
			seen[id] = a.Name
		}
	}
}

var indexedFields = []field{
	{key: "tabs", doc: `Modifiers that make <mods>+1..9 switch tabs directly, e.g. "ctrl".`,
		ptr: func(c *Config) any { return &c.Keys.Indexed.Tabs }, check: modifierList, example: "ctrl"},
	{key: "workspaces", doc: `Modifiers that make <mods>+1..9 switch workspaces directly.`,
		ptr: func(c *Config) any { return &c.Keys.Indexed.Workspaces }, check: modifierList, example: "ctrl+shift"},
	{key: "agents", doc: `Modifiers that make <mods>+1..9 focus agents directly.`,
		ptr: func(c *Config) any { return &c.Keys.Indexed.Agents }, check: modifierList, example: "alt"},
}

func (d *decoder) indexedKeys(t map[string]any) { d.fields("keys.indexed", t, indexedFields) }

// modifierList validates a "+"-joined list of modifiers ("" is unset).
func modifierList(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return s, nil
	}
	if _, err := parseCombo(s + "+1"); err != nil {
		return "", fmt.Errorf("invalid modifiers %q: %v", s, err)
	}
	return s, nil
}

// keyCommands decodes [[keys.command]]; a bad entry is reported and dropped.
func (d *decoder) keyCommands(v any) {
	arr, ok := v.([]any)
	if !ok {
		d.addf("keys.command: expected an array of tables ([[keys.command]]), got %s; ignoring it", typeName(v))
		return
	}
	for i, e := range arr {
		full := "keys.command[" + strconv.Itoa(i) + "]"
		t, ok := d.table(full, e)
		if !ok {
			continue
		}
		cmd, ok := d.keyCommand(full, t)
		if !ok {
			continue
		}
		if cmd.ID == "" {
			cmd.ID = "keys.command." + strconv.Itoa(i)
		}
		if j := slices.IndexFunc(d.cfg.Keys.Commands, func(c KeyCommand) bool { return c.ID == cmd.ID }); j >= 0 {
			d.addf("%s.id: %q is the id of an earlier command too; ignoring this command", full, cmd.ID)
			continue
		}
		d.cfg.Keys.Commands = append(d.cfg.Keys.Commands, cmd)
	}
}

func (d *decoder) keyCommand(full string, t map[string]any) (KeyCommand, bool) {
	cmd := KeyCommand{Type: "shell"}
	ok := true
	fail := func(format string, args ...any) {
		d.addf(full+"."+format+"; ignoring this command", args...)
		ok = false
	}
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "key":
			list, good := d.bindingValue(full+".key", v, plainAction)
			if !good {
				ok = false
			}
			cmd.Key = list
		case "command", "description", "type", "id":
			s, isStr := v.(string)
			switch {
			case !isStr:
				fail("%s: expected a string, got %s", k, typeName(v))
			case k == "id" && strings.TrimSpace(s) == "":
				fail("id: must not be empty")
			case k == "id":
				cmd.ID = s
			case k == "command":
				cmd.Command = s
			case k == "description":
				cmd.Description = s
			case !slices.Contains(CommandTypes, s):
				fail("type: invalid value %q (allowed: %s)", s, quoteAll(CommandTypes))
			default:
				cmd.Type = s
			}
		case "width", "height":
			size, err := popupSize(v)
			if err != nil {
				fail("%s: %v", k, err)
			} else if k == "width" {
				cmd.Width = size
			} else {
				cmd.Height = size
			}
		default:
			fail("%s: unknown key", k)
		}
	}
	switch {
	case !ok:
	case strings.TrimSpace(cmd.Command) == "":
		fail("command: must not be empty")
	case len(cmd.Key) == 0:
		fail("key: must name at least one key combo")
	case cmd.Type != "popup" && (cmd.Width != "" || cmd.Height != ""):
		fail("width: width and height only apply to type = \"popup\"")
	}
	return cmd, ok
}

// popupSize validates a popup width or height: cells (> 0) or "N%" (1-100).
func popupSize(v any) (string, error) {
	switch v := v.(type) {
	case int64:
		if v < 1 || v > u16 {
			return "", fmt.Errorf("%d cells is out of range (1-%d)", v, u16)
		}
		return strconv.FormatInt(v, 10), nil
	case string:
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "%"))
		if !strings.HasSuffix(strings.TrimSpace(v), "%") || err != nil || n < 1 || n > 100 {
			return "", fmt.Errorf("invalid size %q (cells as an integer, or a percentage such as \"80%%\")", v)
		}
		return strings.TrimSpace(v), nil
	}
	return "", fmt.Errorf("expected cells or a percentage, got %s", typeName(v))
}
