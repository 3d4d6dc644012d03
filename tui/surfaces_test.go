package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
)

// The surfaces that promise keys and settings promise only what is built:
// help lists G (new worktree), shift+tab and i; the settings screen has no
// "pane gaps" (not drawn by this client); the default config.toml does not
// document onboarding (no first-run guide is built).
func TestSurfaces_PromiseOnlyWhatIsBuilt(t *testing.T) {
	m := panelModel(t, "")
	m.width, m.height = 120, 40
	m.mode = modeHelp
	help := ansi.Strip(render(m))
	for _, want := range []string{"G            new worktree", "shift+tab  previous pane", "i            the pane's id"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	m.mode = modeTerminal
	m.settings.open()
	if s := ansi.Strip(render(m)); strings.Contains(s, "pane gaps") || !strings.Contains(s, "pane scrollbars") {
		t.Errorf("settings screen:\n%s", s)
	}
	if f := config.DefaultFile(); strings.Contains(f, "onboarding") {
		t.Errorf("the default config documents onboarding, which is not built")
	}
}
