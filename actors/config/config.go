package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/herdr-go/herdr/protocol"
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

// DefaultScrollbackLimitBytes is the default of advanced.scrollback_limit_bytes.
const DefaultScrollbackLimitBytes = 10_000_000

// DefaultPersistScrollbackLines and DefaultPersistScrollbackDiskMB are the
// defaults of advanced.persist_scrollback_lines and _disk_mb.
const (
	DefaultPersistScrollbackLines  = 10_000
	DefaultPersistScrollbackDiskMB = 512
)

// Config is the typed content of config.toml, one field per section.
type Config struct {
	// Onboarding (top-level onboarding) is nil until the first-run flow has
	// been shown; it then records whether to show it again.
	Onboarding   *bool
	Theme        Theme        // [theme]
	Terminal     Terminal     // [terminal]
	Session      Session      // [session]
	Update       Update       // [update]
	Keys         Keys         // [keys]
	UI           UI           // [ui]
	Worktrees    Worktrees    // [worktrees]
	Advanced     Advanced     // [advanced]
	Experimental Experimental // [experimental]
	Remote       Remote       // [remote]
	Web          Web          // [web]
	MCP          MCP          // [mcp]
	Tasks        Tasks        // [tasks]
	Fleet        Fleet        // [fleet]
	Notify       Notify       // [notify]
	Policies     []Policy     // [[policy]] (policy.go)
}

// Theme holds the [theme] section; names are stored in canonical form.
type Theme struct {
	Name       string // name: built-in theme, default "catppuccin".
	AutoSwitch bool   // auto_switch: follow the host terminal's light or dark appearance.
	DarkName   string // dark_name: theme for a dark host; "" derives it from Name.
	LightName  string // light_name: theme for a light host; "" derives it from Name.
	// Custom ([theme.custom]) maps colour tokens (ThemeTokens) to colours;
	// nil when none is set.
	Custom map[string]string
}

// Terminal holds the [terminal] section.
type Terminal struct {
	DefaultShell string // default_shell: shell program for new panes; "" means $SHELL.
	ShellMode    string // shell_mode: "auto" (default), "login" or "non_login".
	NewCwd       string // new_cwd: "follow" (default), "home", "current" or a path.
	// KittyGraphics (kitty_graphics, default true) enables pane.graphics.*;
	// off, they answer feature_disabled. Read when the server starts.
	// Herdr's older place for it, [experimental] kitty_graphics, is
	// honoured when this key is not set.
	KittyGraphics bool
}

// Session holds the [session] section.
type Session struct {
	// ResumeAgentsOnRestore (resume_agents_on_restore, default true): a
	// restored pane whose agent reported its session resumes that agent.
	ResumeAgentsOnRestore bool
}

// Update holds the [update] section.
type Update struct {
	Channel       string // channel: "stable", or "preview" (the Windows default).
	VersionCheck  bool   // version_check: look for new releases.
	ManifestCheck bool   // manifest_check: look for new agent manifests.
}

// Worktrees holds the [worktrees] section.
type Worktrees struct {
	Directory string // directory: where new git worktrees go; "~" is the home folder.
}

// Advanced holds the [advanced] section.
type Advanced struct {
	ScrollbackLimitBytes int // scrollback_limit_bytes (alias scrollback_lines): must be > 0.
	// PersistScrollbackLines is the lines of each pane's scrollback kept
	// on disk across restarts and crashes (0: none); PersistScrollbackDiskMB
	// bounds the files of all panes together (about twice it at worst).
	PersistScrollbackLines  int // persist_scrollback_lines
	PersistScrollbackDiskMB int // persist_scrollback_disk_mb
	// HeadlessCols and HeadlessRows ([server] headless_cols, headless_rows,
	// as in Herdr; [advanced] before) are the tab area while no client is
	// attached: 120×40 unless set (10–1000), Herdr 0.9's default.
	HeadlessCols, HeadlessRows int
}

// Experimental holds the [experimental] section.
type Experimental struct {
	AllowNested                    bool     // allow_nested: allow herdr inside a herdr pane.
	PaneHistory                    bool     // pane_history
	RevealHiddenCursorForCJKIME    bool     // reveal_hidden_cursor_for_cjk_ime
	CJKIMEAgents                   []string // cjk_ime_agents: agents the CJK IME cursor rule applies to.
	CJKIMECursorShape              string   // cjk_ime_cursor_shape: default "steady_block".
	SwitchASCIIInputSourceInPrefix bool     // switch_ascii_input_source_in_prefix
}

// Remote holds the [remote] section.
type Remote struct {
	ManageSSHConfig bool // manage_ssh_config: default true.
	// SSHCommand (ssh_command) replaces "ssh" for --remote, --machine and
	// `herdr machine`, split into words without a shell; $HERDR_SSH_COMMAND
	// overrides it.
	SSHCommand string
}

// Web holds the [web] section: the built-in dashboard (actors/web).
type Web struct {
	// Listen (listen) is the dashboard's address, e.g. "127.0.0.1:7681";
	// "" (the default) serves none until `herdr web` asks for it.
	Listen string
	// AllowRemote (allow_remote) permits a listen address that is not a
	// loopback one; off, such an address is refused.
	AllowRemote bool
}

// MCP holds the [mcp] section: what `herdr mcp` lets an MCP client do.
type MCP struct {
	// Allow (allow) names the tools offered; nil (the key absent) offers
	// every tool, an empty list none.
	Allow []string
	// AllowStart (allow_start, default true) offers the tools that start agents.
	AllowStart bool
	// AllowClose (allow_close, default true) offers the tools that close
	// panes and workspaces.
	AllowClose bool
	// AllowCloseCaller (allow_close_caller, default false) lets them close
	// the pane `herdr mcp` runs in (its HERDR_PANE_ID) or its workspace.
	AllowCloseCaller bool
}

// UI holds the [ui] section and its subtables.
type UI struct {
	SidebarWidth                  int    // sidebar_width
	SidebarMinWidth               int    // sidebar_min_width (≤ sidebar_max_width)
	SidebarMaxWidth               int    // sidebar_max_width
	SidebarStartCollapsed         bool   // sidebar_start_collapsed
	SidebarCollapsedMode          string // sidebar_collapsed_mode: "compact" or "hidden"
	MobileWidthThreshold          int    // mobile_width_threshold
	MouseCapture                  bool   // mouse_capture
	CopyOnSelect                  bool   // copy_on_select
	HostCursor                    string // host_cursor: "auto", "native" or "drawn"
	RightClickPassthroughModifier string // right_click_passthrough_modifier: "" or a modifier combo
	RedrawOnFocusGained           bool   // redraw_on_focus_gained
	MouseScrollLines              int    // mouse_scroll_lines (≥ 1)
	ConfirmClose                  bool   // confirm_close
	PromptNewTabName              bool   // prompt_new_tab_name
	PromptNewWorkspaceName        bool   // prompt_new_workspace_name
	PaneBorders                   bool   // pane_borders
	PaneScrollbars                bool   // pane_scrollbars
	PaneGaps                      bool   // pane_gaps
	ShowAgentLabelsOnPaneBorders  bool   // show_agent_labels_on_pane_borders
	HideTabBarWhenSingleTab       bool   // hide_tab_bar_when_single_tab
	TabBarPosition                string // tab_bar_position: "top" or "bottom"
	AgentPanelSort                string // agent_panel_sort: "spaces" (alias "workspaces") or "priority"
	StatusIndicators              string // status_indicators: "dots" or "symbols"
	Accent                        string // accent: a colour
	WindowTitle                   string // window_title: a template of WindowTitleFields
	Sidebar                       Sidebar
	Toast                         Toast
	Sound                         Sound
}

// Sidebar holds [ui.sidebar].
type Sidebar struct {
	Agents AgentsSidebar // [ui.sidebar.agents]
	Spaces SpacesSidebar // [ui.sidebar.spaces]
}

// AgentsSidebar holds [ui.sidebar.agents]: the rows drawn for each agent.
type AgentsSidebar struct {
	RowGap int              // row_gap
	Rows   [][]SidebarToken // rows
	// RowsByAgent ([ui.sidebar.agents.rows_by_agent]) overrides Rows per
	// canonical agent id; nil when none is set.
	RowsByAgent map[string][][]SidebarToken
}

// SpacesSidebar holds [ui.sidebar.spaces]: the rows drawn for each workspace.
type SpacesSidebar struct {
	RowGap int              // row_gap
	Rows   [][]SidebarToken // rows
}

// SidebarToken is one token of a sidebar row: a built-in name or "$name",
// with an optional style (written as an inline table).
type SidebarToken struct {
	Token string
	FG    string // fg: "#rgb" or "#rrggbb"; "" when unset.
	Bold  *bool  // bold, when set.
	Dim   *bool  // dim, when set.
}

// Toast holds the [ui.toast] section.
type Toast struct {
	Delivery     string // delivery: "off" (default), "herdr", "terminal" or "system".
	DelaySeconds int    // delay_seconds: 0–3600, default 1.
	// HerdrPosition ([ui.toast.herdr] position) is the corner of in-app toasts.
	HerdrPosition string
	// ClipboardEnabled and ClipboardPosition ([ui.toast.clipboard]) control
	// the "copied" toast.
	ClipboardEnabled  bool
	ClipboardPosition string
}

// Sound holds the [ui.sound] section.
type Sound struct {
	Enabled     bool   // enabled
	Path        string // path: mp3 for every sound; "" for the built-in one.
	DonePath    string // done_path
	RequestPath string // request_path
	// Agents ([ui.sound.agents]) maps every agent of SoundAgents to
	// "default", "on" or "off".
	Agents map[string]string
}

// Keys holds the [keys] section.
type Keys struct {
	Prefix string // prefix: the prefix-mode key, default "ctrl+b".
	// Preset is the set of bindings the table starts from: "herdr" (the
	// default) or "tmux" (TmuxPreset).
	Preset string
	// Bindings maps every action of Actions() to its combos ("prefix+v",
	// "ctrl+h", "prefix+1..9"); nil means unbound.
	Bindings         map[string][]string
	RemoteImagePaste string       // remote_image_paste: "" disables it.
	Indexed          IndexedKeys  // [keys.indexed]
	Commands         []KeyCommand // [[keys.command]]
}

// IndexedKeys holds the legacy [keys.indexed] table: modifier combos that
// make <mods>+1..9 act directly; "" leaves a target unset.
type IndexedKeys struct {
	Tabs, Workspaces, Agents string
}

// KeyCommand is one [[keys.command]] entry.
type KeyCommand struct {
	// ID is what command.invoke names it by: id, else keys.command.<index>
	// (its place in the file's array, counting entries left out).
	ID          string
	Key         []string // key: one or more combos.
	Command     string   // command: what runs.
	Type        string   // type: "shell" (default), "pane", "popup" or "plugin_action".
	Description string   // description
	// Width and Height (popups only) are cells ("80") or a percentage ("80%"); "" when unset.
	Width, Height string
}

// Default returns the configuration used when config.toml is absent or empty.
func Default() Config {
	return Config{
		Theme:    Theme{Name: "catppuccin"},
		Terminal: Terminal{DefaultShell: "", ShellMode: ShellModeAuto, NewCwd: "follow", KittyGraphics: true},
		Session:  Session{ResumeAgentsOnRestore: true},
		Update:   Update{Channel: defaultChannel(runtime.GOOS), VersionCheck: true, ManifestCheck: true},
		Keys: Keys{
			Prefix:           "ctrl+b",
			Preset:           "herdr",
			Bindings:         defaultBindings(),
			RemoteImagePaste: "ctrl+v",
		},
		UI: UI{
			SidebarWidth: 26, SidebarMinWidth: 18, SidebarMaxWidth: 36,
			SidebarCollapsedMode: "compact",
			MobileWidthThreshold: 64,
			MouseCapture:         true, CopyOnSelect: true,
			HostCursor:          "auto",
			RedrawOnFocusGained: true,
			MouseScrollLines:    3,
			ConfirmClose:        true,
			PaneBorders:         true, PaneScrollbars: true, PaneGaps: true,
			TabBarPosition:   "top",
			AgentPanelSort:   "spaces",
			StatusIndicators: "dots",
			Accent:           "cyan",
			WindowTitle:      "herdr · {workspace}",
			Sidebar: Sidebar{
				Agents: AgentsSidebar{Rows: tokenRows([]string{"state_icon", "workspace", "tab"}, []string{"agent", "queue"})},
				Spaces: SpacesSidebar{Rows: tokenRows([]string{"state_icon", "workspace"}, []string{"branch", "git_status"})},
			},
			Toast: Toast{Delivery: ToastOff, DelaySeconds: 1, HerdrPosition: "bottom-right", ClipboardEnabled: true, ClipboardPosition: "bottom-center"},
			Sound: Sound{Enabled: true, Agents: defaultSoundAgents()},
		},
		Worktrees: Worktrees{Directory: "~/.herdr/worktrees"},
		Advanced: Advanced{ScrollbackLimitBytes: DefaultScrollbackLimitBytes, HeadlessCols: 120, HeadlessRows: 40,
			PersistScrollbackLines: DefaultPersistScrollbackLines, PersistScrollbackDiskMB: DefaultPersistScrollbackDiskMB},
		Experimental: Experimental{CJKIMECursorShape: "steady_block"},
		Remote:       Remote{ManageSSHConfig: true},
		MCP:          MCP{AllowStart: true, AllowClose: true},
		Tasks:        defaultTasks(),
		Notify:       defaultNotify(),
	}
}

// defaultChannel is update.channel's default: Windows builds follow preview.
func defaultChannel(goos string) string {
	if goos == "windows" {
		return "preview"
	}
	return "stable"
}

// tokenRows builds sidebar rows of plain tokens.
func tokenRows(rows ...[]string) [][]SidebarToken {
	out := make([][]SidebarToken, len(rows))
	for i, r := range rows {
		for _, t := range r {
			out[i] = append(out[i], SidebarToken{Token: t})
		}
	}
	return out
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
	cfg, diags, status := Parse(data)
	if status == StatusFailed {
		return cfg, diags, status
	}
	if more := append(checkSoundFiles(&cfg, filepath.Dir(path)), checkShell(&cfg)...); len(more) > 0 {
		diags, status = append(diags, more...), StatusPartial
	}
	return cfg, diags, status
}

// checkSoundFiles reports sound paths (relative ones from dir) that name no
// regular file; those keys fall back to the built-in sound.
func checkSoundFiles(cfg *Config, dir string) []string {
	var diags []string
	for _, f := range soundFields {
		p, ok := f.ptr(cfg).(*string)
		if !ok || *p == "" {
			continue
		}
		full := *p
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		}
		if info, err := os.Stat(full); err != nil || !info.Mode().IsRegular() {
			diags = append(diags, fmt.Sprintf("ui.sound.%s: %s is not a readable file; using the built-in sound", f.key, full))
			*p = ""
		}
	}
	return diags
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

// maxConfigBytes bounds config.toml: a real one is a few kilobytes.
const maxConfigBytes = 1 << 20

// readConfig reads the config file through the one bounded read: a path
// that names a device such as /dev/zero or a FIFO is refused at once.
func readConfig(path string) ([]byte, error) {
	return protocol.ReadRegularFile(path, maxConfigBytes)
}
