package config

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
)

// Allowed values of terminal.shell_mode.
const (
	// ShellModeAuto starts a login shell on macOS and a non-login shell elsewhere.
	ShellModeAuto = "auto"
	// ShellModeLogin always starts a login shell.
	ShellModeLogin = "login"
	// ShellModeNonLogin never starts a login shell.
	ShellModeNonLogin = "non_login"
)

// ThemeNames lists the built-in themes, by canonical name.
var ThemeNames = []string{
	"catppuccin", "catppuccin-latte", "terminal", "tokyo-night", "tokyo-night-day", "dracula", "nord",
	"gruvbox", "gruvbox-light", "one-dark", "one-light", "solarized", "solarized-light", "kanagawa",
	"kanagawa-lotus", "rose-pine", "rose-pine-dawn", "vesper",
}

// ThemeTokens are the colour tokens [theme.custom] may override.
var ThemeTokens = []string{
	"accent", "panel_bg", "sidebar_bg", "surface0", "surface1", "surface_dim", "overlay0", "overlay1",
	"text", "subtext0", "mauve", "green", "yellow", "red", "blue", "teal", "peach",
}

// themeName returns the canonical name of a built-in theme.
func themeName(s string) (string, error) {
	n := strings.NewReplacer(" ", "-", "_", "-").Replace(strings.ToLower(strings.TrimSpace(s)))
	// The other spellings Herdr accepts, built here: a map literal at
	// package level is built at every herdr call's start.
	themeAliases := map[string]string{
		"catppuccin-mocha": "catppuccin", "latte": "catppuccin-latte", "light": "catppuccin-latte",
		"tokyonight": "tokyo-night", "tokyo-day": "tokyo-night-day", "tokyonight-day": "tokyo-night-day",
		"gruvbox-dark": "gruvbox", "onedark": "one-dark", "onelight": "one-light",
		"solarized-dark": "solarized", "lotus": "kanagawa-lotus", "rosepine": "rose-pine",
		"rosepine-dawn": "rose-pine-dawn", "dawn": "rose-pine-dawn",
	}
	if alias, ok := themeAliases[n]; ok {
		return alias, nil
	}
	if slices.Contains(ThemeNames, n) {
		return n, nil
	}
	return "", fmt.Errorf("unknown theme %q (built-in themes: %s)", s, strings.Join(ThemeNames, ", "))
}

// namedColours are the colour names a theme or accent may use.
var namedColours = []string{
	"black", "red", "green", "yellow", "blue", "magenta", "purple", "cyan", "white", "gray", "grey",
	"darkgray", "darkgrey", "lightred", "lightgreen", "lightyellow", "lightblue", "lightmagenta", "lightcyan",
	"reset", "default", "none", "transparent",
}

// colour validates a colour: #rgb, #rrggbb, rgb(r,g,b) with 0–255, or a name.
func colour(s string) (string, error) {
	c := strings.ToLower(strings.TrimSpace(s))
	bad := fmt.Errorf("invalid colour %q (use #rgb, #rrggbb, rgb(r,g,b) or a colour name)", s)
	switch {
	case strings.HasPrefix(c, "#"):
		if !isHex(c[1:]) || (len(c) != 4 && len(c) != 7) {
			return "", bad
		}
	case strings.HasPrefix(c, "rgb(") && strings.HasSuffix(c, ")"):
		parts := strings.Split(c[4:len(c)-1], ",")
		if len(parts) != 3 {
			return "", bad
		}
		for _, p := range parts {
			var n int
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "%d", &n); err != nil || n < 0 || n > 255 ||
				fmt.Sprint(n) != strings.TrimSpace(p) {
				return "", bad
			}
		}
	default:
		if !slices.Contains(namedColours, c) {
			return "", bad
		}
	}
	return s, nil
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return s != ""
}

// nonEmpty refuses an empty (or blank) string.
func nonEmpty(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("must not be empty")
	}
	return s, nil
}

var themeFields = []field{
	{key: "name", doc: "Built-in colour theme.", ptr: func(c *Config) any { return &c.Theme.Name }, check: themeName},
	{key: "auto_switch", doc: "Switch between dark_name and light_name as the host terminal turns dark or light.",
		ptr: func(c *Config) any { return &c.Theme.AutoSwitch }},
	{key: "dark_name", doc: "Theme for a dark host terminal (unset: the dark sibling of name).",
		ptr: func(c *Config) any { return &c.Theme.DarkName }, check: themeName, example: "tokyo-night"},
	{key: "light_name", doc: "Theme for a light host terminal (unset: the light sibling of name).",
		ptr: func(c *Config) any { return &c.Theme.LightName }, check: themeName, example: "tokyo-night-day"},
}

func (d *decoder) theme(t map[string]any) {
	d.fields("theme", t, themeFields, "custom")
	d.subtable("theme", t, "custom", func(custom map[string]any) {
		for _, k := range sortedKeys(custom) {
			full := "theme.custom." + k
			if !slices.Contains(ThemeTokens, k) {
				d.addf("unknown key %s (colour tokens: %s)", full, strings.Join(ThemeTokens, ", "))
				continue
			}
			s, ok := custom[k].(string)
			if !ok {
				d.addf("%s: expected a string, got %s; keeping the theme's colour", full, typeName(custom[k]))
				continue
			}
			if _, err := colour(s); err != nil {
				d.addf("%s: %v; keeping the theme's colour", full, err)
				continue
			}
			if d.cfg.Theme.Custom == nil {
				d.cfg.Theme.Custom = map[string]string{}
			}
			d.cfg.Theme.Custom[k] = s
		}
	})
}

var terminalFields = []field{
	{key: "default_shell", doc: "Shell for new panes; empty uses $SHELL, then /bin/sh (PowerShell on Windows).",
		ptr: func(c *Config) any { return &c.Terminal.DefaultShell }},
	{key: "shell_mode", doc: `"auto" (login shell on macOS only), "login" or "non_login".`,
		ptr: func(c *Config) any { return &c.Terminal.ShellMode }, enum: []string{ShellModeAuto, ShellModeLogin, ShellModeNonLogin}},
	{key: "new_cwd", doc: `Folder of new panes: "follow" the source pane, "home", "current" (the server's) or a path.`,
		ptr: func(c *Config) any { return &c.Terminal.NewCwd }, check: func(s string) (string, error) {
			if strings.TrimSpace(s) == "" {
				return "follow", nil
			}
			return s, nil
		}},
	{key: kittyGraphicsKey, doc: "Let plugins draw images over panes (pane.graphics.*); off, they answer feature_disabled. Takes a server restart.",
		ptr: func(c *Config) any { return &c.Terminal.KittyGraphics }},
}

// kittyGraphicsKey is terminal.kitty_graphics; Herdr's surface once had it
// as experimental.kitty_graphics (default off), still read when the
// terminal key is absent.
const kittyGraphicsKey = "kitty_graphics"

func (d *decoder) terminal(t map[string]any) { d.fields("terminal", t, terminalFields) }

// legacyKittyGraphics applies experimental.kitty_graphics when
// terminal.kitty_graphics is not set, and says it is ignored when both are.
func (d *decoder) legacyKittyGraphics(raw map[string]any) {
	exp, _ := raw["experimental"].(map[string]any)
	v, ok := exp[kittyGraphicsKey]
	if !ok {
		return
	}
	term, _ := raw["terminal"].(map[string]any)
	if _, set := term[kittyGraphicsKey]; set {
		d.addf("experimental.%s ignored: terminal.%s is also set", kittyGraphicsKey, kittyGraphicsKey)
		return
	}
	d.set("experimental."+kittyGraphicsKey, terminalFields[len(terminalFields)-1], v)
}

var sessionFields = []field{
	{key: "resume_agents_on_restore", doc: "After a restart, resume each agent whose session id was reported.",
		ptr: func(c *Config) any { return &c.Session.ResumeAgentsOnRestore }},
}

func (d *decoder) session(t map[string]any) { d.fields("session", t, sessionFields) }

var updateFields = []field{
	{key: "channel", doc: `Release channel: "stable" or "preview".`,
		ptr: func(c *Config) any { return &c.Update.Channel }, enum: []string{"stable", "preview"}},
	{key: "version_check", doc: "Look for new herdr releases.", ptr: func(c *Config) any { return &c.Update.VersionCheck }},
	{key: "manifest_check", doc: "Look for new agent detection manifests.", ptr: func(c *Config) any { return &c.Update.ManifestCheck }},
}

func (d *decoder) update(t map[string]any) { d.fields("update", t, updateFields) }

var worktreesFields = []field{
	{key: "directory", doc: "Where new git worktrees are created (~ is your home folder).",
		ptr: func(c *Config) any { return &c.Worktrees.Directory }, check: nonEmpty},
}

func (d *decoder) worktrees(t map[string]any) { d.fields("worktrees", t, worktreesFields) }

const (
	scrollbackKey   = "scrollback_limit_bytes"
	scrollbackAlias = "scrollback_lines" // Older name of scrollbackKey.
)

var advancedFields = []field{
	{key: scrollbackKey, doc: "Bytes of scrollback each pane keeps (older name: scrollback_lines).",
		ptr: func(c *Config) any { return &c.Advanced.ScrollbackLimitBytes }, lo: 1, hi: 1<<53 - 1},
	{key: "persist_scrollback_lines", doc: "Lines of each pane's scrollback kept on disk, shown above the new shell after a restart or a crash (0: none).",
		ptr: func(c *Config) any { return &c.Advanced.PersistScrollbackLines }, lo: 0, hi: 10_000_000},
	{key: "persist_scrollback_disk_mb", doc: "Megabytes of disk the kept scrollback of all panes may take (each pane its share; about twice this at worst).",
		ptr: func(c *Config) any { return &c.Advanced.PersistScrollbackDiskMB }, lo: 1, hi: 1 << 30},
}

// serverFields are Herdr's [server] keys: the size of the tab area, and so
// of new panes, while no client is attached.
var serverFields = []field{
	{key: "headless_cols", doc: "Columns of the tab area, and of new panes, while no client is attached (10-1000).",
		ptr: func(c *Config) any { return &c.Advanced.HeadlessCols }, lo: 10, hi: 1000},
	{key: "headless_rows", doc: "Rows of the tab area, and of new panes, while no client is attached (10-1000).",
		ptr: func(c *Config) any { return &c.Advanced.HeadlessRows }, lo: 10, hi: 1000},
}

func (d *decoder) server(t map[string]any) { d.fields("server", t, serverFields) }

func (d *decoder) advanced(t map[string]any) {
	// [advanced] headless_cols|rows: this build's older place for [server]'s.
	d.fields("advanced", t, advancedFields, scrollbackAlias, serverFields[0].key, serverFields[1].key)
	for _, f := range serverFields {
		if v, ok := t[f.key]; ok {
			d.set("advanced."+f.key, f, v)
		}
	}
	v, ok := t[scrollbackAlias]
	switch _, canonical := t[scrollbackKey]; {
	case !ok:
	case canonical:
		d.addf("advanced.%s ignored: advanced.%s is also set", scrollbackAlias, scrollbackKey)
	default:
		d.set("advanced."+scrollbackAlias, advancedFields[0], v)
	}
}

var experimentalFields = []field{
	{key: "allow_nested", doc: "Allow running herdr inside a herdr pane.", ptr: func(c *Config) any { return &c.Experimental.AllowNested }},
	{key: "pane_history", doc: "Keep each pane's recent output for pane.history (a pane's lines outlive restarts without it: [advanced] persist_scrollback_lines).", ptr: func(c *Config) any { return &c.Experimental.PaneHistory }},
	{key: "reveal_hidden_cursor_for_cjk_ime", doc: "Show a hidden cursor so a CJK input method can place its window.",
		ptr: func(c *Config) any { return &c.Experimental.RevealHiddenCursorForCJKIME }},
	{key: "cjk_ime_agents", doc: "Agents the CJK input-method cursor rule applies to.",
		ptr: func(c *Config) any { return &c.Experimental.CJKIMEAgents }},
	{key: "cjk_ime_cursor_shape", doc: "Cursor shape shown for the CJK input method.",
		ptr:  func(c *Config) any { return &c.Experimental.CJKIMECursorShape },
		enum: []string{"block", "steady_block", "underline", "steady_underline", "bar", "steady_bar"}},
	{key: "switch_ascii_input_source_in_prefix", doc: "Switch the keyboard to an ASCII input source in prefix mode (macOS).",
		ptr: func(c *Config) any { return &c.Experimental.SwitchASCIIInputSourceInPrefix }},
}

func (d *decoder) experimental(t map[string]any) {
	d.fields("experimental", t, experimentalFields, kittyGraphicsKey) // legacyKittyGraphics
}

var remoteFields = []field{
	{key: "manage_ssh_config", doc: "Let herdr --remote add its entries to ~/.ssh/config.",
		ptr: func(c *Config) any { return &c.Remote.ManageSSHConfig }},
	{key: "ssh_command", doc: `The ssh program and options for --remote, --machine and herdr machine, e.g. "ssh -F /path/to/config" (split into words; no shell, so no ~ or $VARS); "" is ssh from PATH. $HERDR_SSH_COMMAND overrides it.`,
		ptr: func(c *Config) any { return &c.Remote.SSHCommand }},
}

func (d *decoder) remote(t map[string]any) { d.fields("remote", t, remoteFields) }

var webFields = []field{
	{key: "listen", doc: "Serve the web dashboard on this address (host:port); empty serves none.",
		ptr: func(c *Config) any { return &c.Web.Listen }, check: listenAddr, example: "127.0.0.1:7681"},
	{key: "allow_remote", doc: "Allow a listen address other than loopback (anyone who can reach it still needs the token).",
		ptr: func(c *Config) any { return &c.Web.AllowRemote }},
}

func (d *decoder) web(t map[string]any) { d.fields("web", t, webFields) }

// listenAddr checks a host:port; whether the host may be remote is
// decided where the listener starts, with allow_remote.
func listenAddr(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		return "", fmt.Errorf("invalid address %q (use host:port, e.g. 127.0.0.1:7681)", s)
	}
	return s, nil
}
