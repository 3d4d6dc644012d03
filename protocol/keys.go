package protocol

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Key is one parsed key combo such as "ctrl+c" or "shift+tab".
type Key struct {
	Ctrl, Shift, Alt, Super bool
	// Name is a named key ("enter", "up", "f5", …) or empty when Rune is set.
	Name string
	// Rune is the character of a single-character key.
	Rune rune
}

// The key names are switches, not map literals: a map at package level
// is built by every process's start, and every herdr call links this.

// setModifier sets the modifier named lower on k; false when it is none.
func setModifier(k *Key, lower string) bool {
	switch lower {
	case "ctrl", "control":
		k.Ctrl = true
	case "shift":
		k.Shift = true
	case "alt", "option", "meta":
		k.Alt = true
	case "cmd", "command", "super", "hyper":
		k.Super = true
	default:
		return false
	}
	return true
}

// keyName is the canonical name of an accepted key name, else "".
func keyName(lower string) string {
	switch lower {
	case "space", "tab", "backspace", "left", "right", "up", "down", "enter", "esc":
		return lower
	case "return":
		return "enter"
	case "escape":
		return "esc"
	case "bs":
		return "backspace"
	}
	return ""
}

// symbolName is the character of a named symbol, else 0.
func symbolName(lower string) rune {
	switch lower {
	case "minus":
		return '-'
	case "comma":
		return ','
	case "period":
		return '.'
	case "slash":
		return '/'
	case "backslash":
		return '\\'
	case "quote":
		return '\''
	case "double_quote", "double-quote":
		return '"'
	case "semicolon":
		return ';'
	case "colon":
		return ':'
	case "percent":
		return '%'
	case "ampersand":
		return '&'
	case "backtick":
		return '`'
	case "plus":
		return '+'
	}
	return 0
}

// ParseKey parses one key combo of Herdr's grammar.
func ParseKey(s string) (Key, error) {
	bad := func(why string) (Key, error) {
		return Key{}, Errorf(CodeInvalidKey, "invalid key %q: %s", s, why)
	}
	if s == "" {
		return bad("empty key")
	}
	if s == "+" {
		return Key{Rune: '+'}, nil
	}
	spec := s
	// Emacs-style alias: C-c.
	if len(spec) >= 3 && (spec[0] == 'C' || spec[0] == 'c') && spec[1] == '-' {
		spec = "ctrl+" + spec[2:]
	}
	parts := strings.Split(spec, "+")
	if strings.HasSuffix(spec, "++") || spec == "ctrl++" { // "ctrl++" means ctrl+plus
		parts = append(parts[:len(parts)-2], "plus")
	}
	var k Key
	for _, mod := range parts[:len(parts)-1] {
		lower := strings.ToLower(mod)
		if lower == "prefix" {
			return bad("prefix bindings cannot be sent")
		}
		if !setModifier(&k, lower) {
			return bad("unknown modifier " + strconv.Quote(mod))
		}
	}
	last := parts[len(parts)-1]
	if last == "" {
		return bad("missing key after modifier")
	}
	lower := strings.ToLower(last)
	switch {
	case lower == "prefix":
		return bad("prefix bindings cannot be sent")
	case keyName(lower) != "":
		k.Name = keyName(lower)
	case symbolName(lower) != 0:
		k.Rune = symbolName(lower)
	case len(lower) >= 2 && lower[0] == 'f' && isDigits(lower[1:]):
		n, _ := strconv.Atoi(lower[1:])
		if n < 1 || n > 12 {
			return bad("function keys are f1 to f12")
		}
		k.Name = lower
	case utf8.RuneCountInString(last) == 1:
		r, _ := utf8.DecodeRuneInString(last)
		if unicode.IsControl(r) {
			return bad("control characters are not keys")
		}
		if unicode.IsUpper(r) {
			k.Shift = true
			r = unicode.ToLower(r)
		}
		k.Rune = r
	default:
		return bad("unknown key name")
	}
	return k, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// validateKeys parses every key so that none is sent when one is bad.
func validateKeys(keys []string) error {
	for _, s := range keys {
		if _, err := ParseKey(s); err != nil {
			return err
		}
	}
	return nil
}

// ParseKeys parses a list of key combos, failing on the first bad one.
func ParseKeys(keys []string) ([]Key, error) {
	out := make([]Key, 0, len(keys))
	for _, s := range keys {
		k, err := ParseKey(s)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// modParam is the xterm modifier parameter (1 + shift + 2·alt + 4·ctrl).
func (k Key) modParam() int {
	m := 1
	if k.Shift {
		m++
	}
	if k.Alt {
		m += 2
	}
	if k.Ctrl {
		m += 4
	}
	return m
}

// Encode appends the bytes a terminal sends for k. appCursor selects the
// application cursor-key encoding (DECCKM).
func (k Key) Encode(dst []byte, appCursor bool) []byte {
	switch k.Name {
	case "":
		return k.encodeRune(dst)
	case "enter":
		return k.altPrefix(dst, '\r')
	case "tab":
		if k.Shift {
			return append(dst, "\x1b[Z"...)
		}
		return k.altPrefix(dst, '\t')
	case "backspace":
		if k.Ctrl {
			return k.altPrefix(dst, 0x08)
		}
		return k.altPrefix(dst, 0x7f)
	case "esc":
		return k.altPrefix(dst, 0x1b)
	case "space":
		if k.Ctrl {
			return k.altPrefix(dst, 0)
		}
		return k.altPrefix(dst, ' ')
	case "up", "down", "right", "left":
		final := map[string]byte{"up": 'A', "down": 'B', "right": 'C', "left": 'D'}[k.Name]
		if m := k.modParam(); m > 1 {
			return append(dst, "\x1b[1;"+strconv.Itoa(m)+string(final)...)
		}
		if appCursor {
			return append(dst, 0x1b, 'O', final)
		}
		return append(dst, 0x1b, '[', final)
	}
	// Function keys.
	n, _ := strconv.Atoi(k.Name[1:])
	if n <= 4 {
		final := "PQRS"[n-1]
		if m := k.modParam(); m > 1 {
			return append(dst, "\x1b[1;"+strconv.Itoa(m)+string(final)...)
		}
		return append(dst, 0x1b, 'O', final)
	}
	code := [...]int{5: 15, 6: 17, 7: 18, 8: 19, 9: 20, 10: 21, 11: 23, 12: 24}[n]
	seq := "\x1b[" + strconv.Itoa(code)
	if m := k.modParam(); m > 1 {
		seq += ";" + strconv.Itoa(m)
	}
	return append(dst, seq+"~"...)
}

func (k Key) altPrefix(dst []byte, b byte) []byte {
	if k.Alt {
		dst = append(dst, 0x1b)
	}
	return append(dst, b)
}

func (k Key) encodeRune(dst []byte) []byte {
	r := k.Rune
	if k.Shift {
		r = unicode.ToUpper(r)
	}
	if k.Ctrl {
		switch {
		case r >= 'a' && r <= 'z':
			return k.altPrefix(dst, byte(r-'a'+1))
		case r >= 'A' && r <= 'Z':
			return k.altPrefix(dst, byte(r-'A'+1))
		case r == '@' || r == '2' || r == ' ':
			return k.altPrefix(dst, 0)
		case r >= '[' && r <= '_':
			return k.altPrefix(dst, byte(r-'@'))
		case r == '?':
			return k.altPrefix(dst, 0x7f)
		}
	}
	if k.Alt {
		dst = append(dst, 0x1b)
	}
	return utf8.AppendRune(dst, r)
}
