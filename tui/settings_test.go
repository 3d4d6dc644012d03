package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
)

// TestSettings_ChangeWritesAndApplies: a change is written to the file
// and the client draws with it; sidebar_width stops at its bounds.
func TestSettings_ChangeWritesAndApplies(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.configPath = filepath.Join(t.TempDir(), "herdr", "config.toml") // no file yet
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("s"))
	if m.mode != modeSettings || !strings.Contains(render(m), "status indicators") {
		t.Fatalf("prefix s: mode %v, screen:\n%s", m.mode, render(m))
	}
	m.Update(keyRunes("jjj")) // status indicators
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.ui.StatusIndicators != "symbols" || !strings.Contains(render(m), "‹ symbols ›") {
		t.Errorf("status_indicators = %q after enter", m.ui.StatusIndicators)
	}
	b, err := os.ReadFile(m.configPath)
	if err != nil || string(b) != "[ui]\nstatus_indicators = \"symbols\"\n" {
		t.Errorf("config.toml = %q, %v", b, err)
	}
	waitFor(t, "server.reload_config", func() bool { return len(f.requests("server.reload_config")) == 1 })

	m.Update(keyRunes("k")) // back up to sound, left: off
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if m.notes.host.soundConfig().Enabled {
		t.Errorf("sound still enabled")
	}
	m.settings.sel = len(settings) - 1 // sidebar width
	for range m.cfg.UI.SidebarMaxWidth + 5 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	}
	if m.ui.SidebarWidth != m.cfg.UI.SidebarMaxWidth {
		t.Errorf("sidebar_width = %d, want it stopped at %d", m.ui.SidebarWidth, m.cfg.UI.SidebarMaxWidth)
	}
	m.Update(keyRunes("q"))
	if m.mode != modeTerminal {
		t.Errorf("q left mode %v", m.mode)
	}
}

// TestSettings_WriteFailureChangesNothing: a config.toml that cannot be
// written says why, and neither the file nor the client changes.
func TestSettings_WriteFailureChangesNothing(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	m.configPath = filepath.Join(file, "config.toml") // its folder is a file
	m.settings.open()
	m.settings.sel = 3
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.ui.StatusIndicators != "dots" || !m.settings.failed || !strings.Contains(render(m), "not saved") {
		t.Errorf("status_indicators %q, status %q, screen:\n%s", m.ui.StatusIndicators, m.settings.status, render(m))
	}
	if b, _ := os.ReadFile(file); len(b) != 0 {
		t.Errorf("the file changed: %q", b)
	}
}

// fakeSettingsHost is the client as the settings screen sees it: a
// config and its file, and the saves it was told of.
type fakeSettingsHost struct {
	cfg   config.Config
	path  string
	saved []string
}

func (h *fakeSettingsHost) shownConfig() config.Config { return h.cfg }
func (h *fakeSettingsHost) configFile() string         { return h.path }
func (h *fakeSettingsHost) settingSaved(section, key, value string) {
	h.saved = append(h.saved, section+"."+key+"="+value)
}

// The settings screen on its own: the keys move and cycle a value, which
// is written to the file and reported to the host; a number stops at its
// bound without a write; the screen draws the rows and the outcome.
func TestSettingsScreen_OnItsOwn(t *testing.T) {
	h := &fakeSettingsHost{cfg: config.Default(), path: filepath.Join(t.TempDir(), "config.toml")}
	md := modeTerminal
	s := &settingsScreen{host: h, mode: &md}
	s.open()
	if md != modeSettings {
		t.Fatalf("open: mode %v", md)
	}
	s.key(keyRunes("k")) // wraps to the last row: sidebar width
	h.cfg.UI.SidebarWidth = h.cfg.UI.SidebarMaxWidth
	s.key(tea.KeyPressMsg{Code: tea.KeyRight})
	if len(h.saved) != 0 {
		t.Fatalf("a width at its bound was saved: %v", h.saved)
	}
	s.key(keyRunes("j")) // the first row: theme
	s.key(keyRunes("l"))
	want := "theme.name=" + config.ThemeNames[1]
	if len(h.saved) != 1 || h.saved[0] != want {
		t.Fatalf("saved %v, want %s", h.saved, want)
	}
	if b, err := os.ReadFile(h.path); err != nil || !strings.Contains(string(b), "name = \""+config.ThemeNames[1]+"\"") {
		t.Fatalf("config.toml = %q, %v", b, err)
	}
	c := newCanvas(80, 24)
	s.draw(c, 80, 24, newTheme(h.cfg, true))
	if out := c.String(); !strings.Contains(out, "status indicators") || !strings.Contains(out, "theme.name = "+config.ThemeNames[1]+" saved") {
		t.Fatalf("screen:\n%s", out)
	}
	s.key(keyRunes("q"))
	if md != modeTerminal {
		t.Fatalf("q: mode %v", md)
	}
}
