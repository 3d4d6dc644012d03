package protocol

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain label":           "plain label",
		"émoji ✓ 日本":            "émoji ✓ 日本",
		"WS\x1b]52;c;aGk=\x07":  "WS\uFFFD]52;c;aGk=\uFFFD",
		"a\tb\nc\rd":            "a\uFFFDb\uFFFDc\uFFFDd",
		"del\x7f":               "del\uFFFD",
		"c1\u009b31m":           "c1\uFFFD31m",
		"bad\xffutf8":           "bad\uFFFDutf8",
		"":                      "",
		"\u00a0nbsp stays":      "\u00a0nbsp stays",
		"ok then \x1b[2J after": "ok then \uFFFD[2J after",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// Text typed for someone keeps what a prompt means (newlines, tabs) and
// loses every key that acts: Ctrl-C, ESC and its sequences, DEL, C1, and
// the bracketed-paste markers, whole.
func TestTypedText(t *testing.T) {
	for in, want := range map[string]string{
		"plain prompt":                   "plain prompt",
		"two\nlines\tand a tab":          "two\nlines\tand a tab",
		"crlf\r\nand cr\rend":            "crlf\nand cr\nend",
		"stop\x03touch /tmp/x\n":         "stop\uFFFDtouch /tmp/x\n",
		"clip\x1b]52;c;aGk=\x07 done":    "clip\uFFFD]52;c;aGk=\uFFFD done",
		"paste\x1b[201~touch x\x1b[200~": "pastetouch x",
		"c1 paste\u009b201~x":            "c1 pastex",
		"c1\u009b31m del\x7f":            "c1\uFFFD31m del\uFFFD",
		"eof\x04 kill\x15 susp\x1a":      "eof\uFFFD kill\uFFFD susp\uFFFD",
		"bad\xffutf8 ✓ 日本":               "bad\uFFFDutf8 ✓ 日本",
		"":                               "",
		// A marker split by a dropped one is still no marker.
		"\x1b[20\x1b[201~1~x": "\uFFFD[201~x",
	} {
		if got := TypedText(in); got != want {
			t.Errorf("TypedText(%q) = %q, want %q", in, got, want)
		}
		if got := TypedText(TypedText(in)); got != TypedText(in) {
			t.Errorf("TypedText is not idempotent on %q: %q", in, got)
		}
	}
}
