package tuinav

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// A [theme] changes the colours the client draws its chrome with: true
// colours where the terminal says it shows them (COLORTERM), the nearest
// of the 256-colour palette elsewhere; status_indicators picks the icons.
func TestTUI_ThemeColoursAndDepth(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[theme]\nname = \"dracula\"\n[theme.custom]\nred = \"#ff0000\"\n[ui]\nstatus_indicators = \"symbols\"\n")
	s := h.Start(t, "theme")
	dracula := "38;2;189;147;249" // dracula's accent: the focused pane's frame
	tc := AttachWith(t, h, "theme", "COLORTERM=truecolor")
	WaitFor(t, "the accent in true colour", func() bool { return strings.Contains(tc.Output(), dracula) })

	report := map[string]any{"pane_id": "w1:p1", "source": "theme-test", "agent": "claude", "state": "blocked"}
	if r := s.Call("pane.report_agent", report); r.Error != nil {
		t.Fatal(r.Error)
	}
	tc.WaitScreen(t, "the blocked symbol", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "×") })
	WaitFor(t, "the custom red", func() bool { return strings.Contains(tc.Output(), "38;2;255;0;0") })

	c256 := AttachWith(t, h, "theme") // no COLORTERM
	c256.WaitScreen(t, "the blocked symbol", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "×") })
	c256.Settle(t, 200e6)
	out := c256.Output()
	if strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;") {
		t.Errorf("a 256-colour terminal was sent true colours")
	}
	if !strings.Contains(out, "38;5;196") {
		t.Errorf("the custom red is not palette colour 196 on a 256-colour terminal")
	}
}
