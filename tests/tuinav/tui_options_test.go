package tuinav

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// [ui] options of surface.md §4 in the client (issue 17): the tab bar at
// the bottom, mouse capture off, the window title template, agent names
// on borders, prompt_new_tab_name, [[keys.command]], diagnostics shown on
// attach and by `herdr config check`, and prefix R reloading.

func TestTUI_OptionsBarMouseTitleBorders(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, `[ui]
tab_bar_position = "bottom"
mouse_capture = false
window_title = "{workspace} :: {agent}"
show_agent_labels_on_pane_borders = true
`)
	s := h.Start(t, "opts")
	c := Attach(t, h, "opts", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.rename", map[string]any{"workspace_id": "w1", "label": "proj"}), "workspace_info")
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "opts", "agent": "claude", "state": "working"}), "ok")
	screen := c.WaitScreen(t, "the agent on the border", func(s string) bool { return strings.Contains(s, "╭ ● w1:p1 claude") })
	lines := Lines(screen)
	if last := lines[len(lines)-1]; !strings.Contains(last, "1:1") {
		t.Errorf("the tab bar is not the bottom row: %q", last)
	}
	if !strings.Contains(lines[0], "╭") {
		t.Errorf("the panes do not start on the top row: %q", lines[0])
	}
	WaitFor(t, "the window title from the template", func() bool { return strings.Contains(c.Output(), "\x1b]2;proj :: claude\a") })
	// A title a program sets wins; clearing it brings the template back.
	WaitFor(t, "a client in front", func() bool {
		return OK[protocol.ClientWindowTitle](t, s.Call("client.window_title.set", map[string]any{"title": "build"}), "client_window_title").Reason == "set"
	})
	WaitFor(t, "the set title", func() bool { return strings.Contains(c.Output(), "\x1b]2;build\a") })
	before := strings.Count(c.Output(), "\x1b]2;proj :: claude\a")
	OK[protocol.ClientWindowTitle](t, s.Call("client.window_title.clear", nil), "client_window_title")
	WaitFor(t, "the template's title again", func() bool { return strings.Count(c.Output(), "\x1b]2;proj :: claude\a") > before })
	if strings.Contains(c.Output(), "\x1b[?1002h") {
		t.Errorf("mouse_capture = false, yet the client asked for mouse reports")
	}
}

func TestTUI_OptionsHideSingleTabBarAndNameNewTab(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\nhide_tab_bar_when_single_tab = true\nprompt_new_tab_name = true\n")
	s := h.Start(t, "tabs")
	c := Attach(t, h, "tabs", h.Dir)
	screen := c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	if first := Lines(screen)[0]; !strings.Contains(first, "╭") || strings.Contains(first, "1:1") {
		t.Errorf("with one tab the top row should be the pane's frame: %q", first)
	}
	ShellReady(t, c, "ready")
	c.Type(TuiPrefix + "c")
	c.WaitText(t, "rename tab")
	c.Type("logs\r")
	WaitFor(t, "the new tab named", func() bool {
		for _, tb := range SessionSnapshot(t, s).Tabs {
			if tb.Label == "logs" {
				return true
			}
		}
		return false
	})
	c.WaitScreen(t, "the tab bar back with two tabs", func(s string) bool {
		return strings.Contains(Lines(s)[0], "1:1") && strings.Contains(Lines(s)[0], "2:logs")
	})
}

func TestTUI_OptionsKeyCommandDiagnosticsReload(t *testing.T) {
	h := NewHome(t)
	out := filepath.Join(h.Dir, "ran.txt")
	cfg := `[ui]
pane_gaps = false
bogus = 1
[experimental]
switch_ascii_input_source_in_prefix = true
[[keys.command]]
key = "prefix+y"
command = "echo \"$HERDR_ACTIVE_PANE_ID $HERDR_ACTIVE_WORKSPACE_ID\" > ` + out + `"
`
	h.WriteConfig(t, cfg)
	s := h.Start(t, "cmds")
	c := Attach(t, h, "cmds", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.WaitText(t, "config.toml:")
	c.WaitText(t, "unknown key ui.bogus")
	c.WaitText(t, "ui.pane_gaps: not supported by this client")
	c.WaitText(t, "experimental.switch_ascii_input_source_in_prefix: not supported by this client")

	stdout, _, code := s.CLI("config", "check")
	if code != 1 || !strings.Contains(stdout, "ui.pane_gaps: not supported by this client") || !strings.Contains(stdout, "unknown key ui.bogus") ||
		!strings.Contains(stdout, "experimental.switch_ascii_input_source_in_prefix: not supported by this client (the client does not switch") {
		t.Errorf("config check (exit %d):\n%s", code, stdout)
	}

	ShellReady(t, c, "ready")
	c.Type(TuiPrefix + "y")
	WaitFor(t, "the command ran with the active ids", func() bool {
		b, _ := os.ReadFile(out)
		return strings.TrimSpace(string(b)) == "w1:p1 w1"
	})

	// prefix R: the file now asks for symbols; the client redraws with them.
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "opts", "agent": "claude", "state": "blocked"}), "ok")
	c.WaitScreen(t, "the blocked mark", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "!") })
	h.WriteConfig(t, "[ui]\nstatus_indicators = \"symbols\"\n")
	c.Type(TuiPrefix + "R")
	c.WaitScreen(t, "the blocked symbol after reload", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "×") })
	c.WaitText(t, "config reloaded")

	// A key the server reads only at start is not silently ignored: the
	// client says a restart applies it.
	h.WriteConfig(t, "[ui]\nstatus_indicators = \"symbols\"\n[server]\nheadless_cols = 100\n")
	c.Type(TuiPrefix + "R")
	c.WaitText(t, "restart the server to apply server.headless_cols")
}

// TestTUI_SettingsScreen: prefix s lists the settings with their values;
// a change shows at once, is one line of config.toml (a comment and a key
// this build does not know survive), and a client attached afterwards
// draws with it. A change the file cannot take says so and leaves it be.
func TestTUI_SettingsScreen(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "# my note about the ui\n[ui]\nsidebar_width = 28 # wide enough\nmystery_key = 7\n")
	path := filepath.Join(h.ConfigHome, "herdr", "config.toml")
	s := h.Start(t, "settings")
	c := Attach(t, h, "settings", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "opts", "agent": "claude", "state": "blocked"}), "ok")
	c.WaitScreen(t, "the blocked mark", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "!") })

	c.Type(TuiPrefix + "s")
	c.WaitText(t, "SETTINGS")
	c.WaitText(t, "status indicators")
	c.WaitText(t, "‹ dots ›")
	c.Type("j")      // toast delivery
	c.Type("\x1b[C") // right: off → herdr
	c.WaitText(t, "ui.toast.delivery = herdr saved")
	c.Type("jj") // status indicators
	c.Type("\r")
	c.WaitText(t, "ui.status_indicators = symbols saved")
	c.WaitText(t, "‹ symbols ›")
	c.WaitText(t, "‹ herdr ›")
	c.Type("\x1b")
	c.WaitScreen(t, "the settings closed and the blocked symbol", func(s string) bool {
		return !strings.Contains(s, "SETTINGS") && strings.Contains(AgentEntry(s, "claude"), "×")
	})

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{"# my note about the ui\n", "sidebar_width = 28 # wide enough\n", "mystery_key = 7\n",
		"status_indicators = \"symbols\"\n", "[ui.toast]\ndelivery = \"herdr\"\n", "default_shell = \"/bin/sh\"\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("config.toml lacks %q:\n%s", want, text)
		}
	}

	c2 := Attach(t, h, "settings", h.Dir)
	c2.WaitScreen(t, "the second client with symbols", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "×") })

	// An inline table holds the toast keys: SetKey refuses, the file stays.
	inline := "[ui]\ntoast = { delivery = \"off\" }\n"
	h.WriteConfig(t, inline)
	c2.Type(TuiPrefix + "R")
	c2.Type(TuiPrefix + "s")
	c2.WaitText(t, "SETTINGS")
	c2.Type("j\r")
	c2.WaitText(t, "not saved")
	if b, _ := os.ReadFile(path); string(b) != "[terminal]\ndefault_shell = \"/bin/sh\"\n"+inline {
		t.Errorf("a refused change rewrote config.toml:\n%s", b)
	}
	c2.Type("q")
	c2.WaitScreen(t, "settings closed", func(s string) bool { return !strings.Contains(s, "SETTINGS") })
}

// A [[keys.command]] of type "pane" runs its command as written whatever
// the pane's shell: typed POSIX-quoted into fish, a doubled backslash came
// out single and a quote ended early.
func TestTUI_PaneKeyCommandInFish(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("needs fish (.ci/run installs it)")
	}
	h := NewHome(t)
	out := filepath.Join(h.Dir, "ran.txt")
	cfg := `[terminal]
default_shell = "` + fish + `"
[[keys.command]]
key = "prefix+y"
type = "pane"
command = '''printf '%s|%s|%s\n' 'a\\b' "it's" 'end\' > ` + out + `'''
`
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Start(t, "fishcmd")
	c := Attach(t, h, "fishcmd", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.Type("echo ready-(math 6 \\* 7)\r")
	c.WaitText(t, "ready-42")
	c.Type(TuiPrefix + "y")
	WaitFor(t, "the pane command wrote its line", func() bool {
		b, _ := os.ReadFile(out)
		return strings.HasSuffix(string(b), "\n")
	})
	if b, _ := os.ReadFile(out); string(b) != `a\\b|it's|end\`+"\n" {
		t.Fatalf("the command wrote %q, want %q", b, `a\\b|it's|end\`+"\n")
	}
}
