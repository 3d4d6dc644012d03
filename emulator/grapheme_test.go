package emulator

import (
	"testing"
)

func TestGraphemeClusters(t *testing.T) {
	tests := []struct {
		name   string
		cols   int
		input  string
		want   string
		cursor int
	}{
		{"ZWJ family is one wide cell", 10, "\U0001F468\u200D\U0001F469\u200D\U0001F467|", "\U0001F468\u200D\U0001F469\u200D\U0001F467|", 3},
		{"flag is one wide cell", 10, "\U0001F1EB\U0001F1F7|", "\U0001F1EB\U0001F1F7|", 3},
		{"three regional indicators: flag + one", 10, "\U0001F1EB\U0001F1F7\U0001F1EA|", "\U0001F1EB\U0001F1F7\U0001F1EA|", 5},
		{"skin tone modifier joins", 10, "\U0001F44D\U0001F3FD|", "\U0001F44D\U0001F3FD|", 3},
		{"VS16 widens a text symbol", 10, "\u2764\uFE0F|", "\u2764\uFE0F|", 3},
		{"VS16 at the last column cannot widen", 3, "ab\u2764\uFE0F", "ab\u2764\uFE0F", 2},
		{"combining accent", 10, "e\u0301|", "e\u0301|", 2},
		{"emoji after plain text does not join", 10, "a\U0001F600", "a\U0001F600", 3},
		{"ZWJ with nothing before is dropped", 10, "\u200D\U0001F600", "\U0001F600", 2},
		{"CJK unaffected", 10, "世界", "世界", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			term := New(tc.cols, 3, Options{})
			feed(term, tc.input)
			checkScreen(t, term, []string{tc.want})
			if x, y, _ := term.Cursor(); x != tc.cursor || y != 0 {
				t.Fatalf("cursor (%d,%d), want (%d,0)", x, y, tc.cursor)
			}
		})
	}
}

// TestGraphemeOverwrite checks that a widened cluster is a proper wide cell:
// overwriting its second half clears it.
func TestGraphemeOverwrite(t *testing.T) {
	term := New(10, 2, Options{})
	feed(term, "\u2764\uFE0Fz\x1b[1;2Hx")
	checkScreen(t, term, []string{" xz"})
}
