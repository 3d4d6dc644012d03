package tui

import (
	"testing"

	"github.com/herdr-go/herdr/actors/config"
)

// Every built-in theme's text is readable on the background it is drawn on:
// WCAG AA, a contrast ratio of at least 4.5:1, for each style that sets both
// (the tab bar, the selected row, the mode, toast and search marks). The
// terminal theme is left out: its colours are the outer terminal's.
func TestTheme_TextContrastMeetsWCAGAA(t *testing.T) {
	for _, name := range config.ThemeNames {
		if name == "terminal" {
			continue
		}
		cfg := config.Default()
		cfg.Theme.Name = name
		th := newTheme(cfg, true)
		pairs := map[string]cellStyle{
			"tab": th.tab, "active tab": th.tabOn, "tab bar label": th.barLabel,
			"selected row": th.selected, "mode": th.mode, "toast": th.toast,
			"search match": th.match, "selection": th.selection, "diagnostics": th.diag,
		}
		for what, st := range pairs {
			if r := contrastRatio(st.fg, st.bg); r < 4.5 {
				t.Errorf("%s: %s text %06x on %06x has contrast %.2f:1, want at least 4.5:1", name, what, uint32(st.fg&0xffffff), uint32(st.bg&0xffffff), r)
			}
		}
	}
}
