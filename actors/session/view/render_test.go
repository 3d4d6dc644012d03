package view

import "testing"

func TestStripSpinner(t *testing.T) {
	for in, want := range map[string]string{
		"⠋ Working on it": "Working on it",
		"✳ Claude Code":   "Claude Code",
		"plain title":     "plain title",
		"":                "",
	} {
		if got := StripSpinner(in); got != want {
			t.Errorf("StripSpinner(%q) = %q, want %q", in, got, want)
		}
	}
}
