package protocol

// OK is the empty acknowledgement result.
type OK struct{}

// Pong answers ping.
type Pong struct {
	Version      string              `json:"version"`
	Protocol     int                 `json:"protocol"`
	Capabilities *ServerCapabilities `json:"capabilities,omitempty"`
	// PID and StartedAt (RFC 3339) are the server process's, for
	// `herdr status` (an extension over Herdr's pong).
	PID       int    `json:"pid,omitempty"`
	StartedAt string `json:"started_at,omitempty"`
	// Build is the server's own build (protocol.Build), an extension:
	// Version is the Herdr version whose wire it speaks.
	Build string `json:"build,omitempty"`
}

// ConfigReload answers server.reload_config.
type ConfigReload struct {
	Status      string   `json:"status"`
	Diagnostics []string `json:"diagnostics"`
	// RestartRequired (an extension) names the changed keys
	// ("section.key") the server reads only as it starts: they apply at
	// the next start. The rest of the file is applied.
	RestartRequired []string `json:"restart_required,omitempty"`
}

// SessionSnapshotResult answers session.snapshot.
type SessionSnapshotResult struct {
	Snapshot SessionSnapshot `json:"snapshot"`
}

// WorkspaceCreated answers workspace.create.
type WorkspaceCreated struct {
	Workspace WorkspaceInfo `json:"workspace"`
	Tab       TabInfo       `json:"tab"`
	RootPane  PaneInfo      `json:"root_pane"`
}

// WorkspaceList answers workspace.list.
type WorkspaceList struct {
	Workspaces []WorkspaceInfo `json:"workspaces"`
}

// WorkspaceInfoResult answers workspace.get, focus and rename.
type WorkspaceInfoResult struct {
	Workspace WorkspaceInfo `json:"workspace"`
}

// TabCreated answers tab.create.
type TabCreated struct {
	Tab      TabInfo  `json:"tab"`
	RootPane PaneInfo `json:"root_pane"`
}

// TabList answers tab.list.
type TabList struct {
	Tabs []TabInfo `json:"tabs"`
}

// SessionInfo describes one session: its folder, socket and whether a
// server answers there.
type SessionInfo struct {
	Name       string `json:"name"`
	Default    bool   `json:"default"`
	Running    bool   `json:"running"`
	SocketPath string `json:"socket_path"`
	SessionDir string `json:"session_dir"`
}

// TabInfoResult answers tab.get, focus and rename.
type TabInfoResult struct {
	Tab TabInfo `json:"tab"`
}

// PaneInfoResult answers pane.split, get, focus and rename.
type PaneInfoResult struct {
	Pane PaneInfo `json:"pane"`
}

// PaneCurrent answers pane.current.
type PaneCurrent struct {
	Pane PaneInfo `json:"pane"`
}

// PaneList answers pane.list.
type PaneList struct {
	Panes []PaneInfo `json:"panes"`
}

// PaneRead answers pane.read.
type PaneRead struct {
	Read PaneReadResult `json:"read"`
}

// OutputMatched answers pane.wait_for_output.
type OutputMatched struct {
	PaneID      string         `json:"pane_id"`
	Revision    uint64         `json:"revision"`
	MatchedLine *string        `json:"matched_line,omitempty"`
	Read        PaneReadResult `json:"read"`
}

// PaneProcessInfoResult answers pane.process_info.
type PaneProcessInfoResult struct {
	ProcessInfo PaneProcessInfo `json:"process_info"`
}

func (OK) ResultType() string                    { return "ok" }
func (Pong) ResultType() string                  { return "pong" }
func (ConfigReload) ResultType() string          { return "config_reload" }
func (SessionSnapshotResult) ResultType() string { return "session_snapshot" }
func (WorkspaceCreated) ResultType() string      { return "workspace_created" }
func (WorkspaceList) ResultType() string         { return "workspace_list" }
func (WorkspaceInfoResult) ResultType() string   { return "workspace_info" }
func (TabCreated) ResultType() string            { return "tab_created" }
func (TabList) ResultType() string               { return "tab_list" }
func (TabInfoResult) ResultType() string         { return "tab_info" }
func (PaneInfoResult) ResultType() string        { return "pane_info" }
func (PaneCurrent) ResultType() string           { return "pane_current" }
func (PaneList) ResultType() string              { return "pane_list" }
func (PaneRead) ResultType() string              { return "pane_read" }
func (OutputMatched) ResultType() string         { return "output_matched" }
func (PaneProcessInfoResult) ResultType() string { return "pane_process_info" }
