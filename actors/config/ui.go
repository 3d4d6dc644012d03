package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Allowed values of ui.toast.delivery.
const (
	// ToastOff disables toasts.
	ToastOff = "off"
	// ToastHerdr shows toasts inside herdr's own UI.
	ToastHerdr = "herdr"
	// ToastTerminal sends toasts to the host terminal.
	ToastTerminal = "terminal"
	// ToastSystem sends toasts to the system notification service.
	ToastSystem = "system"
)

// MaxToastDelaySeconds bounds ui.toast.delay_seconds.
const MaxToastDelaySeconds = 3600

// AgentIDs are the canonical agent ids ([ui.sidebar.agents.rows_by_agent] keys).
var AgentIDs = []string{
	"pi", "claude", "codex", "gemini", "cursor", "devin", "agy", "cline", "omp", "mastracode", "opencode",
	"copilot", "kimi", "kiro", "droid", "amp", "grok", "hermes", "kilo", "qodercli", "maki", "qwen",
}

// SoundAgents are the keys of [ui.sound.agents].
var SoundAgents = []string{
	"pi", "claude", "codex", "gemini", "cursor", "devin", "agy", "cline", "open_code", "github_copilot",
	"kimi", "kiro", "droid", "amp", "grok", "hermes", "kilo", "qodercli", "maki", "qwen",
}

func defaultSoundAgents() map[string]string {
	m := make(map[string]string, len(SoundAgents))
	for _, a := range SoundAgents {
		m[a] = "default"
	}
	m["droid"] = "off"
	return m
}

// u16 is the range of Herdr's small unsigned settings.
const u16 = 1<<16 - 1

var uiFields = []field{
	{key: "sidebar_width", doc: "Width of the expanded sidebar, in columns.", ptr: func(c *Config) any { return &c.UI.SidebarWidth }, hi: u16},
	{key: "sidebar_min_width", doc: "Narrowest the sidebar can be dragged.", ptr: func(c *Config) any { return &c.UI.SidebarMinWidth }, hi: u16},
	{key: "sidebar_max_width", doc: "Widest the sidebar can be dragged.", ptr: func(c *Config) any { return &c.UI.SidebarMaxWidth }, hi: u16},
	{key: "sidebar_start_collapsed", doc: "Start with the sidebar collapsed.", ptr: func(c *Config) any { return &c.UI.SidebarStartCollapsed }},
	{key: "sidebar_collapsed_mode", doc: `A collapsed sidebar is a "compact" rail or "hidden".`,
		ptr: func(c *Config) any { return &c.UI.SidebarCollapsedMode }, enum: []string{"compact", "hidden"}},
	{key: "mobile_width_threshold", doc: "At this width or less the screen switches to one column.",
		ptr: func(c *Config) any { return &c.UI.MobileWidthThreshold }, hi: u16},
	{key: "mouse_capture", doc: "Handle the mouse in herdr (clicks, drags, wheel).", ptr: func(c *Config) any { return &c.UI.MouseCapture }},
	{key: "copy_on_select", doc: "Copy text as soon as it is selected with the mouse.", ptr: func(c *Config) any { return &c.UI.CopyOnSelect }},
	{key: "host_cursor", doc: `Cursor drawing: "auto", "native" (the host terminal's) or "drawn".`,
		ptr: func(c *Config) any { return &c.UI.HostCursor }, enum: []string{"auto", "native", "drawn"}},
	{key: "right_click_passthrough_modifier", doc: `Modifiers (e.g. "alt") that send a right click to the pane; empty disables.`,
		ptr: func(c *Config) any { return &c.UI.RightClickPassthroughModifier }, check: passthroughModifier},
	{key: "redraw_on_focus_gained", doc: "Redraw everything when the host terminal regains focus.",
		ptr: func(c *Config) any { return &c.UI.RedrawOnFocusGained }},
	{key: "mouse_scroll_lines", doc: "Lines scrolled per wheel step.", ptr: func(c *Config) any { return &c.UI.MouseScrollLines }, lo: 1, hi: u16},
	{key: "confirm_close", doc: "Ask before closing a pane, tab or workspace.", ptr: func(c *Config) any { return &c.UI.ConfirmClose }},
	{key: "prompt_new_tab_name", doc: "Ask for a name when creating a tab with new_tab (new_tab_named always asks).", ptr: func(c *Config) any { return &c.UI.PromptNewTabName }},
	{key: "prompt_new_workspace_name", doc: "Ask for a name when creating a workspace.",
		ptr: func(c *Config) any { return &c.UI.PromptNewWorkspaceName }},
	{key: "pane_borders", doc: "Draw borders around panes.", ptr: func(c *Config) any { return &c.UI.PaneBorders }},
	{key: "pane_scrollbars", doc: "Draw a scrollbar on panes with scrollback.", ptr: func(c *Config) any { return &c.UI.PaneScrollbars }},
	{key: "pane_gaps", doc: "Leave a gap between panes.", ptr: func(c *Config) any { return &c.UI.PaneGaps }},
	{key: "show_agent_labels_on_pane_borders", doc: "Put the agent's name on its pane border when the pane has no label.",
		ptr: func(c *Config) any { return &c.UI.ShowAgentLabelsOnPaneBorders }},
	{key: "hide_tab_bar_when_single_tab", doc: "Hide the tab bar while a workspace has one tab.",
		ptr: func(c *Config) any { return &c.UI.HideTabBarWhenSingleTab }},
	{key: "tab_bar_position", doc: `Tab bar at the "top" or "bottom".`,
		ptr: func(c *Config) any { return &c.UI.TabBarPosition }, enum: []string{"top", "bottom"}},
	{key: "agent_panel_sort", doc: `Order of the agents list: "spaces" (by workspace) or "priority" (blocked first).`,
		ptr: func(c *Config) any { return &c.UI.AgentPanelSort }, enum: []string{"spaces", "priority"},
		check: func(s string) (string, error) {
			if s == "workspaces" {
				return "spaces", nil
			}
			return s, nil
		}},
	{key: "status_indicators", doc: `Agent state icons: "dots" or "symbols".`,
		ptr: func(c *Config) any { return &c.UI.StatusIndicators }, enum: []string{"dots", "symbols"}},
	{key: "accent", doc: "Accent colour of the interface.", ptr: func(c *Config) any { return &c.UI.Accent }, check: colour},
	{key: "window_title", doc: "Title of the terminal window: text with {workspace}, {tab}, {pane}, {agent} and {status}.",
		ptr: func(c *Config) any { return &c.UI.WindowTitle }, check: windowTitle},
}

// WindowTitleFields are the placeholders ui.window_title may use.
var WindowTitleFields = []string{"workspace", "tab", "pane", "agent", "status"}

// windowTitle validates ui.window_title: at most 200 characters, and only
// known placeholders.
func windowTitle(s string) (string, error) {
	if len([]rune(s)) > 200 {
		return "", errors.New("at most 200 characters")
	}
	rest := s
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return s, nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed { in %q", s)
		}
		if name := rest[i+1 : i+j]; !slices.Contains(WindowTitleFields, name) {
			return "", fmt.Errorf("unknown placeholder {%s} (known: {%s})", name, strings.Join(WindowTitleFields, "}, {"))
		}
		rest = rest[i+j+1:]
	}
}

// passthroughModifier validates ui.right_click_passthrough_modifier.
func passthroughModifier(s string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" || t == "off" || t == "none" || t == "disabled" {
		return s, nil
	}
	for _, m := range strings.Split(t, "+") {
		switch strings.TrimSpace(m) {
		case "ctrl", "control", "alt", "option", "cmd", "command", "super", "meta", "hyper":
		default:
			return "", fmt.Errorf("invalid modifier %q in %q (use ctrl, alt, cmd, super, meta or hyper joined by +, without shift)", m, s)
		}
	}
	return s, nil
}

func (d *decoder) ui(t map[string]any) {
	d.fields("ui", t, uiFields, "sidebar", "toast", "sound", "agent_panel_scope")
	if v, ok := t["agent_panel_scope"]; ok { // Replaced by agent_panel_sort; accepted and ignored.
		if s, _ := v.(string); s != "current" && s != "all" {
			d.addf(`ui.agent_panel_scope: expected "current" or "all", got %v; the key is obsolete, use ui.agent_panel_sort`, v)
		}
	}
	if d.cfg.UI.SidebarMinWidth > d.cfg.UI.SidebarMaxWidth {
		def := Default().UI
		d.addf("ui.sidebar_min_width (%d) is greater than ui.sidebar_max_width (%d); using defaults %d and %d",
			d.cfg.UI.SidebarMinWidth, d.cfg.UI.SidebarMaxWidth, def.SidebarMinWidth, def.SidebarMaxWidth)
		d.cfg.UI.SidebarMinWidth, d.cfg.UI.SidebarMaxWidth = def.SidebarMinWidth, def.SidebarMaxWidth
	}
	d.subtable("ui", t, "sidebar", d.sidebar)
	d.subtable("ui", t, "toast", d.toast)
	d.subtable("ui", t, "sound", d.sound)
}

var toastFields = []field{
	{key: "delivery", doc: `Where agent notifications go: "off", "herdr" (in-app), "terminal" or "system".`,
		ptr: func(c *Config) any { return &c.UI.Toast.Delivery }, enum: []string{ToastOff, ToastHerdr, ToastTerminal, ToastSystem}},
	{key: "delay_seconds", doc: "Notify only if the agent's state is unchanged after this many seconds (0-3600).",
		ptr: func(c *Config) any { return &c.UI.Toast.DelaySeconds }, hi: MaxToastDelaySeconds},
}

var toastHerdrFields = []field{
	{key: "position", doc: "Corner of in-app notifications.", ptr: func(c *Config) any { return &c.UI.Toast.HerdrPosition },
		enum: []string{"top-left", "top-right", "bottom-left", "bottom-right"}},
}

var toastClipboardFields = []field{
	{key: "enabled", doc: `Show a short "copied" notice after copying.`, ptr: func(c *Config) any { return &c.UI.Toast.ClipboardEnabled }},
	{key: "position", doc: "Where the copied notice appears.", ptr: func(c *Config) any { return &c.UI.Toast.ClipboardPosition },
		enum: []string{"top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"}},
}

func (d *decoder) toast(t map[string]any) {
	d.fields("ui.toast", t, toastFields, "enabled", "herdr", "clipboard")
	if v, ok := t["enabled"]; ok { // Older switch: true means in-app toasts unless delivery is set.
		b, isBool := v.(bool)
		switch _, set := t["delivery"]; {
		case !isBool:
			d.addf("ui.toast.enabled: expected a boolean, got %s; the key is obsolete, use ui.toast.delivery", typeName(v))
		case !set && b:
			d.cfg.UI.Toast.Delivery = ToastHerdr
		}
	}
	d.subtable("ui.toast", t, "herdr", func(s map[string]any) { d.fields("ui.toast.herdr", s, toastHerdrFields) })
	d.subtable("ui.toast", t, "clipboard", func(s map[string]any) { d.fields("ui.toast.clipboard", s, toastClipboardFields) })
}

// soundFile checks that a sound path names an mp3 file.
func soundFile(s string) (string, error) {
	if s != "" && !strings.EqualFold(filepath.Ext(s), ".mp3") {
		return "", errors.New("expected an mp3 file")
	}
	return s, nil
}

var soundFields = []field{
	{key: "enabled", doc: "Play a sound when an agent finishes or needs you.", ptr: func(c *Config) any { return &c.UI.Sound.Enabled }},
	{key: "path", doc: "An mp3 for every sound (relative to this file's folder); unset uses the built-in one.",
		ptr: func(c *Config) any { return &c.UI.Sound.Path }, check: soundFile, example: "sounds/ping.mp3"},
	{key: "done_path", doc: "An mp3 for finished agents, overriding path.",
		ptr: func(c *Config) any { return &c.UI.Sound.DonePath }, check: soundFile, example: "sounds/done.mp3"},
	{key: "request_path", doc: "An mp3 for agents waiting on you, overriding path.",
		ptr: func(c *Config) any { return &c.UI.Sound.RequestPath }, check: soundFile, example: "sounds/request.mp3"},
}

func (d *decoder) sound(t map[string]any) {
	d.fields("ui.sound", t, soundFields, "agents")
	d.subtable("ui.sound", t, "agents", func(agents map[string]any) {
		for _, k := range sortedKeys(agents) {
			full := "ui.sound.agents." + k
			if !slices.Contains(SoundAgents, k) {
				d.addf("unknown key %s", full)
				continue
			}
			cur := d.cfg.UI.Sound.Agents[k]
			f := field{ptr: func(*Config) any { return &cur }, enum: []string{"default", "on", "off"}}
			d.set(full, f, agents[k])
			d.cfg.UI.Sound.Agents[k] = cur
		}
	})
}

// sidebarTokens are the built-in tokens of the sidebar list name (a
// switch: a map literal is built at every herdr call's start).
func sidebarTokens(name string) []string {
	switch name {
	case "agents":
		return []string{"state_icon", "state_text", "workspace", "tab", "pane", "agent", "terminal_title", "terminal_title_stripped", "queue"}
	case "spaces":
		return []string{"state_icon", "state_text", "workspace", "branch", "git_status"}
	}
	return nil
}

const maxSidebarRows, maxSidebarTokens = 16, 16

func (d *decoder) sidebar(t map[string]any) {
	for _, k := range sortedKeys(t) {
		if k != "agents" && k != "spaces" {
			d.addf("unknown key ui.sidebar.%s", k)
		}
	}
	d.subtable("ui.sidebar", t, "agents", func(s map[string]any) {
		a := &d.cfg.UI.Sidebar.Agents
		d.sidebarList("agents", s, &a.RowGap, &a.Rows, "rows_by_agent")
		d.subtable("ui.sidebar.agents", s, "rows_by_agent", func(by map[string]any) {
			for _, id := range sortedKeys(by) {
				full := "ui.sidebar.agents.rows_by_agent." + id
				if !slices.Contains(AgentIDs, id) {
					d.addf("%s: unknown agent id (known: %s)", full, strings.Join(AgentIDs, ", "))
					continue
				}
				if rows, ok := d.sidebarRows(full, by[id], sidebarTokens("agents")); ok {
					if a.RowsByAgent == nil {
						a.RowsByAgent = map[string][][]SidebarToken{}
					}
					a.RowsByAgent[id] = rows
				}
			}
		})
	})
	d.subtable("ui.sidebar", t, "spaces", func(s map[string]any) {
		sp := &d.cfg.UI.Sidebar.Spaces
		d.sidebarList("spaces", s, &sp.RowGap, &sp.Rows)
	})
}

// sidebarList decodes row_gap and rows of [ui.sidebar.<name>].
func (d *decoder) sidebarList(name string, t map[string]any, gap *int, rows *[][]SidebarToken, special ...string) {
	section := "ui.sidebar." + name
	d.fields(section, t, []field{{key: "row_gap", ptr: func(*Config) any { return gap }, hi: u16}}, append(special, "rows")...)
	if v, ok := t["rows"]; ok {
		if r, ok := d.sidebarRows(section+".rows", v, sidebarTokens(name)); ok {
			*rows = r
		}
	}
}

// sidebarRows decodes an array of rows of tokens; any mistake rejects the whole value.
func (d *decoder) sidebarRows(key string, v any, builtins []string) ([][]SidebarToken, bool) {
	bad := func(format string, args ...any) ([][]SidebarToken, bool) {
		d.addf("%s: %s; using the default", key, fmt.Sprintf(format, args...))
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		return bad("expected an array of rows, got %s", typeName(v))
	}
	if len(arr) > maxSidebarRows {
		return bad("at most %d rows", maxSidebarRows)
	}
	out := make([][]SidebarToken, 0, len(arr))
	for i, r := range arr {
		row, ok := r.([]any)
		if !ok {
			return bad("row %d: expected an array of tokens, got %s", i+1, typeName(r))
		}
		if len(row) > maxSidebarTokens {
			return bad("row %d: at most %d tokens", i+1, maxSidebarTokens)
		}
		var tokens []SidebarToken
		for _, x := range row {
			tok, err := sidebarToken(x, builtins)
			if err != nil {
				return bad("row %d: %v", i+1, err)
			}
			tokens = append(tokens, tok)
		}
		out = append(out, tokens)
	}
	return out, true
}

// sidebarToken decodes a token: a name, or {token, fg, bold, dim}.
func sidebarToken(x any, builtins []string) (SidebarToken, error) {
	var tok SidebarToken
	switch x := x.(type) {
	case string:
		tok.Token = x
	case map[string]any:
		for _, k := range sortedKeys(x) {
			switch v := x[k]; k {
			case "token":
				s, ok := v.(string)
				if !ok {
					return tok, fmt.Errorf("token: expected a string, got %s", typeName(v))
				}
				tok.Token = s
			case "fg":
				s, ok := v.(string)
				if !ok || !strings.HasPrefix(s, "#") || !isHex(s[1:]) || (len(s) != 4 && len(s) != 7) {
					return tok, fmt.Errorf("fg %v: expected #rgb or #rrggbb", v)
				}
				tok.FG = s
			case "bold", "dim":
				b, ok := v.(bool)
				if !ok {
					return tok, fmt.Errorf("%s: expected a boolean, got %s", k, typeName(v))
				}
				if k == "bold" {
					tok.Bold = &b
				} else {
					tok.Dim = &b
				}
			default:
				return tok, fmt.Errorf("unknown key %q in a token table", k)
			}
		}
		if tok.Token == "" {
			return tok, errors.New("a token table needs token")
		}
	default:
		return tok, fmt.Errorf("expected a token name or table, got %s", typeName(x))
	}
	if slices.Contains(builtins, tok.Token) {
		return tok, nil
	}
	name, custom := strings.CutPrefix(tok.Token, "$")
	if !custom {
		return tok, fmt.Errorf("unknown token %q (built-in: %s; custom tokens start with $)", tok.Token, strings.Join(builtins, ", "))
	}
	if name == "" || len(name) > 32 || strings.TrimFunc(name, func(r rune) bool {
		return r == '_' || r == '-' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) != "" {
		return tok, fmt.Errorf("invalid custom token %q (1-32 of A-Z a-z 0-9 _ - after $)", tok.Token)
	}
	return tok, nil
}
