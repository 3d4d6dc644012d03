package view

import "github.com/herdr-go/herdr/protocol"

// The context a command or plugin action runs with, from the View, as
// the session made it from its model (actors/session/open.go).

// FillContext completes a plugin context with what the caller left out:
// the workspace (the focused one unless named), its active tab and
// focused pane. A caller that names the pane gets that pane's workspace
// and tab.
func (v *View) FillContext(c *protocol.PluginInvocationContext) error {
	w := -1
	if i, ok := v.WSByID[v.FocusedWS]; ok {
		w = i
	}
	p := -1
	if c.FocusedPaneID != nil {
		if i, err := v.ResolvePane(*c.FocusedPaneID); err == nil {
			p, w = i, v.WSByID[v.Rec(i).Info.WorkspaceID]
		}
	}
	if c.WorkspaceID != nil {
		var err error
		if w, err = v.ResolveWorkspace(*c.WorkspaceID); err != nil {
			return err
		}
	}
	if w < 0 {
		return nil
	}
	s := &v.Spaces[w]
	c.WorkspaceID = protocol.Ptr(s.Info.WorkspaceID)
	fillPtr(&c.WorkspaceLabel, s.Info.Label)
	fillPtr(&c.WorkspaceCwd, s.Cwd)
	if c.Worktree == nil {
		c.Worktree = s.Info.Worktree
	}
	t := -1
	if i, ok := v.TabByID[s.Info.ActiveTabID]; ok {
		t = i
	}
	if p >= 0 && v.Rec(p).Info.WorkspaceID == s.Info.WorkspaceID {
		t = v.TabByID[v.Rec(p).Info.TabID]
	}
	if t >= 0 && c.TabID == nil {
		c.TabID = protocol.Ptr(v.Tabs[t].Info.TabID)
		fillPtr(&c.TabLabel, v.Tabs[t].Info.Label)
	}
	if p < 0 && c.FocusedPaneID == nil && t >= 0 {
		p = v.tabFocused(t)
	}
	if p >= 0 {
		pi := &v.Rec(p).Info
		fillPtr(&c.FocusedPaneID, pi.PaneID)
		if c.FocusedPaneCwd == nil {
			c.FocusedPaneCwd = pi.Cwd
			if pi.ForegroundCwd != nil {
				c.FocusedPaneCwd = pi.ForegroundCwd
			}
		}
		if c.FocusedPaneAgent == nil {
			c.FocusedPaneAgent = pi.Agent
		}
		if c.FocusedPaneStatus == nil {
			st := pi.AgentStatus
			c.FocusedPaneStatus = &st
		}
	}
	return nil
}

// CommandContext resolves the workspace, tab and pane command.invoke
// names, which must agree with each other; what it leaves out is the
// focused one (of the tab or workspace named). A selection's pane must
// exist too; sel is its index (-1 for none).
func (v *View) CommandContext(prm *protocol.CommandInvokeParams) (c protocol.PluginInvocationContext, sel int, err error) {
	p, sel := -1, -1
	if prm.PaneID != nil {
		if p, err = v.ResolvePane(*prm.PaneID); err != nil {
			return c, sel, err
		}
	}
	if prm.TabID != nil {
		t, err := v.ResolveTab(*prm.TabID)
		if err != nil {
			return c, sel, err
		}
		tab := &v.Tabs[t].Info
		if p >= 0 && v.Rec(p).Info.TabID != tab.TabID {
			return c, sel, protocol.ParamError("pane_id", "%s is not in tab %s", v.Rec(p).Info.PaneID, tab.TabID)
		}
		if p < 0 {
			if p = v.tabFocused(t); p < 0 {
				return c, sel, protocol.Errorf(protocol.CodeNoActivePane, "tab %s has no pane", tab.TabID)
			}
		}
	}
	if prm.WorkspaceID != nil {
		w, err := v.ResolveWorkspace(*prm.WorkspaceID)
		if err != nil {
			return c, sel, err
		}
		id := v.Spaces[w].Info.WorkspaceID
		if p >= 0 && v.Rec(p).Info.WorkspaceID != id {
			return c, sel, protocol.ParamError("workspace_id", "%s is not in workspace %s", v.Rec(p).Info.PaneID, id)
		}
		c.WorkspaceID = protocol.Ptr(id)
	}
	if s := prm.Selection; s != nil {
		if sel, err = v.ResolvePane(s.PaneID); err != nil {
			return c, sel, err
		}
	}
	if p >= 0 {
		c.FocusedPaneID = protocol.Ptr(v.Rec(p).Info.PaneID)
	}
	return c, sel, v.FillContext(&c)
}

// tabFocused is the index of the focused pane of Tabs[t], -1 for none.
func (v *View) tabFocused(t int) int {
	if id := v.Tabs[t].Layout.FocusedPaneID; id != "" {
		if i, ok := v.PaneByID[id]; ok {
			return i
		}
	}
	return -1
}

func fillPtr(dst **string, s string) {
	if *dst == nil && s != "" {
		*dst = protocol.Ptr(s)
	}
}
