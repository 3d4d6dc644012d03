package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The operations of a tab's layout: focus by direction, resize, swap,
// zoom, a split's ratio, a preset, and what right-clicking a pane does.

// OrFocused resolves an optional pane id, defaulting to the focused pane.
func (m *Model) OrFocused(id *string) (*Pane, error) {
	if id != nil && *id != "" {
		return m.ResolvePane(*id)
	}
	if p := m.FocusedPane(); p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodeNoActivePane, "no active pane")
}

// TabOf resolves an optional tab id, else the tab of an optional pane id,
// else the focused tab.
func (m *Model) TabOf(tabID, paneID *string) (*Tab, error) {
	if tabID != nil && *tabID != "" {
		return m.ResolveTab(*tabID)
	}
	p, err := m.OrFocused(paneID)
	if err != nil {
		return nil, err
	}
	return p.tab, nil
}

// Neighbor is the pane beside p on side, if any. Navigation follows the
// layout without the zoom override.
func (m *Model) Neighbor(p *Pane, side string) *Pane {
	rects, _ := p.tab.root.Compute(m.area)
	id, ok := layout.Neighbor(rects, p.termID, layout.Side(side))
	if !ok {
		return nil
	}
	return m.terms[id]
}

// FocusDirection focuses the pane beside the given one (else the focused
// one); a zoomed tab then shows it.
func (tx *Tx) FocusDirection(env Env, prm *protocol.PaneDirectionParams) (protocol.PaneFocusDirection, Out, error) {
	var out Out
	p, err := tx.m.OrFocused(prm.PaneID)
	if err != nil {
		return protocol.PaneFocusDirection{}, out, err
	}
	res := protocol.PaneFocusDirectionResult{SourcePaneID: p.id}
	if n := tx.m.Neighbor(p, prm.Direction); n != nil {
		res.Changed = !tx.m.PaneFocused(n)
		tx.FocusPane(n)
		out.do(Arrange{n.tab})
		res.FocusedPaneID = protocol.Ptr(n.id)
	} else {
		res.Reason = reason("no_neighbor")
	}
	res.Layout = env.Layout(p.tab)
	return protocol.PaneFocusDirection{Focus: res}, out, nil
}

// Resize moves the edge of a pane on a side by amount (default 0.05); an
// amount of 0 changes nothing and says so, as Herdr does.
func (tx *Tx) Resize(env Env, prm *protocol.PaneResizeParams) (protocol.PaneResize, Out, error) {
	var out Out
	p, err := tx.m.OrFocused(prm.PaneID)
	if err != nil {
		return protocol.PaneResize{}, out, err
	}
	amount := 0.05
	if prm.Amount != nil {
		amount = *prm.Amount
	}
	res := protocol.PaneResizeResult{PaneID: p.id}
	if res.Changed = amount != 0 && tx.EditTree(p.tab, func(root *layout.Node) bool { return root.Resize(p.termID, layout.Side(prm.Direction), amount) }); res.Changed {
		out.do(Arrange{p.tab})
	} else {
		res.Reason = reason("unchanged")
	}
	res.FocusedPaneID = tx.m.terms[p.tab.focused].id
	res.Layout = env.Layout(p.tab)
	return protocol.PaneResize{Resize: res}, out, nil
}

// Swap exchanges a pane's place with its neighbour on a side or with a
// named pane of the same tab; what stops it is a reason, not an error.
func (tx *Tx) Swap(env Env, prm *protocol.PaneSwapParams) (protocol.PaneSwap, Out, error) {
	var out Out
	if prm.Direction == nil && prm.TargetPaneID == nil {
		return protocol.PaneSwap{}, out, prm.Validate() // params that skipped their check
	}
	sourceID := prm.PaneID
	if prm.SourcePaneID != nil && *prm.SourcePaneID != "" {
		sourceID = prm.SourcePaneID
	}
	src, err := tx.m.OrFocused(sourceID)
	if err != nil {
		return protocol.PaneSwap{}, out, err
	}
	res := protocol.PaneSwapResult{SourcePaneID: src.id}
	var dst *Pane
	if prm.Direction != nil {
		if dst = tx.m.Neighbor(src, *prm.Direction); dst == nil {
			res.Reason = reason("no_neighbor")
		}
	} else {
		res.TargetPaneID = prm.TargetPaneID
		switch found := tx.m.Pane(*prm.TargetPaneID); {
		case found == nil:
			res.Reason = reason("not_found")
		case found == src:
			res.Reason = reason("same_pane")
		case found.tab != src.tab:
			res.Reason = reason("cross_tab")
		default:
			dst = found
		}
	}
	if dst != nil {
		res.TargetPaneID = protocol.Ptr(dst.id)
		res.Changed = tx.EditTree(src.tab, func(root *layout.Node) bool { return root.Swap(src.termID, dst.termID) })
		out.do(Arrange{src.tab})
	}
	res.FocusedPaneID = tx.m.terms[src.tab.focused].id
	res.Layout = env.Layout(src.tab)
	return protocol.PaneSwap{Swap: res}, out, nil
}

// Zoom makes a pane fill its tab (mode on, off or toggle), focusing it.
func (tx *Tx) Zoom(env Env, prm *protocol.PaneZoomParams) (protocol.PaneZoom, Out, error) {
	var out Out
	p, err := tx.m.OrFocused(prm.PaneID)
	if err != nil {
		return protocol.PaneZoom{}, out, err
	}
	t := p.tab
	res := protocol.PaneZoomResult{PaneID: p.id}
	want := prm.Mode == "on" || (prm.Mode == "toggle" && !(t.zoomed && t.focused == p.termID))
	switch {
	case want && len(t.root.Leaves()) == 1:
		res.Reason = reason("single_pane")
	case want && t.zoomed && t.focused == p.termID:
		res.Reason = reason("already_zoomed")
	case !want && !t.zoomed:
		res.Reason = reason("already_unzoomed")
	default:
		res.FocusChanged = t.focused != p.termID
		res.ZoomChanged = t.zoomed != want
		tx.FocusInTab(t, p.termID, want)
		res.Changed = res.FocusChanged || res.ZoomChanged
		out.do(Arrange{t})
	}
	res.Zoomed = t.zoomed
	res.FocusedPaneID = tx.m.terms[t.focused].id
	res.Layout = env.Layout(t)
	return protocol.PaneZoom{Zoom: res}, out, nil
}

// SetSplitRatio sets the ratio of the split at a path of a tab's tree.
func (tx *Tx) SetSplitRatio(env Env, prm *protocol.LayoutSetSplitRatioParams) (protocol.LayoutSplitRatioSet, Out, error) {
	var out Out
	if prm.Ratio == nil {
		return protocol.LayoutSplitRatioSet{}, out, prm.Validate() // params that skipped their check
	}
	t, err := tx.m.TabOf(prm.TabID, prm.PaneID)
	if err != nil {
		return protocol.LayoutSplitRatioSet{}, out, err
	}
	found := tx.EditTree(t, func(root *layout.Node) bool {
		split, err := root.SplitAt(prm.Path)
		if err == nil {
			split.Ratio = layout.ClampRatio(*prm.Ratio)
		}
		return err == nil
	})
	if !found {
		return protocol.LayoutSplitRatioSet{}, out, protocol.Errorf("split_not_found", "no split at path %v in tab %s", prm.Path, t.id)
	}
	out.do(Arrange{t})
	return protocol.LayoutSplitRatioSet{Layout: tx.m.Describe(env, t)}, out, nil
}

// SelectLayout arranges a tab's panes as one of tmux's layouts, in the
// order they stand, keeping the focus; a zoomed tab is unzoomed, so the
// layout shows.
func (tx *Tx) SelectLayout(env Env, prm *protocol.LayoutSelectParams) (protocol.LayoutSelected, Out, error) {
	var out Out
	t, err := tx.m.TabOf(prm.TabID, prm.PaneID)
	if err != nil {
		return protocol.LayoutSelected{}, out, err
	}
	root, err := layout.Preset(prm.Layout, t.root.Leaves())
	if err != nil {
		return protocol.LayoutSelected{}, out, protocol.ParamError("layout", "%v", err)
	}
	res := protocol.LayoutSelected{TabID: t.id, Layout: prm.Layout}
	if res.Changed = t.zoomed || root.String() != t.root.String(); res.Changed {
		tx.SetRoot(t, root, t.focused)
		tx.FocusInTab(t, t.focused, false)
		out.do(Arrange{t})
	}
	res.Panes = env.Layout(t)
	return res, out, nil
}

// SetInput sets what right-clicking a pane does and tells the pane.
func (tx *Tx) SetInput(_ Env, prm *protocol.PaneInputSetParams) (protocol.OK, Out, error) {
	var out Out
	p, err := tx.m.ResolvePane(prm.PaneID)
	if err != nil {
		return protocol.OK{}, out, err
	}
	tx.SetRightClick(p, prm.RightClick)
	out.do(TellRightClick{p})
	return protocol.OK{}, out, nil
}

// Describe renders a tab as a portable layout tree: each pane with the
// folder it is in now (else the one it started in), its command and label.
func (m *Model) Describe(env Env, t *Tab) protocol.LayoutDescription {
	var conv func(n *layout.Node) protocol.LayoutNode
	conv = func(n *layout.Node) protocol.LayoutNode {
		if n.IsLeaf() {
			p := m.terms[n.Leaf]
			out := protocol.LayoutNode{Type: "pane", PaneID: protocol.Ptr(p.id), Cwd: protocol.Ptr(p.cwd), Command: p.command}
			if f := env.Folder(p); f != "" {
				out.Cwd = protocol.Ptr(f)
			}
			if p.label != "" {
				out.Label = protocol.Ptr(p.label)
			}
			return out
		}
		first, second := conv(n.First), conv(n.Second)
		return protocol.LayoutNode{Type: "split", Direction: string(n.Dir), Ratio: protocol.Ptr(n.Ratio), First: &first, Second: &second}
	}
	return protocol.LayoutDescription{WorkspaceID: t.ws.id, TabID: t.id, Zoomed: t.zoomed, FocusedPaneID: m.terms[t.focused].id, Root: conv(t.root)}
}
