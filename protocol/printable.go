package protocol

import (
	"strings"
	"unicode/utf8"
)

// Printable returns s with every control character — C0 (tab and newline
// included), DEL and C1 — and every invalid UTF-8 byte replaced by U+FFFD.
// Labels, titles, agent names and toasts come from any client or from any
// program in a pane; a client that draws them outside a pane's own grid,
// or puts them into an escape sequence such as the window title, passes
// them through this first, so none can act on the person's terminal
// (an OSC 52 in a workspace name would write their clipboard). Replacing
// rather than deleting keeps the tampering visible.
func Printable(s string) string {
	if isPrintable(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || isControl(r) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			// Only non-ASCII needs a closer look.
			if c < 0x80 {
				return false
			}
			for _, r := range s[i:] {
				if r == utf8.RuneError || isControl(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }
