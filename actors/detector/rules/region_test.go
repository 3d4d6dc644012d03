package rules

import (
	"strings"
	"testing"
)

// claudeBox is a screen with a transcript, a prompt box and a footer.
var claudeBox = []string{
	"⏺ Done.",
	"",
	"✻ Worked for 3s",
	"",
	"────────────",
	"❯ fix the tests   ",
	"  second line",
	"────────────",
	"  ? for shortcuts",
	"",
	"",
}

func TestRegions(t *testing.T) {
	codex := []string{"› first ask", "• Ran ls", "› 1. Yes", "  2. No", "  Press enter to confirm", ""}
	blocks := []string{"• Ran ls", "  out", "✓ Tests pass", "  ok", "› ask"}
	tests := []struct {
		region string
		lines  []string
		title  string
		prog   string
		want   string
	}{
		{"", []string{"a  ", "B", "", ""}, "", "", "a\nB"},
		{"whole_recent", []string{"", "x"}, "", "", "\nx"},
		{"bottom_lines(2)", []string{"a", "b", "c", "", " "}, "", "", "b\nc"},
		{"bottom_lines(10)", []string{"a", "b"}, "", "", "a\nb"},
		{"bottom_non_empty_lines(2)", []string{"a", "b", "", "c", "", ""}, "", "", "b\nc"},
		{"bottom_non_empty_lines(2)", []string{"a", "", "b", "c"}, "", "", "b\nc"},
		{"top_non_empty_lines(2)", []string{"", "a", " ", "b", "c"}, "", "", "a\nb"},
		{"after_last_prompt_marker", codex, "", "", "  2. No\n  Press enter to confirm"},
		{"after_last_prompt_marker", []string{"no marker", "here"}, "", "", "no marker\nhere"},
		{"after_last_prompt_marker", []string{"›", "after"}, "", "", "after"},
		{"after_last_prompt_marker", []string{"›x is not a marker", "after"}, "", "", "›x is not a marker\nafter"},
		{"before_current_prompt_marker", codex, "", "", "› first ask\n• Ran ls"},
		{"whole_recent_without_current_prompt_marker", codex, "", "", "› first ask\n• Ran ls\n  2. No\n  Press enter to confirm"},
		{"current_prompt_block_marker", blocks, "", "", "✓ Tests pass"},
		{"after_current_prompt_block_marker", blocks, "", "", "  ok\n› ask"},
		{"current_prompt_block_marker", []string{"plain"}, "", "", ""},
		{"prompt_box_body", claudeBox, "", "", "❯ fix the tests\n  second line"},
		{"prompt_box_body", []string{"────────────", "only one rule"}, "", "", ""},
		{"above_prompt_box", claudeBox, "", "", "⏺ Done.\n\n✻ Worked for 3s\n"},
		{"last_non_empty_above_prompt_box", claudeBox, "", "", "✻ Worked for 3s"},
		{"after_last_horizontal_rule", claudeBox, "", "", "  ? for shortcuts"},
		{"after_last_horizontal_rule", []string{"a -- b", "── short"}, "", "", ""},
		{"osc_title", []string{"ignored"}, "✳ Claude", "", "✳ Claude"},
		{"osc_progress", []string{"ignored"}, "", "4;0", "4;0"},
	}
	for _, tt := range tests {
		t.Run(tt.region, func(t *testing.T) {
			spec, err := parseRegion(tt.region)
			if err != nil {
				t.Fatal(err)
			}
			s := newScreen(Input{Lines: tt.lines, Title: tt.title, Progress: tt.prog}, true)
			v := s.region(spec, true)
			if v.text != tt.want {
				t.Fatalf("text = %q, want %q", v.text, tt.want)
			}
			if v.lower != strings.ToLower(tt.want) {
				t.Fatalf("lower = %q, want %q", v.lower, strings.ToLower(tt.want))
			}
			var lines []string
			for k := 0; k < v.lineCount(); k++ {
				lines = append(lines, v.lineAt(s, k))
			}
			if got := strings.Join(lines, "\n"); got != tt.want {
				t.Fatalf("lines = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWriteLower(t *testing.T) {
	for _, in := range []string{"ABC déF", "ÀÉÎ Σ", "\xffBAD", "İstanbul", "❯ YES"} {
		var b strings.Builder
		writeLower(&b, in)
		if b.String() != strings.ToLower(in) {
			t.Errorf("writeLower(%q) = %q, want %q", in, b.String(), strings.ToLower(in))
		}
	}
}

func TestWriteLower_Symbols(t *testing.T) {
	in := "── ❯ ⠋ ✻ Ⅻ Ⓐ │ AbC ─\xe2\x94"
	var b strings.Builder
	writeLower(&b, in)
	if b.String() != strings.ToLower(in) {
		t.Errorf("writeLower(%q) = %q, want %q", in, b.String(), strings.ToLower(in))
	}
}
