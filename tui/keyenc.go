package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
)

// Keys go to a pane as the program in it expects them. The client asks
// its own terminal for the kitty keyboard protocol (outer.go), so keys a
// legacy terminal cannot tell apart arrive distinct (shift+enter from
// enter, ctrl+i from tab, esc from alt+[); a pane whose program pushed
// the protocol's disambiguation flag (CSI > 1 u) gets those keys in its
// CSI u form, any other pane the bytes an xterm sends for them.

// keyMods are the modifiers that change a key's encoding (caps and num
// lock do not).
const keyMods = tea.ModShift | tea.ModAlt | tea.ModCtrl | tea.ModMeta | tea.ModSuper | tea.ModHyper

// encodeKey turns a key into the bytes a terminal program expects, in the
// pane's cursor-key mode, in the kitty protocol's CSI u form when kitty
// (the pane asked for disambiguated keys); ok is false for keys with no
// encoding.
func encodeKey(k tea.KeyPressMsg, appCursor, kitty bool) ([]byte, bool) {
	mod := k.Mod & keyMods
	if seq, ok := specialKey(k.Code, mod, appCursor); ok {
		return seq, true
	}
	if kitty {
		if b, ok := kittyKey(k, mod); ok {
			return b, true
		}
	}
	alt := mod.Contains(tea.ModAlt)
	var b []byte
	switch {
	case k.Text != "" && mod&^(tea.ModShift|tea.ModAlt) == 0:
		b = []byte(k.Text) // the text already has shift (and caps lock) applied
	case k.Code == tea.KeyEnter || k.Code == tea.KeyKpEnter:
		b = []byte{'\r'}
	case k.Code == tea.KeyTab:
		b = []byte{'\t'}
		if mod.Contains(tea.ModShift) {
			b = []byte("\x1b[Z")
		}
	case k.Code == tea.KeyBackspace:
		b = []byte{0x7f}
		if mod.Contains(tea.ModCtrl) {
			b = []byte{0x08}
		}
	case k.Code == tea.KeyEscape:
		b = []byte{0x1b}
	case mod.Contains(tea.ModCtrl):
		c, ok := ctrlByte(k.Code)
		switch {
		case ok:
			b = []byte{c}
		case k.Code >= 0x20 && k.Code < tea.KeyExtended:
			b = []byte(string(k.Code)) // ctrl+1 has no control byte: an xterm sends the 1
		default:
			return nil, false
		}
	case k.Code == tea.KeySpace:
		b = []byte{' '}
	case k.Code >= 0x20 && k.Code < tea.KeyExtended:
		code := k.Code
		if mod.Contains(tea.ModShift) && k.ShiftedCode != 0 {
			code = k.ShiftedCode
		}
		b = []byte(string(code))
	default:
		return nil, false
	}
	if alt {
		b = append([]byte{0x1b}, b...)
	}
	return b, true
}

// ctrlByte is the C0 byte ctrl and a key make (ctrl+a is 0x01, ctrl+[ is
// ESC, ctrl+space NUL).
func ctrlByte(code rune) (byte, bool) {
	switch {
	case code >= 'a' && code <= 'z':
		return byte(code-'a') + 1, true
	case code >= 'A' && code <= 'Z':
		return byte(code-'A') + 1, true
	case code == '@' || code == ' ' || code == '2':
		return 0, true
	case code >= '[' && code <= '_':
		return byte(code-'[') + 0x1b, true
	case code >= '3' && code <= '7': // ctrl+3 … ctrl+7, as xterm sends them
		return byte(code-'3') + 0x1b, true
	case code == '8' || code == '?':
		return 0x7f, true
	case code == '/':
		return 0x1f, true
	}
	return 0, false
}

// kittyKey is a key in the kitty protocol's CSI u form, for the keys the
// disambiguation flag changes: esc, and keys with ctrl, alt or a
// modifier beyond shift; text with at most shift, and unmodified enter,
// tab and backspace keep their legacy bytes.
func kittyKey(k tea.KeyPressMsg, mod tea.KeyMod) ([]byte, bool) {
	code := k.Code
	switch code {
	case tea.KeyEnter, tea.KeyTab, tea.KeyBackspace:
		if mod == 0 {
			return nil, false
		}
	case tea.KeyEscape:
	default:
		if mod&^tea.ModShift == 0 || code < 0x20 || code >= tea.KeyExtended {
			return nil, false
		}
	}
	if code >= 'A' && code <= 'Z' { // the key's unshifted code, as the protocol sends
		code += 'a' - 'A'
	}
	b := append([]byte("\x1b["), strconv.Itoa(int(code))...)
	if mod != 0 {
		b = append(append(b, ';'), strconv.Itoa(int(mod)+1)...)
	}
	return append(b, 'u'), true
}

// specialKey is the xterm encoding of a key that is not a character
// (cursor keys, home and end, the editing keys, F1–F12), with the
// modifiers as CSI 1;m parameters.
func specialKey(code rune, mod tea.KeyMod, appCursor bool) ([]byte, bool) {
	param := 0
	if mod != 0 {
		param = int(mod&(tea.ModShift|tea.ModAlt|tea.ModCtrl|tea.ModMeta)) + 1
	}
	if final, ok := cursorFinals[code]; ok {
		switch {
		case param != 0:
			return []byte("\x1b[1;" + strconv.Itoa(param) + string(final)), true
		case appCursor && final != 'P' && final != 'Q' && final != 'R' && final != 'S' || code >= tea.KeyF1 && code <= tea.KeyF4:
			return []byte("\x1bO" + string(final)), true
		}
		return []byte("\x1b[" + string(final)), true
	}
	if n, ok := tildeKeys[code]; ok {
		s := "\x1b[" + strconv.Itoa(n)
		if param != 0 {
			s += ";" + strconv.Itoa(param)
		}
		return []byte(s + "~"), true
	}
	return nil, false
}

// cursorFinals are the keys sent as CSI (or SS3) and one letter.
var cursorFinals = map[rune]byte{
	tea.KeyUp: 'A', tea.KeyDown: 'B', tea.KeyRight: 'C', tea.KeyLeft: 'D', tea.KeyHome: 'H', tea.KeyEnd: 'F',
	tea.KeyF1: 'P', tea.KeyF2: 'Q', tea.KeyF3: 'R', tea.KeyF4: 'S',
}

// tildeKeys are the keys sent as CSI n ~.
var tildeKeys = map[rune]int{
	tea.KeyInsert: 2, tea.KeyDelete: 3, tea.KeyPgUp: 5, tea.KeyPgDown: 6,
	tea.KeyF5: 15, tea.KeyF6: 17, tea.KeyF7: 18, tea.KeyF8: 19, tea.KeyF9: 20, tea.KeyF10: 21, tea.KeyF11: 23, tea.KeyF12: 24,
}

// kittyDisambiguate is the kitty keyboard protocol's first flag: keys a
// legacy encoding makes ambiguous are sent as CSI u.
const kittyDisambiguate = 1

// escThenPrefix splits alt+<the prefix> into esc and the prefix: a terminal
// without the kitty protocol sends esc as a bare ESC, and Bubble Tea reads
// an ESC followed within its escape timeout by another key as alt and that
// key, so esc typed just before the prefix (leaving a picker, or vim's
// insert mode) would otherwise lose both.
func (km *keymap) escThenPrefix(k tea.KeyPressMsg) (esc, rest tea.KeyPressMsg, ok bool) {
	if !k.Mod.Contains(tea.ModAlt) {
		return k, k, false
	}
	rest = k
	rest.Mod &^= tea.ModAlt
	if km.isPrefix(k) || !km.isPrefix(rest) {
		return k, k, false // alt+<key> is itself the prefix, or the key is not
	}
	return tea.KeyPressMsg{Code: tea.KeyEscape}, rest, true
}

// keyName is a key's name as the keymap writes it (teaKeyName): what
// Bubble Tea names the key a legacy terminal sends, so a binding works the
// same whether the terminal speaks the kitty protocol or not. The protocol
// reports shift with ctrl or alt on a letter, which a legacy terminal
// folds into ctrl+x (the same byte as ctrl+X) or alt+X.
func keyName(k tea.KeyPressMsg) string {
	lower := k.Code >= 'a' && k.Code <= 'z'
	if !lower || !k.Mod.Contains(tea.ModShift) || !k.Mod.Contains(tea.ModCtrl) && !k.Mod.Contains(tea.ModAlt) {
		return k.String()
	}
	k.Mod &^= tea.ModShift
	if !k.Mod.Contains(tea.ModCtrl) {
		k.Code += 'A' - 'a'
	}
	k.Text, k.ShiftedCode, k.BaseCode = "", 0, 0
	return k.String()
}
