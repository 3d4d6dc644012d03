package tui

import (
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// sidebar is the sidebar as a component: the spaces section (workspaces,
// worktree groups, the machines' sections) and the agents section, the
// split between them, the spaces' scroll, the folded groups, and a drag
// of its divider or border. Its rows come from the session host shows
// (view.go: the rows and their drawing; sections.go: the split, the
// scroll and the drags; agents.go, git.go, spaceorder.go, machines.go:
// the rows' tokens and order).
type sidebar struct {
	// collapsed are the folded worktree groups, by repo key
	// (session.json's, uistate.go).
	collapsed map[string]bool
	// split is the session's section split (0: Herdr's default), scroll
	// the first space the list shows, followed the focused space it
	// last scrolled to, drag a drag of the divider or the border.
	split    float64
	scroll   int
	followed string
	drag     *sideDrag
	h        sidebarHost
}

// sidebarHost is what the sidebar needs of the client around it.
type sidebarHost interface {
	snapshot() *protocol.SessionSnapshot
	// agentView is the server's agent view as last asked.
	agentView() *protocol.AgentViewList
	// uiConfig is [ui] as applied (a drag of the border changes its
	// sidebar width).
	uiConfig() *config.UI
	th() *theme
	width() int
	height() int
	// expanded says the sidebar is shown in full (not the rail).
	expanded() bool
	// gitMarks are the workspaces' git facts (git.go).
	gitMarks() map[string]protocol.WorkspaceGitStatus
	fleet() *fleetView
	tabLabel(id string) string
	workspaceLabel(id string) string
	paneInfo(id string) (protocol.PaneInfo, bool)
	claimSize(force bool)
	// send makes a request whose answer only matters when it fails.
	send(method string, params any)
	// keepWidth makes a sidebar width the session's.
	keepWidth(w int)
	// openWorkspaceMenu and openGlobalMenu open the right-click menus of
	// a workspace's row and of a section header.
	openWorkspaceMenu(ev mouseMsg, id string)
	openGlobalMenu(ev mouseMsg)
}
