package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

var layoutHandlers = map[string]handler{
	"pane.swap":              (*Session).paneSwap,
	"pane.zoom":              (*Session).paneZoom,
	"pane.layout":            (*Session).paneLayout,
	"pane.neighbor":          (*Session).paneNeighbor,
	"pane.edges":             (*Session).paneEdges,
	"pane.focus_direction":   (*Session).paneFocusDirection,
	"pane.resize":            (*Session).paneResize,
	"pane.input.set":         (*Session).paneInputSet,
	"layout.export":          (*Session).layoutExport,
	"layout.apply":           (*Session).layoutApply,
	"layout.set_split_ratio": (*Session).layoutSetSplitRatio,
	"layout.select":          (*Session).layoutSelect,
}

func reason(r string) *string { return &r }

// hiddenRects is a tab's layout without the zoom override, which is what
// navigation between panes follows.
func (s *Session) hiddenRects(t *tab) []layout.PaneRect {
	rects, _ := t.Root().Compute(s.m.Area())
	return rects
}

func (s *Session) paneLayout(_ actor.Context, call *kit.Call) *kit.Reply {
	p, err := s.orFocused(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PaneLayout{Layout: s.layoutSnapshot(p.Tab())})
}

// neighborOf is the pane beside p on side, if any.
func (s *Session) neighborOf(p *paneRec, side string) *paneRec {
	id, ok := layout.Neighbor(s.hiddenRects(p.Tab()), p.TermID(), layout.Side(side))
	if !ok {
		return nil
	}
	return s.terms[id]
}

func (s *Session) paneNeighbor(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneDirectionParams)
	p, err := s.orFocused(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	res := protocol.PaneNeighborResult{PaneID: p.ID(), Direction: prm.Direction, Layout: s.layoutSnapshot(p.Tab())}
	if n := s.neighborOf(p, prm.Direction); n != nil {
		res.NeighborPaneID = protocol.Ptr(n.ID())
	}
	return kit.Done(protocol.PaneNeighbor{Neighbor: res})
}

func (s *Session) paneEdges(_ actor.Context, call *kit.Call) *kit.Reply {
	p, err := s.orFocused(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	r := s.m.RectOf(p.Tab(), p.TermID())
	return kit.Done(protocol.PaneEdges{Edges: protocol.PaneEdgesResult{
		PaneID: p.ID(),
		Left:   layout.AtEdge(s.m.Area(), r, layout.Left),
		Right:  layout.AtEdge(s.m.Area(), r, layout.Right),
		Up:     layout.AtEdge(s.m.Area(), r, layout.Up),
		Down:   layout.AtEdge(s.m.Area(), r, layout.Down),
		Layout: s.layoutSnapshot(p.Tab()),
	}})
}

func (s *Session) paneFocusDirection(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneDirectionParams)
	p, err := s.orFocused(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	res := protocol.PaneFocusDirectionResult{SourcePaneID: p.ID()}
	if n := s.neighborOf(p, prm.Direction); n != nil {
		res.Changed = !s.paneFocused(n)
		s.tx.FocusPane(n.Pane)
		s.relayout(ctx, n.Tab()) // a zoomed tab shows the newly focused pane
		res.FocusedPaneID = protocol.Ptr(n.ID())
	} else {
		res.Reason = reason("no_neighbor")
	}
	res.Layout = s.layoutSnapshot(p.Tab())
	return kit.Done(protocol.PaneFocusDirection{Focus: res})
}

func (s *Session) paneResize(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneResizeParams)
	p, err := s.orFocused(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	amount := 0.05
	if prm.Amount != nil {
		amount = *prm.Amount
	}
	res := protocol.PaneResizeResult{PaneID: p.ID()}
	// An amount of 0 changes nothing and says so, as Herdr does.
	if res.Changed = amount != 0 && s.tx.EditTree(p.Tab(), func(root *layout.Node) bool { return root.Resize(p.TermID(), layout.Side(prm.Direction), amount) }); res.Changed {
		s.relayout(ctx, p.Tab())
	} else {
		res.Reason = reason("unchanged")
	}
	res.FocusedPaneID = s.terms[p.Tab().Focused()].ID()
	res.Layout = s.layoutSnapshot(p.Tab())
	return kit.Done(protocol.PaneResize{Resize: res})
}

func (s *Session) paneSwap(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneSwapParams)
	sourceID := prm.PaneID
	if prm.SourcePaneID != nil && *prm.SourcePaneID != "" {
		sourceID = prm.SourcePaneID
	}
	src, err := s.orFocused(sourceID)
	if err != nil {
		return kit.Fail(err)
	}
	res := protocol.PaneSwapResult{SourcePaneID: src.ID()}
	var dst *paneRec
	if prm.Direction != nil {
		if dst = s.neighborOf(src, *prm.Direction); dst == nil {
			res.Reason = reason("no_neighbor")
		}
	} else {
		res.TargetPaneID = prm.TargetPaneID
		switch found := s.rec(s.m.Pane(*prm.TargetPaneID)); {
		case found == nil:
			res.Reason = reason("not_found")
		case found == src:
			res.Reason = reason("same_pane")
		case found.Tab() != src.Tab():
			res.Reason = reason("cross_tab")
		default:
			dst = found
		}
	}
	if dst != nil {
		res.TargetPaneID = protocol.Ptr(dst.ID())
		res.Changed = s.tx.EditTree(src.Tab(), func(root *layout.Node) bool { return root.Swap(src.TermID(), dst.TermID()) })
		s.relayout(ctx, src.Tab())
	}
	res.FocusedPaneID = s.terms[src.Tab().Focused()].ID()
	res.Layout = s.layoutSnapshot(src.Tab())
	return kit.Done(protocol.PaneSwap{Swap: res})
}

func (s *Session) paneZoom(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneZoomParams)
	p, err := s.orFocused(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	t := p.Tab()
	res := protocol.PaneZoomResult{PaneID: p.ID()}
	want := prm.Mode == "on" || (prm.Mode == "toggle" && !(t.Zoomed() && t.Focused() == p.TermID()))
	switch {
	case want && len(t.Root().Leaves()) == 1:
		res.Reason = reason("single_pane")
	case want && t.Zoomed() && t.Focused() == p.TermID():
		res.Reason = reason("already_zoomed")
	case !want && !t.Zoomed():
		res.Reason = reason("already_unzoomed")
	default:
		res.FocusChanged = t.Focused() != p.TermID()
		res.ZoomChanged = t.Zoomed() != want
		s.tx.FocusInTab(t, p.TermID(), want)
		res.Changed = res.FocusChanged || res.ZoomChanged
		s.relayout(ctx, t)
	}
	res.Zoomed = t.Zoomed()
	res.FocusedPaneID = s.terms[t.Focused()].ID()
	res.Layout = s.layoutSnapshot(t)
	return kit.Done(protocol.PaneZoom{Zoom: res})
}

func (s *Session) paneInputSet(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneInputSetParams)
	p, err := s.resolvePane(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	s.tx.SetRightClick(p.Pane, prm.RightClick)
	s.tell(p.pid, &pane.SetRightClick{ToPane: p.RightClick() == "pane"})
	return kit.OK()
}

// tabOf resolves an optional tab id, else the tab of an optional pane id,
// else the focused tab.
func (s *Session) tabOf(tabID, paneID *string) (*tab, error) {
	if tabID != nil && *tabID != "" {
		return s.m.ResolveTab(*tabID)
	}
	p, err := s.orFocused(paneID)
	if err != nil {
		return nil, err
	}
	return p.Tab(), nil
}

// describe renders a tab as a portable layout tree.
func (s *Session) describe(t *tab) protocol.LayoutDescription {
	var conv func(n *layout.Node) protocol.LayoutNode
	conv = func(n *layout.Node) protocol.LayoutNode {
		if n.IsLeaf() {
			p := s.terms[n.Leaf]
			out := protocol.LayoutNode{Type: "pane", PaneID: protocol.Ptr(p.ID()), Cwd: protocol.Ptr(p.Cwd()), Command: p.Command()}
			if p.facts.ForegroundCwd != "" {
				out.Cwd = protocol.Ptr(p.facts.ForegroundCwd)
			}
			if p.Label() != "" {
				out.Label = protocol.Ptr(p.Label())
			}
			return out
		}
		first, second := conv(n.First), conv(n.Second)
		return protocol.LayoutNode{Type: "split", Direction: string(n.Dir), Ratio: protocol.Ptr(n.Ratio), First: &first, Second: &second}
	}
	return protocol.LayoutDescription{
		WorkspaceID:   t.WS().ID(),
		TabID:         t.ID(),
		Zoomed:        t.Zoomed(),
		FocusedPaneID: s.terms[t.Focused()].ID(),
		Root:          conv(t.Root()),
	}
}

func (s *Session) layoutExport(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutExportParams)
	t, err := s.tabOf(prm.TabID, prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.LayoutExport{Layout: s.describe(t)})
}

func (s *Session) layoutSetSplitRatio(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutSetSplitRatioParams)
	t, err := s.tabOf(prm.TabID, prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	found := s.tx.EditTree(t, func(root *layout.Node) bool {
		split, err := root.SplitAt(prm.Path)
		if err == nil {
			split.Ratio = layout.ClampRatio(*prm.Ratio)
		}
		return err == nil
	})
	if !found {
		return kit.Fail(protocol.Errorf("split_not_found", "no split at path %v in tab %s", prm.Path, t.ID()))
	}
	s.relayout(ctx, t)
	return kit.Done(protocol.LayoutSplitRatioSet{Layout: s.describe(t)})
}

// layoutSelect arranges a tab's panes as one of tmux's layouts, in the
// order they stand, keeping the focus; a zoomed tab is unzoomed, so the
// layout shows.
func (s *Session) layoutSelect(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutSelectParams)
	t, err := s.tabOf(prm.TabID, prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	root, err := layout.Preset(prm.Layout, t.Root().Leaves())
	if err != nil {
		return kit.Fail(protocol.ParamError("layout", "%v", err))
	}
	res := protocol.LayoutSelected{TabID: t.ID(), Layout: prm.Layout}
	if res.Changed = t.Zoomed() || root.String() != t.Root().String(); res.Changed {
		s.tx.SetRoot(t, root, t.Focused())
		s.tx.FocusInTab(t, t.Focused(), false)
		s.relayout(ctx, t)
	}
	res.Panes = s.layoutSnapshot(t)
	return kit.Done(res)
}

// layoutApply builds a new tab from a declarative tree: every pane starts
// or none does. With tab_id, that tab is closed once the new one exists.
func (s *Session) layoutApply(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutApplyParams)
	var replaced *tab
	w := s.m.Focused()
	var err error
	if prm.TabID != nil && *prm.TabID != "" {
		if replaced, err = s.m.ResolveTab(*prm.TabID); err != nil {
			return kit.Fail(err)
		}
		w = replaced.WS()
	}
	if prm.WorkspaceID != nil && *prm.WorkspaceID != "" {
		if replaced != nil {
			return kit.Fail(protocol.Errorf("invalid_target", "use either tab_id or workspace_id, not both"))
		}
		if w, err = s.m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return kit.Fail(err)
		}
	}
	if w == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first"))
	}
	// Build the tree with fresh terminal ids and check every cwd first, so
	// nothing starts when any part is invalid.
	setups := map[string]paneSetup{}
	var build func(n *protocol.LayoutNode) (*layout.Node, error)
	build = func(n *protocol.LayoutNode) (*layout.Node, error) {
		if n.Type == "pane" {
			cwd, err := s.spawner.CheckCwd(n.Cwd, w.Cwd())
			if err != nil {
				return nil, err
			}
			id := s.newTermID()
			setup := paneSetup{cwd: cwd, env: n.Env, command: n.Command}
			if _, err := s.spawner.Argv(setup.command); err != nil {
				return nil, err
			}
			if n.Label != nil {
				setup.label = *n.Label
			}
			setups[id] = setup
			return layout.NewLeaf(id), nil
		}
		first, err := build(n.First)
		if err != nil {
			return nil, err
		}
		second, err := build(n.Second)
		if err != nil {
			return nil, err
		}
		return &layout.Node{Dir: layout.Direction(n.Direction), Ratio: layout.ClampRatio(*n.Ratio), First: first, Second: second}, nil
	}
	root, err := build(prm.Root)
	if err != nil {
		return kit.Fail(err)
	}
	label := ""
	switch {
	case prm.TabLabel != nil:
		label = *prm.TabLabel
	case replaced != nil:
		label = replaced.Label() // the replacement keeps the replaced tab's name
	}
	t := s.addTab(w, label)
	leaves := root.Leaves()
	s.tx.SetRoot(t, root, leaves[0])
	for _, id := range leaves {
		if _, err := s.startPane(ctx, w, t, setups[id], id, s.m.RectOf(t, id)); err != nil {
			// The failed call's transaction is discarded: the panes
			// started so far stop, the tab was never there.
			return kit.Fail(protocol.Errorf("layout_apply_failed", "%v", err))
		}
	}
	s.emitCreated(nil, t, nil)
	for _, p := range s.tabPanes(t) {
		s.emitCreated(nil, nil, p)
	}
	s.markLayout(t)
	if prm.Focus || (replaced != nil && s.m.TabFocused(replaced)) {
		s.tx.FocusTab(t)
	}
	if replaced != nil {
		s.closeTab(ctx, replaced)
	}
	// Described after the replaced tab is gone: layout.tab_id names the tab
	// that now holds the layout, as Herdr's answer does.
	return kit.Done(protocol.LayoutApply{Layout: s.describe(t)})
}
