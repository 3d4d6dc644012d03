package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

var workspaceHandlers = map[string]handler{
	"workspace.create": (*Session).workspaceCreate,
	"workspace.list":   (*Session).workspaceList,
	"workspace.count":  (*Session).workspaceCount,
}

var workspaceRoutes = map[string]workspaceHandler{
	"workspace.get":   (*Session).workspaceGet,
	"workspace.focus": (*Session).workspaceFocus,
	"workspace.close": (*Session).workspaceClose,
}

func (s *Session) workspaceCreate(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.WorkspaceCreateParams)
	fallback := ""
	if prm.SourceWorkspaceID != nil {
		src, err := s.m.ResolveWorkspace(*prm.SourceWorkspaceID)
		if err != nil {
			return kit.Fail(err) // workspace_not_found, before anything is made
		}
		fallback = s.followCwd(src)
	} else if s.m.Focused() != nil {
		fallback = s.m.Focused().Cwd()
	}
	cwd, err := s.spawner.CheckCwd(prm.Cwd, fallback)
	if err != nil {
		return kit.Fail(err)
	}
	label := ""
	if prm.Label != nil {
		label = *prm.Label
	}
	w, err := s.newWorkspace(ctx, label, paneSetup{cwd: cwd, env: prm.Env})
	if err != nil {
		return kit.Fail(err)
	}
	if prm.Focus {
		s.tx.FocusWorkspace(w)
	}
	root := s.terms[w.Active().Focused()]
	s.emitCreated(w, w.Active(), root)
	return kit.Done(protocol.WorkspaceCreated{
		Workspace: s.workspaceInfo(w),
		Tab:       s.tabInfo(w.Active()),
		RootPane:  s.paneInfo(root),
	})
}

// followCwd is the folder a new workspace follows from w (the "follow"
// policy of [terminal] new_cwd): where w's focused pane's foreground
// process is, else where that pane started, else w's own folder.
func (s *Session) followCwd(w *workspace) string {
	if w.Active() != nil {
		if p := s.terms[w.Active().Focused()]; p != nil {
			if p.facts.ForegroundCwd != "" {
				return p.facts.ForegroundCwd
			}
			if p.Cwd() != "" {
				return p.Cwd()
			}
		}
	}
	return w.Cwd()
}

func (s *Session) workspaceList(_ actor.Context, _ *kit.Call) *kit.Reply {
	out := make([]protocol.WorkspaceInfo, 0, len(s.m.Workspaces()))
	for _, w := range s.m.Workspaces() {
		out = append(out, s.workspaceInfo(w))
	}
	return kit.Done(protocol.WorkspaceList{Workspaces: out})
}

func (s *Session) workspaceCount(_ actor.Context, _ *kit.Call) *kit.Reply {
	return kit.Done(protocol.WorkspaceCount{Count: len(s.m.Workspaces())})
}

func (s *Session) workspaceGet(_ actor.Context, call *kit.Call, w *workspace) *kit.Reply {
	return kit.Done(protocol.WorkspaceInfoResult{Workspace: s.workspaceInfo(w)})
}

func (s *Session) workspaceFocus(_ actor.Context, call *kit.Call, w *workspace) *kit.Reply {
	s.tx.FocusWorkspace(w)
	return kit.Done(protocol.WorkspaceInfoResult{Workspace: s.workspaceInfo(w)})
}

// workspaceClose closes a workspace. A main checkout's workspace whose
// worktrees are open closes only with close_group, and then with them;
// close_group on a worktree's workspace closes its whole group the same
// way (the main checkout's workspace and every worktree's), as the
// client's "close group" does. Without it a worktree's workspace closes
// alone. Either way it is one transaction: all of them or none.
func (s *Session) workspaceClose(ctx actor.Context, call *kit.Call, w *workspace) *kit.Reply {
	closeGroup := call.Params.(*protocol.WorkspaceCloseParams).CloseGroup
	var group []*workspace // the other workspaces that close with w
	if wt := w.Worktree(); wt != nil && (closeGroup || !wt.IsLinkedWorktree) {
		for _, x := range s.m.Workspaces() {
			if x != w && x.Worktree() != nil && x.Worktree().RepoKey == wt.RepoKey && (x.Worktree().IsLinkedWorktree || wt.IsLinkedWorktree) {
				group = append(group, x)
			}
		}
	}
	if len(group) > 0 && !closeGroup {
		return kit.Fail(protocol.Errorf(protocol.CodeGroupCloseRequired, "workspace %s has %d worktree workspaces open; close them first or pass close_group", w.ID(), len(group)))
	}
	for _, x := range group {
		s.closeWorkspace(ctx, x)
	}
	s.closeWorkspace(ctx, w)
	return kit.OK()
}

// emitCreated announces a new workspace, tab and/or pane (nil = not new).
func (s *Session) emitCreated(w *workspace, t *tab, p *paneRec) {
	if w != nil {
		s.emit(protocol.WorkspaceEvent{Kind: "workspace_created", Workspace: s.workspaceInfo(w)}, s.workspaceFields(w))
	}
	if t != nil {
		s.emit(protocol.TabCreatedEvent{Tab: s.tabInfo(t)}, s.tabFields(t))
	}
	if p != nil {
		s.emit(protocol.PaneEvent{Kind: "pane_created", Pane: s.paneInfo(p)}, s.paneFields(p))
	}
}

// emitWorkspaceUpdated announces a change of a workspace's record (its tabs).
func (s *Session) emitWorkspaceUpdated(w *workspace) {
	if s.m.Workspace(w.ID()) == w {
		s.emit(protocol.WorkspaceEvent{Kind: "workspace_updated", Workspace: s.workspaceInfo(w)}, s.workspaceFields(w))
	}
}
