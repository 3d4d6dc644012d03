package tui

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea v2 splits the mouse into one message per kind (click,
// release, wheel, motion); the client routes every kind the same way,
// by the region under the pointer (mouse.go), so the root turns them into
// one event here and the components match on its action.

// mouseAction is what a mouse event did.
type mouseAction int

const (
	mousePress   mouseAction = iota // a button went down, or the wheel turned
	mouseRelease                    // a button came up
	mouseMotion                     // the pointer moved (with a button held, or any, as reported)
)

// mouseMsg is one mouse event as the client's components take it.
type mouseMsg struct {
	X, Y             int
	Button           tea.MouseButton
	Action           mouseAction
	Alt, Ctrl, Shift bool
}

// mouseOf turns Bubble Tea's mouse message into the client's event.
func mouseOf(msg tea.MouseMsg) mouseMsg {
	m := msg.Mouse()
	ev := mouseMsg{X: m.X, Y: m.Y, Button: m.Button,
		Alt: m.Mod.Contains(tea.ModAlt), Ctrl: m.Mod.Contains(tea.ModCtrl), Shift: m.Mod.Contains(tea.ModShift)}
	switch msg.(type) {
	case tea.MouseReleaseMsg:
		ev.Action = mouseRelease
	case tea.MouseMotionMsg:
		ev.Action = mouseMotion
	}
	return ev
}

// keyPaste is the Code of a key that carries a bracketed paste in its
// Text (tea.PasteMsg): no key has a negative code, so nothing else
// matches it, and prompts take its text as typed.
const keyPaste rune = -1

// pasteKey is a paste as a key, for the paths that take keys.
func pasteKey(text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: keyPaste, Text: text} }

// textKey is text typed as one key (a character, or characters read
// together).
func textKey(s string) tea.KeyPressMsg {
	r, _ := utf8.DecodeRuneInString(s)
	if utf8.RuneCountInString(s) > 1 {
		r = tea.KeyExtended
	}
	return tea.KeyPressMsg{Code: r, Text: s}
}

// typedText is the text a key types into a prompt: its text when it has
// no modifier but shift (a paste's whole text); ok is false for keys that
// type nothing (enter, ctrl+u, alt+x).
func typedText(k tea.KeyPressMsg) (string, bool) {
	if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModMeta|tea.ModSuper|tea.ModHyper) != 0 {
		return "", false
	}
	return k.Text, true
}

// isKey reports whether msg is typing (a key press or a paste).
func isKey(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true
	}
	return false
}

// keypadKeys are the keypad's keys as the main keyboard's: a terminal
// speaking the kitty protocol reports the keypad apart (keypad 5 is
// CSI 57404 u), where a legacy terminal sends the digit itself; the client
// types them as a legacy terminal would.
var keypadKeys = map[rune]tea.Key{
	tea.KeyKp0: {Code: '0', Text: "0"}, tea.KeyKp1: {Code: '1', Text: "1"}, tea.KeyKp2: {Code: '2', Text: "2"},
	tea.KeyKp3: {Code: '3', Text: "3"}, tea.KeyKp4: {Code: '4', Text: "4"}, tea.KeyKp5: {Code: '5', Text: "5"},
	tea.KeyKp6: {Code: '6', Text: "6"}, tea.KeyKp7: {Code: '7', Text: "7"}, tea.KeyKp8: {Code: '8', Text: "8"},
	tea.KeyKp9: {Code: '9', Text: "9"}, tea.KeyKpDecimal: {Code: '.', Text: "."}, tea.KeyKpDivide: {Code: '/', Text: "/"},
	tea.KeyKpMultiply: {Code: '*', Text: "*"}, tea.KeyKpMinus: {Code: '-', Text: "-"}, tea.KeyKpPlus: {Code: '+', Text: "+"},
	tea.KeyKpEqual: {Code: '=', Text: "="}, tea.KeyKpComma: {Code: ',', Text: ","}, tea.KeyKpSep: {Code: ',', Text: ","},
	tea.KeyKpEnter: {Code: tea.KeyEnter}, tea.KeyKpUp: {Code: tea.KeyUp}, tea.KeyKpDown: {Code: tea.KeyDown},
	tea.KeyKpLeft: {Code: tea.KeyLeft}, tea.KeyKpRight: {Code: tea.KeyRight}, tea.KeyKpHome: {Code: tea.KeyHome},
	tea.KeyKpEnd: {Code: tea.KeyEnd}, tea.KeyKpPgUp: {Code: tea.KeyPgUp}, tea.KeyKpPgDown: {Code: tea.KeyPgDown},
	tea.KeyKpInsert: {Code: tea.KeyInsert}, tea.KeyKpDelete: {Code: tea.KeyDelete},
}

// plainKey is k with a keypad key made the main keyboard's (keypadKeys).
func plainKey(k tea.KeyPressMsg) tea.KeyPressMsg {
	p, ok := keypadKeys[k.Code]
	if !ok {
		return k
	}
	p.Mod = k.Mod
	return tea.KeyPressMsg(p)
}
