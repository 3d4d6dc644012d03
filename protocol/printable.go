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

// TypedText is text made safe to type into a terminal on someone's
// behalf: a prompt the server composes from stored text (a task's
// description in a dispatch, agent.prompt's text, a queued prompt, a
// review comment). The program in the pane reads it as keys, so a Ctrl-C
// in it would end the agent and hand what follows to its shell, an ESC
// would start a sequence (OSC 52 writes the clipboard) and a
// bracketed-paste end would turn the rest of a paste into typed keys.
// Newlines and tabs are kept, a CR LF or a lone CR becomes a newline;
// every bracketed-paste marker is dropped; every other C0 control, ESC,
// DEL, C1 control and invalid UTF-8 byte becomes U+FFFD (replaced rather
// than dropped, so the tampering stays visible). Text a person types
// (pane.send_text, send_keys, send_input) is their own keys and is not
// passed through this.
func TypedText(s string) string {
	if isTypable(s) {
		return s
	}
	for _, m := range pasteMarkers {
		s = strings.ReplaceAll(s, m, "")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			b.WriteByte('\n')
		case r == utf8.RuneError && size <= 1 || isControl(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// pasteMarkers are the bracketed-paste start and end, in their 7-bit
// (ESC [) and 8-bit (CSI) spellings.
var pasteMarkers = []string{"\x1b[200~", "\x1b[201~", "\u009b200~", "\u009b201~"}

// isTypable reports whether TypedText would leave s as it is.
func isTypable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		} else if c >= 0x80 {
			for _, r := range s[i:] {
				if r == utf8.RuneError || isControl(r) && r != '\n' && r != '\t' {
					return false
				}
			}
			return true
		}
	}
	return true
}
