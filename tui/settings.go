package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// The settings screen (prefix s): the settings people change most, each
// with its value. A change is written to config.toml at once, as one line
// of the file (config.SetKey keeps the rest as written), and applied as
// prefix R applies the file; a write that fails leaves the file as it was
// and says why.

// setting is one row of the screen: a key of config.toml and its values.
type setting struct {
	label, section, key string
	// options are the values an enum or bool cycles through; nil for a
	// number, which steps between lo and hi.
	options []string
	lo, hi  func(config.Config) int
	get     func(config.Config) string
	note    string // shown beside the value
}

func boolSetting(label, section, key string, get func(config.Config) bool) setting {
	return setting{label: label, section: section, key: key, options: []string{"true", "false"},
		get: func(c config.Config) string { return strconv.FormatBool(get(c)) }}
}

func enumSetting(label, section, key string, options []string, get func(config.Config) string) setting {
	return setting{label: label, section: section, key: key, options: options, get: get}
}

// settings are the rows, in the order shown.
var settings = []setting{
	enumSetting("theme", "theme", "name", config.ThemeNames, func(c config.Config) string { return c.Theme.Name }),
	enumSetting("toast delivery", "ui.toast", "delivery", []string{config.ToastOff, config.ToastHerdr, config.ToastTerminal, config.ToastSystem},
		func(c config.Config) string { return c.UI.Toast.Delivery }),
	boolSetting("sound", "ui.sound", "enabled", func(c config.Config) bool { return c.UI.Sound.Enabled }),
	enumSetting("status indicators", "ui", "status_indicators", []string{"dots", "symbols"}, func(c config.Config) string { return c.UI.StatusIndicators }),
	enumSetting("agent panel sort", "ui", "agent_panel_sort", []string{"spaces", "priority"}, func(c config.Config) string { return c.UI.AgentPanelSort }),
	enumSetting("tab bar position", "ui", "tab_bar_position", []string{"top", "bottom"}, func(c config.Config) string { return c.UI.TabBarPosition }),
	boolSetting("hide single tab bar", "ui", "hide_tab_bar_when_single_tab", func(c config.Config) bool { return c.UI.HideTabBarWhenSingleTab }),
	boolSetting("pane scrollbars", "ui", "pane_scrollbars", func(c config.Config) bool { return c.UI.PaneScrollbars }),
	boolSetting("mouse capture", "ui", "mouse_capture", func(c config.Config) bool { return c.UI.MouseCapture }),
	boolSetting("confirm close", "ui", "confirm_close", func(c config.Config) bool { return c.UI.ConfirmClose }),
	boolSetting("name new tabs", "ui", "prompt_new_tab_name", func(c config.Config) bool { return c.UI.PromptNewTabName }),
	{label: "sidebar width", section: "ui", key: "sidebar_width",
		lo:  func(c config.Config) int { return c.UI.SidebarMinWidth },
		hi:  func(c config.Config) int { return c.UI.SidebarMaxWidth },
		get: func(c config.Config) string { return strconv.Itoa(c.UI.SidebarWidth) }},
}

// settingsScreen is the settings screen as a component: the selected row,
// the last write's outcome, its keys and its drawing. It reads and applies
// config.toml through host and takes and gives back the keys through mode
// (the client's key mode).
type settingsScreen struct {
	sel    int
	status string
	failed bool
	host   settingsHost
	mode   *mode
}

// settingsHost is what the settings screen needs of the client around it.
type settingsHost interface {
	// shownConfig is config.toml as the client applies it: the sidebar
	// width the session keeps, if any, is the one in use.
	shownConfig() config.Config
	// configFile is config.toml's path ("": none).
	configFile() string
	// settingSaved applies the file after section.key was set to value.
	settingSaved(section, key, value string)
}

// open shows the screen with the file's current values.
func (s *settingsScreen) open() {
	*s.mode = modeSettings
	s.sel, s.status, s.failed = 0, "", false
}

func (s *settingsScreen) key(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc", "q", "ctrl+c":
		*s.mode = modeTerminal
	case "up", "k":
		s.sel = (s.sel + len(settings) - 1) % len(settings)
	case "down", "j":
		s.sel = (s.sel + 1) % len(settings)
	case "right", "l", "enter", "space":
		return s.change(settings[s.sel], 1)
	case "left", "h":
		return s.change(settings[s.sel], -1)
	}
	return nil
}

// change moves a setting one value on (step 1) or back (-1), writes it
// and applies the file.
func (s *settingsScreen) change(st setting, step int) tea.Cmd {
	cfg := s.host.shownConfig()
	cur := st.get(cfg)
	var next, literal string
	if st.options != nil {
		i := max(slices.Index(st.options, cur), 0)
		next = st.options[(i+step+len(st.options))%len(st.options)]
		literal = strconv.Quote(next)
		if next == "true" || next == "false" {
			literal = next
		}
	} else {
		n, _ := strconv.Atoi(cur)
		v := min(max(n+step, st.lo(cfg)), st.hi(cfg))
		if v == n {
			return nil // at its bound
		}
		next = strconv.Itoa(v)
		literal = next
	}
	if err := writeSetting(s.host.configFile(), st.section, st.key, literal); err != nil {
		s.status, s.failed = "not saved: "+err.Error(), true
		return nil
	}
	s.host.settingSaved(st.section, st.key, next)
	s.status, s.failed = st.section+"."+st.key+" = "+next+" saved", false
	return nil
}

// writeSetting sets one key in config.toml at path, creating the file if
// need be; the file is replaced whole (protocol.WriteFileAtomic) or not at
// all.
func writeSetting(path, section, key, literal string) error {
	if path == "" {
		return errors.New("no config.toml path")
	}
	perm := fs.FileMode(0o600)
	data, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	text, err := config.SetKey(string(data), section, key, literal)
	if err != nil {
		return err
	}
	if err := protocol.WriteFileAtomic(path, []byte(text), perm); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// draw draws the screen in the middle of a window w×h.
func (s *settingsScreen) draw(c *canvas, width, height int, th *theme) {
	labelW := 0
	for _, st := range settings {
		labelW = max(labelW, textWidth(st.label))
	}
	cfg := s.host.shownConfig()
	lines := make([]string, len(settings))
	w := 40
	for i, st := range settings {
		v := "‹ " + st.get(cfg) + " ›"
		lines[i] = st.label + strings.Repeat(" ", labelW-textWidth(st.label)+2) + v
		if st.note != "" {
			lines[i] += "  " + st.note
		}
		w = max(w, textWidth(lines[i])+4)
	}
	hint := "changes are saved to config.toml at once"
	w = min(max(w, textWidth(hint)+4, textWidth(s.status)+4), width)
	h := min(len(lines)+4, height)
	x, y := max((width-w)/2, 0), max((height-h)/2, 0)
	th.listBox(c, x, y, w, h, " settings ", lines, s.sel, h-4)
	foot, st := hint, th.dim
	if s.status != "" {
		foot = s.status
		if s.failed {
			st = th.diag
		}
	}
	c.text(x+2, y+h-2, foot, w-4, st)
}
