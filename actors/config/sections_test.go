package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestDefaultFile_ParsesToDefault: the --default-config text is valid and
// holds exactly the defaults, and documents every key it sets.
func TestDefaultFile_ParsesToDefault(t *testing.T) {
	text := DefaultFile()
	cfg, diags, status := Parse([]byte(text))
	if len(diags) != 0 || status != StatusApplied {
		t.Fatalf("diagnostics %q, status %s", diags, status)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("parsed default file differs from Default():\n%+v\n%+v", cfg, Default())
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "[") {
			continue
		}
		if i == 0 || !strings.HasPrefix(lines[i-1], "#") && !strings.HasPrefix(lines[i-1], "[ui.sound.agents]") && !strings.Contains(lines[i-1], " = ") {
			t.Errorf("line %d %q has no comment above it", i+1, l)
		}
	}
	for _, a := range actions {
		if !strings.Contains(text, "\n"+a.Name+" = ") {
			t.Errorf("default file lacks keys.%s", a.Name)
		}
	}
}

// TestParse_Values: valid values of the newer sections land in their fields.
func TestParse_Values(t *testing.T) {
	cfg, diags, _ := Parse([]byte(`
onboarding = false
[theme]
name = "Tokyo Night"
light_name = "latte"
[theme.custom]
accent = "rgb(1, 2, 3)"
red = "#f00"
[update]
channel = "preview"
[keys]
prefix = "ctrl+a"
split_vertical = ["prefix+|", "ctrl+alt+v"]
close_pane = "hyper+q"
fullscreen = "prefix+f"
switch_workspace = "prefix+shift+1..9"
navigate_pane_left = "left"
[keys.indexed]
tabs = "ctrl"
[[keys.command]]
key = "prefix+alt+g"
command = "lazygit"
type = "popup"
width = "80%"
height = 30
[ui]
agent_panel_sort = "workspaces"
right_click_passthrough_modifier = "alt+cmd"
[ui.sidebar.agents]
rows = [["state_icon", { token = "agent", fg = "#abc", bold = true }], ["$ticket"]]
[ui.sidebar.agents.rows_by_agent]
claude = [["agent"]]
[ui.toast]
enabled = true
[ui.sound.agents]
claude = "off"
[experimental]
cjk_ime_agents = ["claude"]
cjk_ime_cursor_shape = "bar"
[remote]
manage_ssh_config = false
`))
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %q", diags)
	}
	bold := true
	checks := []struct {
		name      string
		got, want any
	}{
		{"onboarding", *cfg.Onboarding, false},
		{"theme name canonical", cfg.Theme.Name, "tokyo-night"},
		{"light_name alias", cfg.Theme.LightName, "catppuccin-latte"},
		{"custom", cfg.Theme.Custom, map[string]string{"accent": "rgb(1, 2, 3)", "red": "#f00"}},
		{"channel", cfg.Update.Channel, "preview"},
		{"prefix", cfg.Keys.Prefix, "ctrl+a"},
		{"array binding", cfg.Keys.Bindings["split_vertical"], []string{"prefix+|", "ctrl+alt+v"}},
		{"hyper is a modifier", cfg.Keys.Bindings["close_pane"], []string{"hyper+q"}},
		{"fullscreen is zoom", cfg.Keys.Bindings["zoom"], []string{"prefix+f"}},
		{"range", cfg.Keys.Bindings["switch_workspace"], []string{"prefix+shift+1..9"}},
		{"navigate", cfg.Keys.Bindings["navigate_pane_left"], []string{"left"}},
		{"indexed", cfg.Keys.Indexed.Tabs, "ctrl"},
		{"command", cfg.Keys.Commands, []KeyCommand{{ID: "keys.command.0", Key: []string{"prefix+alt+g"}, Command: "lazygit", Type: "popup", Width: "80%", Height: "30"}}},
		{"sort alias", cfg.UI.AgentPanelSort, "spaces"},
		{"passthrough", cfg.UI.RightClickPassthroughModifier, "alt+cmd"},
		{"rows", cfg.UI.Sidebar.Agents.Rows, [][]SidebarToken{{{Token: "state_icon"}, {Token: "agent", FG: "#abc", Bold: &bold}}, {{Token: "$ticket"}}}},
		{"rows_by_agent", cfg.UI.Sidebar.Agents.RowsByAgent, map[string][][]SidebarToken{"claude": {{{Token: "agent"}}}}},
		{"legacy toast enabled", cfg.UI.Toast.Delivery, ToastHerdr},
		{"sound agent", cfg.UI.Sound.Agents["claude"], "off"},
		{"droid sound default", cfg.UI.Sound.Agents["droid"], "off"},
		{"cjk agents", cfg.Experimental.CJKIMEAgents, []string{"claude"}},
		{"cjk shape", cfg.Experimental.CJKIMECursorShape, "bar"},
		{"remote", cfg.Remote.ManageSSHConfig, false},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

// TestParse_Diagnostics: one case per kind of mistake; each names the key,
// and the key keeps its default.
func TestParse_Diagnostics(t *testing.T) {
	def := Default()
	tests := []struct {
		name, input, diag string
		kept              func(c Config) bool
	}{
		{"binding wrong type", "[keys]\nsplit_vertical = 5\n", "keys.split_vertical: expected a key combo",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["split_vertical"], []string{"prefix+v"}) }},
		{"binding unknown modifier", "[keys]\nclose_pane = \"super2+q\"\n", "keys.close_pane:",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["close_pane"], []string{"prefix+x"}) }},
		{"binding unknown key name", "[keys]\nclose_pane = \"prefix+pgup\"\n", "keys.close_pane:",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["close_pane"], []string{"prefix+x"}) }},
		{"array with a non-string", "[keys]\nnew_tab = [\"prefix+c\", 1]\n", "keys.new_tab[1]: expected a string",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["new_tab"], []string{"prefix+c"}) }},
		{"unsafe direct key", "[keys]\nzoom = \"z\"\n", `keys.zoom: "z" would swallow typing`,
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["zoom"], []string{"prefix+z"}) }},
		{"range on a plain action", "[keys]\nnew_tab = \"prefix+1..9\"\n", "keys.new_tab: \"prefix+1..9\": a 1..9 range only fits",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["new_tab"], []string{"prefix+c"}) }},
		{"indexed non-digit", "[keys]\nswitch_tab = \"prefix+a\"\n", "keys.switch_tab: \"prefix+a\": an indexed binding must use",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["switch_tab"], []string{"prefix+1..9"}) }},
		{"navigate with prefix", "[keys]\nnavigate_pane_up = \"prefix+k\"\n", "keys.navigate_pane_up: \"prefix+k\": navigate mode bindings take no prefix",
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["navigate_pane_up"], []string{"k"}) }},
		{"duplicate binding", "[keys]\nnew_tab = \"prefix+t\"\nrename_tab = \"prefix+t\"\n", `keys.rename_tab: "prefix+t" is already bound by keys.new_tab`,
			func(c Config) bool {
				return reflect.DeepEqual(c.Keys.Bindings["rename_tab"], []string{"prefix+shift+t"})
			}},
		{"binding on the prefix key", "[keys]\nnew_tab = \"prefix+ctrl+b\"\n", `keys.new_tab: "prefix+ctrl+b" is reserved`,
			func(c Config) bool { return reflect.DeepEqual(c.Keys.Bindings["new_tab"], []string{"prefix+c"}) }},
		{"bad prefix", "[keys]\nprefix = \"prefix+a\"\n", "keys.prefix:", func(c Config) bool { return c.Keys.Prefix == "ctrl+b" }},
		{"unknown action", "[keys]\nteleport = \"prefix+t\"\n", "unknown key keys.teleport", func(Config) bool { return true }},
		{"bad indexed modifiers", "[keys.indexed]\ntabs = \"ctl\"\n", "keys.indexed.tabs:", func(c Config) bool { return c.Keys.Indexed.Tabs == "" }},
		{"command without command", "[[keys.command]]\nkey = \"prefix+g\"\n", "keys.command[0].command: must not be empty",
			func(c Config) bool { return len(c.Keys.Commands) == 0 }},
		{"command bad type", "[[keys.command]]\nkey = \"prefix+g\"\ncommand = \"x\"\ntype = \"window\"\n", "keys.command[0].type: invalid value",
			func(c Config) bool { return len(c.Keys.Commands) == 0 }},
		{"popup size on shell command", "[[keys.command]]\nkey = \"prefix+g\"\ncommand = \"x\"\nwidth = 20\n", "keys.command[0].width:",
			func(c Config) bool { return len(c.Keys.Commands) == 0 }},
		{"bad popup size", "[[keys.command]]\nkey = \"prefix+g\"\ncommand = \"x\"\ntype = \"popup\"\nheight = \"150%\"\n", "keys.command[0].height:",
			func(c Config) bool { return len(c.Keys.Commands) == 0 }},
		{"unknown theme", "[theme]\nname = \"neon\"\n", `theme.name: unknown theme "neon"`, func(c Config) bool { return c.Theme.Name == "catppuccin" }},
		{"bad colour", "[theme.custom]\nred = \"#12345\"\n", `theme.custom.red: invalid colour "#12345"`, func(c Config) bool { return c.Theme.Custom == nil }},
		{"bad rgb colour", "[ui]\naccent = \"rgb(300,0,0)\"\n", "ui.accent: invalid colour", func(c Config) bool { return c.UI.Accent == "cyan" }},
		{"unknown colour token", "[theme.custom]\nbackground = \"red\"\n", "unknown key theme.custom.background", func(c Config) bool { return c.Theme.Custom == nil }},
		{"bad enum", "[ui]\ntab_bar_position = \"left\"\n", `ui.tab_bar_position: invalid value "left"`, func(c Config) bool { return c.UI.TabBarPosition == "top" }},
		{"wrong type bool", "[ui]\nmouse_capture = \"yes\"\n", "ui.mouse_capture: expected a boolean", func(c Config) bool { return c.UI.MouseCapture }},
		{"int out of range", "[ui.toast]\ndelay_seconds = 4000\n", "ui.toast.delay_seconds: 4000 is too large", func(c Config) bool { return c.UI.Toast.DelaySeconds == 1 }},
		{"zero scroll lines", "[ui]\nmouse_scroll_lines = 0\n", "ui.mouse_scroll_lines: must be at least 1", func(c Config) bool { return c.UI.MouseScrollLines == 3 }},
		{"sidebar bounds crossed", "[ui]\nsidebar_min_width = 40\n", "ui.sidebar_min_width (40) is greater than ui.sidebar_max_width (36)",
			func(c Config) bool { return c.UI.SidebarMinWidth == 18 && c.UI.SidebarMaxWidth == 36 }},
		{"passthrough with shift", "[ui]\nright_click_passthrough_modifier = \"shift\"\n", "ui.right_click_passthrough_modifier:",
			func(c Config) bool { return c.UI.RightClickPassthroughModifier == "" }},
		{"unknown sidebar token", "[ui.sidebar.spaces]\nrows = [[\"agent\"]]\n", "ui.sidebar.spaces.rows: row 1: unknown token \"agent\"",
			func(c Config) bool { return reflect.DeepEqual(c.UI.Sidebar.Spaces, def.UI.Sidebar.Spaces) }},
		{"bad token colour", "[ui.sidebar.agents]\nrows = [[{ token = \"agent\", fg = \"red\" }]]\n", "ui.sidebar.agents.rows: row 1: fg red",
			func(c Config) bool { return reflect.DeepEqual(c.UI.Sidebar.Agents, def.UI.Sidebar.Agents) }},
		{"too many rows", "[ui.sidebar.spaces]\nrows = [" + strings.Repeat("[\"branch\"],", 17) + "]\n", "ui.sidebar.spaces.rows: at most 16 rows",
			func(c Config) bool { return reflect.DeepEqual(c.UI.Sidebar.Spaces, def.UI.Sidebar.Spaces) }},
		{"unknown agent id", "[ui.sidebar.agents.rows_by_agent]\nclaud = [[\"agent\"]]\n", "ui.sidebar.agents.rows_by_agent.claud: unknown agent id",
			func(c Config) bool { return c.UI.Sidebar.Agents.RowsByAgent == nil }},
		{"bad sound setting", "[ui.sound.agents]\nclaude = \"loud\"\n", `ui.sound.agents.claude: invalid value "loud"`,
			func(c Config) bool { return c.UI.Sound.Agents["claude"] == "default" }},
		{"sound not mp3", "[ui.sound]\npath = \"ding.wav\"\n", "ui.sound.path: expected an mp3 file", func(c Config) bool { return c.UI.Sound.Path == "" }},
		{"empty worktree directory", "[worktrees]\ndirectory = \"\"\n", "worktrees.directory: must not be empty",
			func(c Config) bool { return c.Worktrees.Directory == "~/.herdr/worktrees" }},
		{"strings array wrong", "[experimental]\ncjk_ime_agents = \"claude\"\n", "experimental.cjk_ime_agents: expected an array of strings",
			func(c Config) bool { return c.Experimental.CJKIMEAgents == nil }},
		{"onboarding wrong type", "onboarding = \"no\"\n", "onboarding: expected a boolean", func(c Config) bool { return c.Onboarding == nil }},
		{"toast at top level", "[toast]\ndelivery = \"herdr\"\n", "did you mean [ui.toast]", func(c Config) bool { return c.UI.Toast.Delivery == ToastOff }},
		{"update channel", "[update]\nchannel = \"nightly\"\n", `update.channel: invalid value "nightly"`, func(c Config) bool { return c.Update.Channel == def.Update.Channel }},
		{"remote wrong type", "[remote]\nmanage_ssh_config = 1\n", "remote.manage_ssh_config: expected a boolean", func(c Config) bool { return c.Remote.ManageSSHConfig }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags, status := Parse([]byte(tt.input))
			if status != StatusPartial || len(diags) != 1 || !strings.Contains(diags[0], tt.diag) {
				t.Fatalf("status %s, diags %q; want one containing %q", status, diags, tt.diag)
			}
			if !tt.kept(cfg) {
				t.Errorf("the key did not keep its default")
			}
		})
	}
}

// TestLoad_MissingSoundFile: a sound path is resolved from the config
// file's folder and must name a file.
func TestLoad_MissingSoundFile(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/config.toml"
	if err := os.WriteFile(dir+"/done.mp3", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("[ui.sound]\ndone_path = \"done.mp3\"\nrequest_path = \"gone.mp3\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags, status := Load(path)
	if status != StatusPartial || len(diags) != 1 || !strings.Contains(diags[0], "ui.sound.request_path") {
		t.Fatalf("status %s diags %q", status, diags)
	}
	if cfg.UI.Sound.DonePath != "done.mp3" || cfg.UI.Sound.RequestPath != "" {
		t.Errorf("done %q request %q", cfg.UI.Sound.DonePath, cfg.UI.Sound.RequestPath)
	}
}

func TestWeb_Keys(t *testing.T) {
	cfg, diags, _ := Parse([]byte("[web]\nlisten = \"127.0.0.1:7681\"\nallow_remote = true\n"))
	if len(diags) != 0 || cfg.Web.Listen != "127.0.0.1:7681" || !cfg.Web.AllowRemote {
		t.Fatalf("web = %+v, diags %q", cfg.Web, diags)
	}
	cfg, diags, _ = Parse([]byte("[web]\nlisten = \"7681\"\n"))
	if len(diags) != 1 || !strings.Contains(diags[0], "web.listen") || cfg.Web.Listen != "" {
		t.Fatalf("bad listen: %+v, diags %q", cfg.Web, diags)
	}
	if d := Default().Web; d.Listen != "" || d.AllowRemote {
		t.Fatalf("the dashboard must be off by default: %+v", d)
	}
}
