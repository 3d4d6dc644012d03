package config

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultFile returns a complete config.toml holding the defaults: every
// key, each under a one-line comment. Keys with no default value of their
// own are shown commented out with an example. Parsing it gives Default().
func DefaultFile() string {
	c := Default()
	w := &fileWriter{cfg: &c}
	w.line("# herdr configuration: every setting with its default value.")
	w.line("# Delete what you do not change; `herdr config check` validates this file.")

	w.section("theme", themeFields)
	w.table("theme.custom", "Colour overrides on top of the theme: #rgb, #rrggbb, rgb(r,g,b) or a colour name.")
	for _, t := range ThemeTokens {
		w.line("# " + t + ` = "#cba6f7"`)
	}
	w.section("terminal", terminalFields)
	w.section("session", sessionFields)
	w.section("update", updateFields)
	w.keys()
	w.ui()
	w.section("worktrees", worktreesFields)
	w.section("advanced", advancedFields)
	w.section("experimental", experimentalFields)
	w.section("remote", remoteFields)
	w.section("server", serverFields)
	w.section("web", webFields)
	w.section("mcp", mcpFields)
	w.line("# The tools `herdr mcp` offers (absent: all of them), e.g.")
	w.line(`# allow = ["list_agents", "read_pane", "wait_agent"]`)
	w.section("tasks", tasksFields)
	w.section("notify", notifyFields)
	return w.b.String()
}

// fileWriter renders DefaultFile.
type fileWriter struct {
	b   strings.Builder
	cfg *Config
}

func (w *fileWriter) line(s string) { w.b.WriteString(s + "\n") }
func (w *fileWriter) blank()        { w.b.WriteString("\n") }

// table starts [name] with a comment on what it holds.
func (w *fileWriter) table(name, doc string) {
	w.blank()
	w.line("[" + name + "]")
	if doc != "" {
		w.line("# " + doc)
	}
}

// section writes [name] and its fields.
func (w *fileWriter) section(name string, fields []field) {
	w.table(name, "")
	w.fields(fields)
}

// fields writes each field's comment and its default value.
func (w *fileWriter) fields(fields []field) {
	for _, f := range fields {
		w.keyValue(f.doc, f.key, f.ptr(w.cfg), f.example)
	}
}

// keyValue writes one documented key; an empty value with an example is
// written commented out.
func (w *fileWriter) keyValue(doc, key string, ptr any, example string) {
	w.line("# " + doc)
	if s, ok := ptr.(*string); ok && *s == "" && example != "" {
		w.line("# " + key + " = " + tomlValue(example))
		return
	}
	w.line(key + " = " + tomlValue(ptr))
}

func (w *fileWriter) keys() {
	k := &w.cfg.Keys
	w.table("keys", `Key combos: "prefix+<key>" after the prefix, or a combo with ctrl, alt or cmd pressed directly; "" unbinds, an array binds several.`)
	w.keyValue("The key that starts prefix mode.", "prefix", &k.Prefix, "")
	w.keyValue(`The bindings to start from: "herdr" or "tmux" (tmux's keys: d detach, % and " split, , rename, o and ; panes, s sessions, ] paste).`, "preset", &k.Preset, "")
	for _, a := range actions {
		combos := k.Bindings[a.Name]
		w.line("# " + a.Doc)
		if len(combos) == 1 {
			w.line(a.Name + " = " + tomlValue(combos[0]))
		} else if len(combos) == 0 {
			w.line(a.Name + ` = ""`)
		} else {
			w.line(a.Name + " = " + tomlValue(combos))
		}
	}
	w.keyValue(`Paste an image from the local clipboard in herdr --remote; "" disables it.`, "remote_image_paste", &k.RemoteImagePaste, "")

	w.table("keys.indexed", "Older form of the indexed bindings: modifiers that act on 1..9 directly.")
	w.fields(indexedFields)

	w.blank()
	w.line("# Custom commands, one [[keys.command]] table each (none by default):")
	w.line("# [[keys.command]]")
	w.line("# The key combo (or array of combos) that runs the command.")
	w.line(`# key = "prefix+alt+g"`)
	w.line("# The command line to run.")
	w.line(`# command = "lazygit"`)
	w.line(`# "shell" runs it in the background, "pane" in a temporary zoomed pane, "popup" in a floating`)
	w.line(`# terminal, "plugin_action" invokes a plugin action by id.`)
	w.line(`# type = "popup"`)
	w.line("# The id command.invoke runs it by (default keys.command.<index>, from 0).")
	w.line(`# id = "git-ui"`)
	w.line("# Shown in the key bindings help.")
	w.line(`# description = "git UI"`)
	w.line(`# Popup size in cells or as a percentage of the screen (popups only).`)
	w.line(`# width = "80%"`)
	w.line(`# height = "80%"`)
}

func (w *fileWriter) ui() {
	u := &w.cfg.UI
	w.section("ui", uiFields)

	tokenHelp := func(list string) string {
		return "Each row is an array of tokens (" + strings.Join(sidebarTokens(list), ", ") +
			`, or "$name" for a metadata token); a token may be {token = "...", fg = "#rrggbb", bold = true, dim = true}.`
	}
	w.table("ui.sidebar.agents", "How each agent is drawn in the sidebar's agents list.")
	w.keyValue("Blank lines between agents.", "row_gap", &u.Sidebar.Agents.RowGap, "")
	w.keyValue(tokenHelp("agents"), "rows", &u.Sidebar.Agents.Rows, "")
	w.table("ui.sidebar.agents.rows_by_agent", "Rows for one kind of agent, by agent id (none by default):")
	w.line(`# claude = [["state_icon", "agent"], ["terminal_title_stripped"]]`)
	w.table("ui.sidebar.spaces", "How each workspace is drawn in the sidebar's spaces list.")
	w.keyValue("Blank lines between workspaces.", "row_gap", &u.Sidebar.Spaces.RowGap, "")
	w.keyValue(tokenHelp("spaces"), "rows", &u.Sidebar.Spaces.Rows, "")

	w.section("ui.toast", toastFields)
	w.section("ui.toast.herdr", toastHerdrFields)
	w.section("ui.toast.clipboard", toastClipboardFields)
	w.section("ui.sound", soundFields)
	w.table("ui.sound.agents", `Per agent: "default" follows enabled, "on" or "off" overrides it.`)
	for _, a := range SoundAgents {
		w.line(a + " = " + tomlValue(u.Sound.Agents[a]))
	}
}

// tomlValue renders a default as TOML.
func tomlValue(v any) string {
	switch v := v.(type) {
	case *bool:
		return strconv.FormatBool(*v)
	case *int:
		return strconv.Itoa(*v)
	case *string:
		return tomlValue(*v)
	case string:
		return strconv.Quote(v) // Defaults are plain ASCII, where Go and TOML quoting agree.
	case *[]string:
		return tomlValue(*v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = tomlValue(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *[][]SidebarToken:
		rows := make([]string, len(*v))
		for i, r := range *v {
			toks := make([]string, len(r))
			for j, t := range r {
				toks[j] = t.toml()
			}
			rows[i] = "[" + strings.Join(toks, ", ") + "]"
		}
		return "[" + strings.Join(rows, ", ") + "]"
	}
	panic(fmt.Sprintf("config: no TOML form for %T", v))
}

// toml renders a sidebar token: its name, or an inline table when styled.
func (t SidebarToken) toml() string {
	if t.FG == "" && t.Bold == nil && t.Dim == nil {
		return tomlValue(t.Token)
	}
	parts := []string{"token = " + tomlValue(t.Token)}
	if t.FG != "" {
		parts = append(parts, "fg = "+tomlValue(t.FG))
	}
	if t.Bold != nil {
		parts = append(parts, "bold = "+tomlValue(t.Bold))
	}
	if t.Dim != nil {
		parts = append(parts, "dim = "+tomlValue(t.Dim))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
