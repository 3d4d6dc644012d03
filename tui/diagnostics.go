package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/pelletier/go-toml/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Configuration problems are never silent: what config.toml gets wrong,
// and every key it sets that this client does not do, is listed by
// `herdr config check` and shown in the client when it attaches. A key
// written with its default value (as `herdr --default-config` writes every
// key) asks for nothing the absent key would not, and is not listed.

// unsupportedKey is a key of config.toml this client does not act on.
type unsupportedKey struct {
	section string // "" for a top-level key such as onboarding
	key     string
	why     string
	// when says which values ask for what is not built (the others are
	// what this client does anyway); nil means any value.
	when func(v any) bool
}

// unsupportedKeys are the keys of config.toml this client does not act
// on, with why; a file that sets one (to a value when accepts) is told so.
var unsupportedKeys = []unsupportedKey{
	{"", "onboarding", "the first-run guide is not built", isTrue},
	{"ui", "redraw_on_focus_gained", "the client does not track the terminal's focus yet", nil},
	{"ui", "pane_borders", "panes are sized to the inside of their frames by the server", nil},
	{"ui", "pane_gaps", "panes are sized to the inside of their frames by the server", nil},
	{"theme", "auto_switch", "the client does not read the terminal's light or dark appearance yet", nil},
	{"theme", "light_name", "the client does not read the terminal's light or dark appearance yet", nil},
	{"theme", "dark_name", "the client does not read the terminal's light or dark appearance yet", nil},
	{"terminal", "new_cwd", `new panes always start in the source pane's folder ("follow")`, isNot("follow")},
	{"update", "version_check", "this build never looks for new releases", isTrue},
	{"update", "manifest_check", "this build never looks for new agent manifests", isTrue},
	{"keys", "remote_image_paste", "herdr --remote does not paste images from the local clipboard yet", isBound},
	{"keys", "indexed", "[keys.indexed] is not built; bind switch_tab with 1..9", isBound},
	{"experimental", "reveal_hidden_cursor_for_cjk_ime", "the CJK IME cursor rule is not built", isTrue},
	{"experimental", "cjk_ime_agents", "the CJK IME cursor rule is not built", isBound},
	{"experimental", "cjk_ime_cursor_shape", "the CJK IME cursor rule is not built", isNot("steady_block")},
	{"experimental", "switch_ascii_input_source_in_prefix", "the client does not switch the input source", isTrue},
	{"remote", "manage_ssh_config", "herdr --remote runs ssh as ~/.ssh/config has it and never edits that file", isTrue},
}

// isTrue accepts true.
func isTrue(v any) bool { return v == true }

// isNot accepts every value but def.
func isNot(def string) func(any) bool { return func(v any) bool { return v != def } }

// isBound accepts a non-empty string or array, or a table holding one.
func isBound(v any) bool {
	switch v := v.(type) {
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		for _, x := range v {
			if isBound(x) {
				return true
			}
		}
		return false
	}
	return true
}

// ConfigDiagnostics lists every problem of the config file at path: the
// parser's, the key bindings', and keys this client does not support.
func ConfigDiagnostics(path string) []string {
	cfg, diags, _ := config.Load(path)
	// A key the parser already faulted is not faulted twice by the keymap.
	faulted := map[string]bool{}
	for _, d := range diags {
		k, _, _ := strings.Cut(d, ":")
		if u, ok := strings.CutPrefix(d, "unknown key "); ok {
			k, _, _ = strings.Cut(u, " ")
		}
		faulted[k] = true
	}
	km, kd := loadKeymap(path)
	kd = append(kd, km.bindCommands(cfg.Keys.Commands)...)
	for _, d := range append(kd, unsupported(path)...) {
		if k, _, _ := strings.Cut(d, ":"); !faulted[k] && !slices.Contains(diags, d) {
			diags = append(diags, d)
		}
	}
	return diags
}

// unsupported lists the keys of unsupportedKeys the file sets.
func unsupported(path string) []string {
	raw, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	if err != nil {
		return nil
	}
	var doc map[string]any
	if toml.Unmarshal(raw, &doc) != nil {
		return nil
	}
	defaults := defaultDoc()
	var out []string
	for _, u := range unsupportedKeys {
		sec, def, name := doc, defaults, u.key
		if u.section != "" {
			sec, _ = doc[u.section].(map[string]any)
			def, _ = defaults[u.section].(map[string]any)
			name = u.section + "." + u.key
		}
		v, set := sec[u.key]
		if d, documented := def[u.key]; documented && reflect.DeepEqual(v, d) {
			continue // the default the key has when absent: the file asks for nothing more
		}
		if set && (u.when == nil || u.when(v)) {
			out = append(out, fmt.Sprintf("%s: not supported by this client (%s); ignored", name, u.why))
		}
	}
	return out
}

// defaultDoc is `herdr --default-config` as TOML values, the defaults
// every key of it has.
func defaultDoc() map[string]any {
	var doc map[string]any
	if toml.Unmarshal([]byte(config.DefaultFile()), &doc) != nil {
		return nil
	}
	return doc
}

// diagTime is how long the diagnostics stay on screen after attaching.
const diagTime = 12 * time.Second

// maxDiagLines is how many diagnostics the client shows at once.
const maxDiagLines = 6

// diagExpired hides the diagnostics.
type diagExpired struct{}

// diagLines are the config's problems shown after attaching or a reload.
type diagLines []string

// draw shows them at the top right of a window width cells wide.
func (d diagLines) draw(c *canvas, width int, th *theme) {
	if len(d) == 0 {
		return
	}
	lines := []string(d)
	if len(lines) > maxDiagLines {
		lines = append(slices.Clone(lines[:maxDiagLines-1]), fmt.Sprintf("… %d more: run herdr config check", len(d)-maxDiagLines+1))
	}
	for i, l := range append([]string{"config.toml:"}, lines...) {
		text := " " + l + " "
		w := min(textWidth(text), width)
		c.fill(width-w, 1+i, w, 1, " ", th.diag)
		c.text(width-w, 1+i, text, w, th.diag)
	}
}

// reloadConfig reads config.toml again (prefix R): the server applies
// its part (server.reload_config), the client redraws with the rest and
// shows what is wrong with the file.
func (m *model) reloadConfig() tea.Cmd {
	if m.configPath == "" {
		return nil
	}
	m.applyConfigFile()
	m.diags = ConfigDiagnostics(m.configPath)
	if len(m.diags) == 0 {
		return m.toast.show("config reloaded")
	}
	return tea.Tick(diagTime, func(time.Time) tea.Msg { return diagExpired{} })
}

// reloadConfig asks the server to apply its part of config.toml; keys it
// takes only at a restart are said in a toast, as the CLI says them.
func (l *link) reloadConfig() {
	req, notify := l.req, l.send
	go func() {
		var r protocol.ConfigReload
		text := ""
		if err := req.call("server.reload_config", nil, &r); err != nil {
			text = "server.reload_config: " + err.Error()
		} else if len(r.RestartRequired) > 0 {
			text = "restart the server to apply " + strings.Join(r.RestartRequired, ", ") + " (herdr server stop, then herdr)"
		}
		if text != "" && notify != nil {
			notify(toastMsg{text: text})
		}
	}()
}

// applyConfigFile reads config.toml again and applies it: the server its
// part, this client the rest.
func (m *model) applyConfigFile() {
	m.input.flush() // keys typed before the binding reach their pane first
	m.link.reloadConfig()
	cfg, _, status := config.Load(m.configPath)
	if status == config.StatusFailed {
		cfg = config.Default() // Herdr keeps defaults for a file it cannot parse
	}
	km, _ := loadKeymap(m.configPath)
	km.bindCommands(cfg.Keys.Commands)
	m.keys = km
	if cfg.UI.MouseCapture != m.ui.MouseCapture {
		m.toHost = append(m.toHost, m.term.setMouse(cfg.UI.MouseCapture)...)
	}
	m.clientConfig.set(cfg, m.truecolor)
	m.confirmClose, m.copyOnSelect = cfg.UI.ConfirmClose, cfg.UI.CopyOnSelect
	m.sw.prev = nil // every colour may have changed: draw it all
	m.claimSize(false)
}
