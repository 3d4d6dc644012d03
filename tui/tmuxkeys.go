package tui

import (
	"maps"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// tmuxBindings is this client's defaults with keys.preset = "tmux"
// (config.TmuxPreset) laid over them.
func tmuxBindings() map[action][]string {
	out := maps.Clone(defaultBindings)
	for name, combos := range config.TmuxPreset() {
		keys := make([]string, 0, len(combos))
		for _, c := range combos {
			rest, _ := cutFold(c, "prefix+")
			keys = append(keys, rest)
		}
		out[action(name)] = keys
	}
	return out
}

// tmuxHabit is what a tmux user means by a key after the prefix: the
// action that does it here, or none.
type tmuxHabit struct {
	what string
	act  action // "" when nothing here does it
	note string // said when nothing does it
}

// tmuxHabits are tmux's default prefix keys (tmux(1), DEFAULT KEY BINDINGS).
var tmuxHabits = map[string]tmuxHabit{
	"d":     {what: "detach", act: actDetach},
	"%":     {what: "split right", act: actSplitVertical},
	"\"":    {what: "split down", act: actSplitHorizontal},
	",":     {what: "rename tab", act: actRenameTab},
	"$":     {what: "rename workspace", act: actRenameWorkspace},
	"o":     {what: "next pane", act: actCycleNext},
	";":     {what: "last pane", act: actLastPane},
	"[":     {what: "copy mode", act: actCopyMode},
	"]":     {what: "paste", act: actPasteBuffer},
	"c":     {what: "new tab", act: actNewTab},
	"n":     {what: "next tab", act: actNextTab},
	"p":     {what: "previous tab", act: actPrevTab},
	"x":     {what: "close pane", act: actClosePane},
	"&":     {what: "close tab", act: actCloseTab},
	"z":     {what: "zoom", act: actZoom},
	"s":     {what: "choose session", act: actChooseSession},
	"w":     {what: "workspace list", act: actPicker},
	":":     {what: "command prompt", act: actCommandPrompt},
	"?":     {what: "key list", act: actHelp},
	"q":     {what: "pane ids", act: actPaneInfo},
	"i":     {what: "pane info", act: actPaneInfo},
	"space": {what: "next layout", act: actNextLayout},
	"!":     {what: "break pane", note: "herdr pane move --new-tab moves a pane to a tab of its own"},
	"t":     {what: "clock", note: "there is no clock"},
}

// unboundHint is the one line said for a key pressed after the prefix that
// nothing is bound to: the key that does what a tmux user expects of it
// ("detach is prefix q"), or that the key is not bound.
func (km *keymap) unboundHint(k tea.KeyPressMsg) string {
	name := k.String()
	shown := keyLabel(name)
	h, ok := tmuxHabits[name]
	switch {
	case !ok:
		return "prefix " + shown + " is not bound; prefix " + km.keyOf(actHelp, "?") + " lists the keys"
	case h.act == "":
		return "prefix " + shown + " is not bound (" + h.what + " in tmux): " + h.note
	}
	if key := km.keyOf(h.act, ""); key != "" {
		return h.what + " is prefix " + key
	}
	return "prefix " + shown + " is not bound; " + h.what + " has no key ([keys] " + string(h.act) + ")"
}

// keyOf is the key after the prefix bound to a, as a person writes it;
// the shortest, then the first in order; def when a has none.
func (km *keymap) keyOf(a action, def string) string {
	var keys []string
	for _, name := range slices.Sorted(maps.Keys(km.bindings)) {
		if km.bindings[name].act == a {
			keys = append(keys, name)
		}
	}
	if len(keys) == 0 {
		return def
	}
	slices.SortStableFunc(keys, func(a, b string) int { return len(a) - len(b) })
	return keyLabel(keys[0])
}

// keyLabel is a Bubble Tea key name as the hints write it.
func keyLabel(name string) string {
	if name == "space" {
		return "Space"
	}
	return name
}

// paneHistory remembers the focused pane and the one before it, for
// last_pane.
type paneHistory struct{ cur, prev string }

// note records the focused pane of a snapshot.
func (h *paneHistory) note(id string) {
	if id != "" && id != h.cur {
		h.prev, h.cur = h.cur, id
	}
}

// tmuxAction runs the actions that came with the tmux preset; ok is false
// for the others (runBinding runs them).
func tmuxAction(m *model, b binding) (cmd tea.Cmd, ok bool) {
	switch b.act {
	case actNewTabNamed:
		return m.rename.createThenName("tab.create", protocol.TabCreateParams{Focus: true, WorkspaceID: m.snap.FocusedWorkspaceID}), true
	case actLastPane:
		return lastPane(m), true
	case actChooseSession:
		return m.tmux.openChooser(), true // chooser.go
	case actCommandPrompt:
		return m.tmux.openPrompt(), true // cmdprompt.go
	case actNextLayout:
		return m.tmux.nextLayout(), true // layoutcycle.go
	}
	return nil, false
}

// lastPane focuses the pane focused before this one, if it still exists.
func lastPane(m *model) tea.Cmd {
	prev := m.focusHistory.prev
	if _, ok := m.paneInfo(prev); !ok || prev == m.focusedPaneID() {
		return m.toast.show("no previous pane to go back to")
	}
	m.call("pane.focus", protocol.PaneTarget{PaneID: prev})
	return nil
}
