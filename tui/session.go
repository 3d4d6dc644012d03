package tui

import (
	"slices"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// session is the server's session as this client last saw it (the
// snapshot and the agent view) and the questions the client asks of it:
// what is focused, what a label is, which panes are drawn. The model keeps
// one; the components read it through sessionView (host.go). It only
// reads: a new snapshot replaces it whole (model.applySnapshot).
type session struct {
	snap     protocol.SessionSnapshot
	haveSnap bool
	// view is the server's agent view as last asked (agents.go).
	view protocol.AgentViewList
}

// focusedLayout is the layout of the focused tab.
func (s *session) focusedLayout() (protocol.PaneLayoutSnapshot, bool) {
	if s.snap.FocusedTabID == nil {
		return protocol.PaneLayoutSnapshot{}, false
	}
	for _, l := range s.snap.Layouts {
		if l.TabID == *s.snap.FocusedTabID {
			return l, true
		}
	}
	return protocol.PaneLayoutSnapshot{}, false
}

// visiblePanes are the panes drawn: the focused tab's, or only its focused
// pane when zoomed. Sorted, to compare.
func (s *session) visiblePanes() []string {
	l, ok := s.focusedLayout()
	if !ok {
		return []string{}
	}
	out := []string{}
	for _, p := range l.Panes {
		if !l.Zoomed || p.PaneID == l.FocusedPaneID {
			out = append(out, p.PaneID)
		}
	}
	slices.Sort(out)
	return out
}

func (s *session) focusedPaneID() string {
	if s.snap.FocusedPaneID == nil {
		return ""
	}
	return *s.snap.FocusedPaneID
}

func (s *session) paneInfo(id string) (protocol.PaneInfo, bool) {
	for _, p := range s.snap.Panes {
		if p.PaneID == id {
			return p, true
		}
	}
	return protocol.PaneInfo{}, false
}

func (s *session) workspaceLabel(id string) string {
	for _, w := range s.snap.Workspaces {
		if w.WorkspaceID == id {
			return w.Label
		}
	}
	return id
}

// windowTitle is the outer window's title: one a program set through
// client.window_title.set (custom), else format ([ui] window_title)
// filled in.
func (s *session) windowTitle(custom, format string) string {
	if custom != "" {
		return custom
	}
	if s.snap.FocusedWorkspaceID == nil {
		return "herdr"
	}
	p, _ := s.paneInfo(s.focusedPaneID())
	tab := ""
	if s.snap.FocusedTabID != nil {
		tab = s.tabLabel(*s.snap.FocusedTabID)
	}
	agent, status := "", ""
	if p.Agent != nil {
		agent, status = agentName(p), string(p.AgentStatus)
	}
	pane := p.PaneID
	if p.Label != nil && *p.Label != "" {
		pane = *p.Label
	}
	t := strings.NewReplacer("{workspace}", s.workspaceLabel(*s.snap.FocusedWorkspaceID), "{tab}", tab,
		"{pane}", pane, "{agent}", agent, "{status}", status).Replace(format)
	if t = protocol.Printable(strings.TrimSpace(t)); t == "" {
		return "herdr"
	}
	return t
}

// focusedTabs are the tabs of the focused workspace, in order.
func (s *session) focusedTabs() []protocol.TabInfo {
	var out []protocol.TabInfo
	if s.snap.FocusedWorkspaceID == nil {
		return out
	}
	for _, t := range s.snap.Tabs {
		if t.WorkspaceID == *s.snap.FocusedWorkspaceID {
			out = append(out, t)
		}
	}
	return out
}

func (s *session) tabLabel(id string) string {
	for _, t := range s.snap.Tabs {
		if t.TabID == id {
			return t.Label
		}
	}
	return id
}

// paneInfoText is what prefix i shows of a pane: its id, what a script
// addresses it by, and the folder its program is in.
func (s *session) paneInfoText(id string) string {
	text := "pane " + id
	if p, ok := s.paneInfo(id); ok {
		if cwd := p.ForegroundCwd; cwd != nil && *cwd != "" {
			text += " · " + *cwd
		} else if p.Cwd != nil && *p.Cwd != "" {
			text += " · " + *p.Cwd
		}
	}
	return text
}

// panesOf lists the panes in a tab or workspace.
func (s *session) panesOf(tabID, workspaceID string) []string {
	var out []string
	for _, p := range s.snap.Panes {
		if (tabID != "" && p.TabID == tabID) || (workspaceID != "" && p.WorkspaceID == workspaceID) {
			out = append(out, p.PaneID)
		}
	}
	return out
}

// lastTabOf reports whether tab id is the only tab of its workspace, and
// that workspace's label.
func (s *session) lastTabOf(id string) (label string, last bool) {
	for _, t := range s.snap.Tabs {
		if t.TabID != id {
			continue
		}
		for _, w := range s.snap.Workspaces {
			if w.WorkspaceID == t.WorkspaceID {
				return w.Label, w.TabCount == 1
			}
		}
	}
	return "", false
}

// repoKey is the repository key of workspace id's worktree group, or "".
func (s *session) repoKey(id string) string {
	for _, w := range s.snap.Workspaces {
		if w.WorkspaceID == id && w.Worktree != nil {
			return w.Worktree.RepoKey
		}
	}
	return ""
}

// snapshot and agentView are the session as last seen, for the components
// that walk it.
func (s *session) snapshot() *protocol.SessionSnapshot { return &s.snap }
func (s *session) agentView() *protocol.AgentViewList  { return &s.view }
