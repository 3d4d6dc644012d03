package tui

import "testing"

// The client measures and draws text by the emulator's rule: a keycap and
// an emoji made wide by VS16 take two cells each, as the pane's grid does.
func TestTextWidth_EmojiAsTheEmulator(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"1\ufe0f\u20e3", 2},
		{"\u2764\ufe0f", 2},
		{"#\ufe0f\u20e3x", 3},
		{"\u2764", 1},
		{"1\u20e3", 1},
		{"a\ufe0f", 1},
	} {
		if got := textWidth(c.text); got != c.want {
			t.Errorf("textWidth(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
