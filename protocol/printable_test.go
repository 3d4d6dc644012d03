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
