package protocol

import "testing"

func TestKeys_Encode(t *testing.T) {
	cases := []struct {
		key       string
		appCursor bool
		want      string
	}{
		{"enter", false, "\r"},
		{"Enter", false, "\r"},
		{"return", false, "\r"},
		{"esc", false, "\x1b"},
		{"tab", false, "\t"},
		{"shift+tab", false, "\x1b[Z"},
		{"backspace", false, "\x7f"},
		{"space", false, " "},
		{"ctrl+c", false, "\x03"},
		{"C-c", false, "\x03"},
		{"control+j", false, "\n"},
		{"ctrl+h", false, "\x08"},
		{"alt+x", false, "\x1bx"},
		{"a", false, "a"},
		{"A", false, "A"},
		{"shift+a", false, "A"},
		{"minus", false, "-"},
		{"plus", false, "+"},
		{"+", false, "+"},
		{"up", false, "\x1b[A"},
		{"up", true, "\x1bOA"},
		{"ctrl+left", false, "\x1b[1;5D"},
		{"f1", false, "\x1bOP"},
		{"f5", false, "\x1b[15~"},
		{"f12", false, "\x1b[24~"},
		{"shift+f5", false, "\x1b[15;2~"},
		{"é", false, "é"},
	}
	for _, c := range cases {
		k, err := ParseKey(c.key)
		if err != nil {
			t.Errorf("ParseKey(%q): %v", c.key, err)
			continue
		}
		if got := string(k.Encode(nil, c.appCursor)); got != c.want {
			t.Errorf("%q (app=%v) encodes %q, want %q", c.key, c.appCursor, got, c.want)
		}
	}
}

func TestKeys_Invalid(t *testing.T) {
	for _, s := range []string{"", "prefix+c", "prefix", "ctrl+", "hyperdrive", "f13", "f0", "bogus+c", "home", "\x01"} {
		_, err := ParseKey(s)
		if err == nil || AsError(err).Code != CodeInvalidKey {
			t.Errorf("ParseKey(%q) = %v, want invalid_key", s, err)
		}
	}
	// One bad key rejects the whole list.
	if _, err := ParseKeys([]string{"a", "prefix+x"}); err == nil {
		t.Error("ParseKeys accepted a list with a prefix binding")
	}
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"ctrl+c", "C-x", "shift+tab", "f5", "+", "a+b+c", "alt+é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKey(s)
		if err == nil {
			_ = k.Encode(nil, true)
			_ = k.Encode(nil, false)
		}
	})
}
