package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var moveHandlers = map[string]handler{
	"pane.move":            (*Session).paneMove,
	"workspace.move":       (*Session).workspaceMove,
	"workspace.move_block": (*Session).workspaceMoveBlock,
	"tab.move":             (*Session).tabMove,
}

// paneMove moves a running pane to another tab, a new tab or a new
// workspace. The destination is built before the source is emptied, so an
// emptied source tab or workspace closes only after the pane has a home.
func (s *Session) paneMove(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneMoveParams)
	p, err := s.resolvePane(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	src := p.Tab()
	res := protocol.PaneMoveResult{PreviousPaneID: p.ID(), PreviousTabID: src.ID(), PreviousWorkspaceID: p.WS().ID()}
	d := prm.Destination
	var dst *tab
	switch d.Type {
	case "tab":
		if dst, err = s.m.ResolveTab(d.TabID); err != nil {
			return kit.Fail(err)
		}
		if dst == src || src.Zoomed() || dst.Zoomed() {
			res.Reason = reason("same_tab")
			if dst != src {
				res.Reason = reason("zoomed_tab")
			}
			res.Pane, res.TargetLayout = s.paneInfo(p), s.layoutSnapshot(dst)
			res.FocusedPaneID = s.terms[dst.Focused()].ID()
			return kit.Done(protocol.PaneMove{MoveResult: res})
		}
		target := s.terms[dst.Focused()]
		if d.TargetPaneID != nil && *d.TargetPaneID != "" {
			if target = s.rec(s.m.Pane(*d.TargetPaneID)); target == nil || target.Tab() != dst {
				return kit.Fail(protocol.Errorf("target_pane_not_found", "pane %s is not in tab %s", *d.TargetPaneID, dst.ID()))
			}
		}
		ratio := 0.5
		if d.Ratio != nil {
			ratio = *d.Ratio
		}
		s.tx.EditTree(dst, func(root *layout.Node) bool {
			return root.Split(target.TermID(), p.TermID(), layout.Direction(d.Split), ratio)
		})
	case "new_tab":
		w := p.WS()
		if d.WorkspaceID != nil && *d.WorkspaceID != "" {
			if w, err = s.m.ResolveWorkspace(*d.WorkspaceID); err != nil {
				return kit.Fail(err)
			}
		}
		label := ""
		if d.Label != nil {
			label = *d.Label
		}
		dst = s.addTab(w, label)
		s.tx.SetRoot(dst, layout.NewLeaf(p.TermID()), p.TermID())
		res.CreatedTab = &protocol.TabInfo{}
	case "new_workspace":
		label, tabLabel := "", ""
		if d.Label != nil {
			label = *d.Label
		}
		if d.TabLabel != nil {
			tabLabel = *d.TabLabel
		}
		cwd := p.Cwd()
		if p.facts.ForegroundCwd != "" {
			cwd = p.facts.ForegroundCwd
		}
		w := s.addWorkspace(label, cwd)
		dst = s.addTab(w, tabLabel)
		s.tx.SetRoot(dst, layout.NewLeaf(p.TermID()), p.TermID())
		res.CreatedTab = &protocol.TabInfo{}
		res.CreatedWorkspace = &protocol.WorkspaceInfo{}
	}
	closedTab, closedWorkspace := s.detach(ctx, p)
	s.tx.Rehome(p.Pane, dst)
	s.renamed(p)
	if prm.Focus {
		s.tx.FocusPane(p.Pane)
	}
	s.relayout(ctx, dst)
	res.Changed = true
	res.Pane = s.paneInfo(p)
	res.TargetLayout = s.layoutSnapshot(dst)
	res.FocusedPaneID = s.terms[dst.Focused()].ID()
	if closedTab != "" {
		res.ClosedTabID = protocol.Ptr(closedTab)
	} else {
		res.SourceLayout = protocol.Ptr(s.layoutSnapshot(src))
	}
	if closedWorkspace != "" {
		res.ClosedWorkspaceID = protocol.Ptr(closedWorkspace)
	}
	if res.CreatedWorkspace != nil {
		res.CreatedWorkspace = protocol.Ptr(s.workspaceInfo(dst.WS()))
		s.emitCreated(dst.WS(), nil, nil)
	}
	if res.CreatedTab != nil {
		res.CreatedTab = protocol.Ptr(s.tabInfo(dst))
		s.emitCreated(nil, dst, nil)
	}
	s.emit(protocol.PaneMovedEvent{
		Pane: res.Pane, PreviousPaneID: res.PreviousPaneID, PreviousTabID: res.PreviousTabID,
		PreviousWorkspaceID: res.PreviousWorkspaceID, ClosedTabID: res.ClosedTabID, ClosedWorkspaceID: res.ClosedWorkspaceID,
		CreatedTab: res.CreatedTab, CreatedWorkspace: res.CreatedWorkspace,
	}, s.paneFields(p))
	return kit.Done(protocol.PaneMove{MoveResult: res})
}

func (s *Session) workspaceMove(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.WorkspaceMoveParams)
	w, err := s.m.ResolveWorkspace(prm.WorkspaceID)
	if err != nil {
		return kit.Fail(err)
	}
	s.tx.MoveWorkspaces(model.MoveTo(slices.Clone(s.m.Workspaces()), slices.Index(s.m.Workspaces(), w), *prm.InsertIndex))
	reply := s.workspaceList(nil, call)
	s.emit(protocol.WorkspaceMovedEvent{WorkspaceID: w.ID(), InsertIndex: *prm.InsertIndex,
		Workspaces: reply.Result.(protocol.WorkspaceList).Workspaces}, s.workspaceFields(w))
	return reply
}

// workspaceMoveBlock moves the listed workspaces, in the given order, in
// front of the anchor (or to the end). All ids are checked first.
func (s *Session) workspaceMoveBlock(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.WorkspaceMoveBlockParams)
	block := make([]*workspace, 0, len(prm.WorkspaceIDs))
	for _, id := range prm.WorkspaceIDs {
		w, err := s.m.ResolveWorkspace(id)
		if err != nil {
			return kit.Fail(err)
		}
		if slices.Contains(block, w) {
			return kit.Fail(protocol.ParamError("workspace_ids", "%s is listed twice", id))
		}
		block = append(block, w)
	}
	var anchor *workspace
	if prm.BeforeWorkspaceID != nil && *prm.BeforeWorkspaceID != "" {
		var err error
		if anchor, err = s.m.ResolveWorkspace(*prm.BeforeWorkspaceID); err != nil {
			return kit.Fail(err)
		}
		if slices.Contains(block, anchor) {
			return kit.Fail(protocol.ParamError("before_workspace_id", "the anchor %s is part of the block", anchor.ID()))
		}
	}
	rest := slices.DeleteFunc(slices.Clone(s.m.Workspaces()), func(w *workspace) bool { return slices.Contains(block, w) })
	at := len(rest)
	if anchor != nil {
		at = slices.Index(rest, anchor)
	}
	s.tx.MoveWorkspaces(slices.Insert(rest, at, block...))
	reply := s.workspaceList(nil, call)
	s.emit(protocol.WorkspaceReorderedEvent{WorkspaceIDs: prm.WorkspaceIDs, BeforeWorkspaceID: prm.BeforeWorkspaceID,
		Workspaces: reply.Result.(protocol.WorkspaceList).Workspaces}, events.Fields{})
	return reply
}

func (s *Session) tabMove(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.TabMoveParams)
	t, err := s.m.ResolveTab(prm.TabID)
	if err != nil {
		return kit.Fail(err)
	}
	w := t.WS()
	s.tx.MoveTab(t, *prm.InsertIndex)
	out := make([]protocol.TabInfo, 0, len(w.Tabs()))
	for _, x := range w.Tabs() {
		out = append(out, s.tabInfo(x))
	}
	s.emit(protocol.TabMovedEvent{TabID: t.ID(), WorkspaceID: w.ID(), InsertIndex: *prm.InsertIndex, Tabs: out}, s.tabFields(t))
	return kit.Done(protocol.TabList{Tabs: out})
}
