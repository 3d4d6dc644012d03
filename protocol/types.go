package protocol

import "runtime"

// AgentStatus is the rolled-up state of an agent, pane, tab or workspace.
type AgentStatus string

// Agent statuses.
const (
	StatusIdle    AgentStatus = "idle"
	StatusWorking AgentStatus = "working"
	StatusBlocked AgentStatus = "blocked"
	StatusDone    AgentStatus = "done"
	StatusUnknown AgentStatus = "unknown"
)

// WorkspaceInfo describes one workspace.
type WorkspaceInfo struct {
	WorkspaceID string            `json:"workspace_id"`
	Number      int               `json:"number"`
	Label       string            `json:"label"`
	Focused     bool              `json:"focused"`
	PaneCount   int               `json:"pane_count"`
	TabCount    int               `json:"tab_count"`
	ActiveTabID string            `json:"active_tab_id"`
	AgentStatus AgentStatus       `json:"agent_status"`
	Tokens      map[string]string `json:"tokens,omitempty"`
	// Worktree is the workspace's place in a worktree group, if any.
	Worktree *WorkspaceWorktreeInfo `json:"worktree,omitempty"`
}

// TabInfo describes one tab.
type TabInfo struct {
	TabID       string      `json:"tab_id"`
	WorkspaceID string      `json:"workspace_id"`
	Number      int         `json:"number"`
	Label       string      `json:"label"`
	Focused     bool        `json:"focused"`
	PaneCount   int         `json:"pane_count"`
	AgentStatus AgentStatus `json:"agent_status"`
}

// PaneScrollInfo tells where a pane's viewport is within its scrollback.
type PaneScrollInfo struct {
	OffsetFromBottom    uint64 `json:"offset_from_bottom"`
	MaxOffsetFromBottom uint64 `json:"max_offset_from_bottom"`
	ViewportRows        uint64 `json:"viewport_rows"`
}

// PaneInfo describes one pane.
type PaneInfo struct {
	PaneID                string            `json:"pane_id"`
	TerminalID            string            `json:"terminal_id"`
	WorkspaceID           string            `json:"workspace_id"`
	TabID                 string            `json:"tab_id"`
	Focused               bool              `json:"focused"`
	Cwd                   *string           `json:"cwd,omitempty"`
	ForegroundCwd         *string           `json:"foreground_cwd,omitempty"`
	Label                 *string           `json:"label,omitempty"`
	Agent                 *string           `json:"agent,omitempty"`
	Title                 *string           `json:"title,omitempty"`
	TerminalTitle         *string           `json:"terminal_title,omitempty"`
	TerminalTitleStripped *string           `json:"terminal_title_stripped,omitempty"`
	DisplayAgent          *string           `json:"display_agent,omitempty"`
	AgentStatus           AgentStatus       `json:"agent_status"`
	StateLabels           map[string]string `json:"state_labels,omitempty"`
	Tokens                map[string]string `json:"tokens,omitempty"`
	AgentSession          *AgentSessionInfo `json:"agent_session,omitempty"`
	Scroll                *PaneScrollInfo   `json:"scroll,omitempty"`
	Revision              uint64            `json:"revision"`
	// RestoreError says why a pane restored after a restart is not as it
	// was saved (Herdr 0.9.2); omitted when it is.
	RestoreError *string `json:"restore_error,omitempty"`
}

// AgentInfo describes a pane that hosts a recognised agent. CompletionSeq
// counts the agent's finished turns in its pane (Herdr 0.9.2): it goes up
// on each, so a client sees two dones in a row.
type AgentInfo struct {
	TerminalID             string            `json:"terminal_id"`
	Name                   *string           `json:"name,omitempty"`
	Agent                  *string           `json:"agent,omitempty"`
	Title                  *string           `json:"title,omitempty"`
	TerminalTitle          *string           `json:"terminal_title,omitempty"`
	TerminalTitleStripped  *string           `json:"terminal_title_stripped,omitempty"`
	DisplayAgent           *string           `json:"display_agent,omitempty"`
	AgentStatus            AgentStatus       `json:"agent_status"`
	ScreenDetectionSkipped bool              `json:"screen_detection_skipped,omitempty"`
	StateLabels            map[string]string `json:"state_labels,omitempty"`
	Tokens                 map[string]string `json:"tokens,omitempty"`
	AgentSession           *AgentSessionInfo `json:"agent_session,omitempty"`
	WorkspaceID            string            `json:"workspace_id"`
	TabID                  string            `json:"tab_id"`
	PaneID                 string            `json:"pane_id"`
	Focused                bool              `json:"focused"`
	LaunchPending          bool              `json:"launch_pending,omitempty"`
	InteractiveReady       bool              `json:"interactive_ready"`
	StateChangeSeq         uint64            `json:"state_change_seq"`
	CompletionSeq          uint64            `json:"completion_seq"`
	// QueueLength counts the agent's queued prompts (agent.queue.*).
	QueueLength   int     `json:"queue_length"`
	Cwd           *string `json:"cwd,omitempty"`
	ForegroundCwd *string `json:"foreground_cwd,omitempty"`
	Revision      uint64  `json:"revision"`
}

// Rect is a cell rectangle of the tab area.
type Rect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// PaneLayoutPane is one pane's rectangle in a layout snapshot.
type PaneLayoutPane struct {
	PaneID  string `json:"pane_id"`
	Focused bool   `json:"focused"`
	Rect    Rect   `json:"rect"`
}

// PaneLayoutSplit is one split's rectangle and ratio in a layout snapshot.
type PaneLayoutSplit struct {
	ID        string  `json:"id"`
	Direction string  `json:"direction"`
	Ratio     float64 `json:"ratio"`
	Rect      Rect    `json:"rect"`
}

// PaneLayoutSnapshot is a tab's computed layout.
type PaneLayoutSnapshot struct {
	WorkspaceID   string            `json:"workspace_id"`
	TabID         string            `json:"tab_id"`
	Zoomed        bool              `json:"zoomed"`
	Area          Rect              `json:"area"`
	FocusedPaneID string            `json:"focused_pane_id"`
	Panes         []PaneLayoutPane  `json:"panes"`
	Splits        []PaneLayoutSplit `json:"splits"`
}

// SessionSnapshot is one consistent view of the whole session.
type SessionSnapshot struct {
	Version            string               `json:"version"`
	Protocol           int                  `json:"protocol"`
	FocusedWorkspaceID *string              `json:"focused_workspace_id,omitempty"`
	FocusedTabID       *string              `json:"focused_tab_id,omitempty"`
	FocusedPaneID      *string              `json:"focused_pane_id,omitempty"`
	Workspaces         []WorkspaceInfo      `json:"workspaces"`
	Tabs               []TabInfo            `json:"tabs"`
	Panes              []PaneInfo           `json:"panes"`
	Layouts            []PaneLayoutSnapshot `json:"layouts"`
	Agents             []AgentInfo          `json:"agents"`
}

// PaneReadResult is the text of a pane read.
type PaneReadResult struct {
	PaneID      string `json:"pane_id"`
	WorkspaceID string `json:"workspace_id"`
	TabID       string `json:"tab_id"`
	Source      string `json:"source"`
	Format      string `json:"format"`
	Text        string `json:"text"`
	Revision    uint64 `json:"revision"`
	Truncated   bool   `json:"truncated"`
}

// PaneProcessInfoProcess is one process in a pane's foreground group.
type PaneProcessInfoProcess struct {
	PID     uint32   `json:"pid"`
	Name    string   `json:"name"`
	Argv0   *string  `json:"argv0,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Cmdline *string  `json:"cmdline,omitempty"`
	Cwd     *string  `json:"cwd,omitempty"`
}

// PaneProcessInfo describes the processes of a pane.
type PaneProcessInfo struct {
	PaneID                   string                   `json:"pane_id"`
	ShellPID                 *uint32                  `json:"shell_pid,omitempty"`
	ForegroundProcessGroupID *uint32                  `json:"foreground_process_group_id,omitempty"`
	TTY                      *string                  `json:"tty,omitempty"`
	ForegroundProcesses      []PaneProcessInfoProcess `json:"foreground_processes,omitempty"`
}

// ServerCapabilities lists optional server features.
// The last three came with protocol 22: a multi-machine client refuses a
// server without surface_interest and health_check.
type ServerCapabilities struct {
	LiveHandoff          bool `json:"live_handoff"`
	DetachedServerDaemon bool `json:"detached_server_daemon"`
	// EndpointProtocolGeneration is the generation of the endpoint
	// protocol (Herdr 0.9 sends 1); null from a server that predates it.
	EndpointProtocolGeneration *uint32 `json:"endpoint_protocol_generation,omitempty"`
	// SurfaceInterest: the server honours client_shell.surface.set.
	SurfaceInterest bool `json:"surface_interest,omitempty"`
	// HealthCheck: ping is answered at once, whatever else is busy, so a
	// client may poll it to tell a live server from a hung one.
	HealthCheck bool `json:"health_check,omitempty"`
	// SSHAgentRegistration: server.ssh_agent.register is served (Herdr
	// 0.9.2; not on Windows, which has no agent socket to lend). Always
	// written, as Herdr does.
	SSHAgentRegistration bool `json:"ssh_agent_registration"`
}

// EndpointProtocolGeneration is what ping reports in its capabilities.
const EndpointProtocolGeneration = 1

// Capabilities is this server's capabilities, by whether live handoff is
// offered (not on Windows, nor when the server was started without it).
func Capabilities(liveHandoff bool) *ServerCapabilities {
	return &ServerCapabilities{LiveHandoff: liveHandoff, DetachedServerDaemon: true,
		EndpointProtocolGeneration: Ptr(uint32(EndpointProtocolGeneration)), SurfaceInterest: true, HealthCheck: true,
		SSHAgentRegistration: runtime.GOOS != "windows"}
}

// Ptr returns a pointer to v, for optional wire fields.
func Ptr[T any](v T) *T { return &v }
