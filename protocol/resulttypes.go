package protocol

// ResultTypes lists a zero value of every success result a method of the
// table answers with (its entry's Answer, or the list below), so the printed schema (herdr api schema) can describe
// each result's fields. Two are not named by a table entry's Result:
// plugin_pane_opened answers plugin.pane.open, whose entry says "*" (a popup
// placement answers ok instead), and pane_graphics_frame_ack is written on a
// pane.graphics.stream connection after each file frame. Encoded is no
// result of its own (it carries another's encoding).
func ResultTypes() []Result {
	out := resultTypes()
	listed := map[string]bool{}
	for _, r := range out {
		listed[r.ResultType()] = true
	}
	for _, m := range Entries() {
		if m.Answer != nil && !listed[m.Answer.ResultType()] {
			listed[m.Answer.ResultType()] = true
			out = append(out, m.Answer)
		}
	}
	return out
}

// resultTypes are the results listed by hand: those of the entries that
// name their Result by its type string rather than by an Answer.
func resultTypes() []Result {
	return []Result{
		OK{}, Pong{}, ConfigReload{}, SessionSnapshotResult{}, MachineList{},
		// Workspaces, worktrees and tabs.
		WorkspaceCreated{}, WorkspaceList{}, WorkspaceInfoResult{}, WorkspaceGitStatus{},
		WorktreeList{}, WorktreeCreated{}, WorktreeOpened{}, WorktreeRemoved{},
		TabCreated{}, TabList{}, TabInfoResult{},
		// Panes and their layout.
		PaneInfoResult{}, PaneCurrent{}, PaneList{}, PaneRead{}, OutputMatched{}, PaneProcessInfoResult{},
		PaneSwap{}, PaneMove{}, PaneZoom{}, PaneLayout{}, PaneNeighbor{}, PaneEdges{}, PaneFocusDirection{},
		PaneResize{}, LayoutExport{}, LayoutApply{}, LayoutSplitRatioSet{},
		PaneGraphicsInfo{}, PaneGraphicsFrameAck{},
		PaneRecordStarted{}, PaneRecordStopped{}, PaneHistory{},
		// Copy mode and links (protocol 22).
		PaneSelection{}, PaneCopyMotion{}, PaneCopySearch{}, PaneLinkResolved{}, PaneLinkActivated{},
		// Agents.
		AgentList{}, AgentInfoResult{}, AgentStarted{}, AgentPrompted{}, AgentExplainResult{},
		AgentViewResult{}, AgentViewList{}, AgentManifestStatus{}, AgentManifestReload{},
		// Events.
		SubscriptionStarted{}, WaitMatched{},
		// Plugins and integrations.
		PluginLinked{}, PluginEnabled{}, PluginDisabled{}, PluginList{}, PluginActionList{}, PluginLogList{},
		PluginUnlinked{}, PluginActionInvoked{}, PluginPaneOpened{}, PluginPaneFocused{}, PluginPaneClosed{},
		IntegrationList{}, IntegrationInstalled{}, IntegrationUninstalled{},
		// Clients and their screens.
		NotificationShown{}, ClientWindowTitle{}, ClientUIState{}, ClientShellSurfaceSet{},
		ScreenScrolled{}, ScreenSubscribed{}, TerminalClaimed{}, WebStarted{},
		// The task board.
		TaskInfoResult{}, TaskList{},
		// Paste buffers.
		BufferList{}, BufferInfoResult{},
	}
}

// unlistedResults are the result types no table entry names, and why.
var unlistedResults = map[string]string{
	"plugin_pane_opened":      `plugin.pane.open's entry says "*": a popup placement answers ok`,
	"pane_graphics_frame_ack": "written on a pane.graphics.stream connection after each file frame",
}
