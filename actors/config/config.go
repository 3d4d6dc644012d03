package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Status says how much of a config file was applied.
type Status string

// The three outcomes of Load and Parse.
const (
	// StatusApplied means the file had no problems (or did not exist).
	StatusApplied Status = "applied"
	// StatusPartial means some keys or sections were invalid and kept their defaults.
	StatusPartial Status = "partial"
	// StatusFailed means the file was unreadable or not valid TOML, so defaults were used.
	StatusFailed Status = "failed"
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

// DefaultScrollbackLimitBytes is the default of advanced.scrollback_limit_bytes.
const DefaultScrollbackLimitBytes = 10_000_000

var (
	shellModes    = []string{ShellModeAuto, ShellModeLogin, ShellModeNonLogin}
	toastDelivery = []string{ToastOff, ToastHerdr, ToastTerminal, ToastSystem}
	knownSections = []string{"onboarding", "theme", "terminal", "session", "update", "keys", "ui", "worktrees", "advanced", "experimental", "remote"}
	terminalKeys  = []string{"default_shell", "shell_mode", "new_cwd"}
	advancedKeys  = []string{scrollbackKey, scrollbackLine, headlessCols, headlessRows}
)

const (
	scrollbackKey  = "scrollback_limit_bytes"
	scrollbackLine = "scrollback_lines" // Alias of scrollbackKey.
	headlessCols   = "headless_cols"
	headlessRows   = "headless_rows"
)

// Config is the typed content of config.toml.
type Config struct {
	Terminal Terminal // [terminal]
	Session  Session  // [session]
	Advanced Advanced // [advanced]
	UI       UI       // [ui]
}

// Session holds the [session] section.
type Session struct {
	// ResumeAgentsOnRestore (resume_agents_on_restore, default true): a
	// restored pane whose agent reported its session resumes that agent.
	ResumeAgentsOnRestore bool
}

// Terminal holds the [terminal] section.
type Terminal struct {
	DefaultShell string // default_shell: shell program for new panes; "" means $SHELL.
	ShellMode    string // shell_mode: "auto" (default), "login" or "non_login".
	NewCwd       string // new_cwd: working directory policy for new panes; default "follow".
}

// Advanced holds the [advanced] section.
type Advanced struct {
	ScrollbackLimitBytes int // scrollback_limit_bytes (alias scrollback_lines): must be > 0.
	// HeadlessCols and HeadlessRows (headless_cols, headless_rows) are the
	// tab area while no client is attached: 200×50 unless set (10–1000).
	HeadlessCols, HeadlessRows int
}

// UI holds the parts of the [ui] section the server models.
type UI struct {
	Toast Toast // [ui.toast]
}

// Toast holds the [ui.toast] section.
type Toast struct {
	Delivery string // delivery: "off" (default), "herdr", "terminal" or "system".
}

// Default returns the configuration used when config.toml is absent or empty.
func Default() Config {
	return Config{
		Terminal: Terminal{DefaultShell: "", ShellMode: ShellModeAuto, NewCwd: "follow"},
		Session:  Session{ResumeAgentsOnRestore: true},
		Advanced: Advanced{ScrollbackLimitBytes: DefaultScrollbackLimitBytes, HeadlessCols: 200, HeadlessRows: 50},
		UI:       UI{Toast: Toast{Delivery: ToastOff}},
	}
}

// Load reads and parses the config file at path; a missing file yields the
// defaults with no diagnostics and StatusApplied.
func Load(path string) (Config, []string, Status) {
	data, err := readConfig(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Default(), nil, StatusApplied
		}
		return Default(), []string{fmt.Sprintf("cannot read config file %s: %v", path, err)}, StatusFailed
	}
	return Parse(data)
}

// Parse decodes config.toml content, returning the config (defaults for
// anything invalid), diagnostics and a Status.
func Parse(data []byte) (Config, []string, Status) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return Default(), []string{syntaxDiagnostic(err)}, StatusFailed
	}
	d := &decoder{cfg: Default()}
	d.walk(raw)
	if len(d.diags) > 0 {
		return d.cfg, d.diags, StatusPartial
	}
	return d.cfg, nil, StatusApplied
}

// syntaxDiagnostic turns a go-toml error into one line, with the position when known.
func syntaxDiagnostic(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if row > 0 {
			return fmt.Sprintf("invalid TOML at line %d, column %d: %s; using defaults", row, col, msg)
		}
		return fmt.Sprintf("invalid TOML: %s; using defaults", msg)
	}
	return fmt.Sprintf("invalid TOML: %v; using defaults", err)
}

// decoder walks the generic TOML map into a Config, collecting diagnostics.
type decoder struct {
	cfg   Config
	diags []string
}

func (d *decoder) addf(format string, args ...any) {
	d.diags = append(d.diags, fmt.Sprintf(format, args...))
}

func (d *decoder) walk(raw map[string]any) {
	for _, name := range sortedKeys(raw) {
		v := raw[name]
		switch name {
		case "terminal":
			if t, ok := d.table(name, v); ok {
				d.terminal(t)
			}
		case "advanced":
			if t, ok := d.table(name, v); ok {
				d.advanced(t)
			}
		case "ui":
			if t, ok := d.table(name, v); ok {
				d.ui(t)
			}
		case "session":
			if t, ok := d.table(name, v); ok {
				d.session(t)
			}
		default:
			if slices.Contains(knownSections, name) {
				continue // Known to Herdr, not modelled yet: accepted as is.
			}
			if _, isTable := v.(map[string]any); isTable {
				d.addf("unknown section [%s]", name)
			} else {
				d.addf("unknown key %s", name)
			}
		}
	}
}

// table checks that v is a TOML table; otherwise it reports key and returns false.
func (d *decoder) table(key string, v any) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		d.addf("%s: expected a table, got %s; using defaults for it", key, typeName(v))
	}
	return t, ok
}

func (d *decoder) terminal(t map[string]any) {
	for _, k := range sortedKeys(t) {
		if !slices.Contains(terminalKeys, k) {
			d.addf("unknown key terminal.%s", k)
		}
	}
	if v, ok := t["default_shell"]; ok {
		if s, ok := d.str("terminal.default_shell", v); ok {
			d.cfg.Terminal.DefaultShell = s
		}
	}
	if v, ok := t["shell_mode"]; ok {
		if s, ok := d.enum("terminal.shell_mode", v, shellModes, d.cfg.Terminal.ShellMode); ok {
			d.cfg.Terminal.ShellMode = s
		}
	}
	if v, ok := t["new_cwd"]; ok {
		if s, ok := d.str("terminal.new_cwd", v); ok {
			if s == "" {
				d.addf("terminal.new_cwd: must not be empty; using default %q", d.cfg.Terminal.NewCwd)
			} else {
				d.cfg.Terminal.NewCwd = s
			}
		}
	}
}

func (d *decoder) session(t map[string]any) {
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "resume_agents_on_restore":
			if b, ok := v.(bool); ok {
				d.cfg.Session.ResumeAgentsOnRestore = b
			} else {
				d.addf("session.%s: expected a boolean, got %s; using default %v", k, typeName(v), d.cfg.Session.ResumeAgentsOnRestore)
			}
		default:
			d.addf("unknown key session.%s", k)
		}
	}
}

func (d *decoder) advanced(t map[string]any) {
	for _, k := range sortedKeys(t) {
		if !slices.Contains(advancedKeys, k) {
			d.addf("unknown key advanced.%s", k)
		}
	}
	key := scrollbackKey
	v, ok := t[scrollbackKey]
	if _, alias := t[scrollbackLine]; alias {
		if ok {
			d.addf("advanced.%s ignored: advanced.%s is also set", scrollbackLine, scrollbackKey)
		} else {
			key, v, ok = scrollbackLine, t[scrollbackLine], true
		}
	}
	if ok {
		d.intKey("advanced."+key, v, 1, math.MaxInt, &d.cfg.Advanced.ScrollbackLimitBytes)
	}
	if v, ok := t[headlessCols]; ok {
		d.intKey("advanced."+headlessCols, v, 10, 1000, &d.cfg.Advanced.HeadlessCols)
	}
	if v, ok := t[headlessRows]; ok {
		d.intKey("advanced."+headlessRows, v, 10, 1000, &d.cfg.Advanced.HeadlessRows)
	}
}

// intKey stores an integer within [lo, hi] in dst, or reports why not and
// keeps dst's default.
func (d *decoder) intKey(full string, v any, lo, hi int64, dst *int) {
	n, isInt := v.(int64)
	switch {
	case !isInt:
		d.addf("%s: expected an integer, got %s; using default %d", full, typeName(v), *dst)
	case n < lo:
		d.addf("%s: must be at least %d, got %d; using default %d", full, lo, n, *dst)
	case n > hi:
		d.addf("%s: %d is too large (at most %d); using default %d", full, n, hi, *dst)
	default:
		*dst = int(n)
	}
}

func (d *decoder) ui(t map[string]any) {
	// Other [ui] keys and [ui.*] subtables belong to features not built yet.
	v, ok := t["toast"]
	if !ok {
		return
	}
	toast, ok := d.table("ui.toast", v)
	if !ok {
		return
	}
	if v, ok := toast["delivery"]; ok {
		if s, ok := d.enum("ui.toast.delivery", v, toastDelivery, d.cfg.UI.Toast.Delivery); ok {
			d.cfg.UI.Toast.Delivery = s
		}
	}
}

// str checks that v is a string; otherwise it reports key and returns false.
func (d *decoder) str(key string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.addf("%s: expected a string, got %s; keeping the default", key, typeName(v))
	}
	return s, ok
}

// enum checks that v is one of the allowed strings; otherwise it reports key and returns false.
func (d *decoder) enum(key string, v any, allowed []string, def string) (string, bool) {
	s, ok := d.str(key, v)
	if !ok {
		return "", false
	}
	if !slices.Contains(allowed, s) {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = fmt.Sprintf("%q", a)
		}
		d.addf("%s: invalid value %q (allowed: %s); using default %q", key, s, strings.Join(quoted, ", "), def)
		return "", false
	}
	return s, true
}

// typeName names the TOML type of a value decoded by go-toml into any.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case map[string]any:
		return "a table"
	case []any:
		return "an array"
	case nil:
		return "nothing"
	default:
		return fmt.Sprintf("a %T", v) // Dates and times.
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// maxConfigBytes bounds config.toml: a real one is a few kilobytes.
const maxConfigBytes = 1 << 20

// readConfig reads the config file, which must be a regular file (a
// symlink to one is fine) of at most maxConfigBytes: a path that names a
// device such as /dev/zero or a FIFO is refused at once, never read or
// waited on.
func readConfig(path string) ([]byte, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", info.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxConfigBytes)
	}
	return data, nil
}
