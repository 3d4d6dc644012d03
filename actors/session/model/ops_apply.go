package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// layout.apply builds a new tab from a declarative tree: every pane
// starts or none does. The model checks every pane's folder and program
// before it writes anything, places the tab with a fresh terminal per
// leaf (LayoutApply), the session starts them all, and the model
// finishes (ApplyDone), closing the tab it replaces.

// LayoutApply places layout.apply's tab and its panes, in layout order.
// It returns the tab it replaces (tab_id), nil when none.
func (tx *Tx) LayoutApply(prm *protocol.LayoutApplyParams, st Starts) (Placed, *Tab, error) {
	w, replaced, err := tx.m.ApplyTarget(prm)
	if err != nil {
		return Placed{}, nil, err
	}
	var leaves []*layout.Node
	var progs []Program
	var build func(n *protocol.LayoutNode, at string) (*layout.Node, error)
	build = func(n *protocol.LayoutNode, at string) (*layout.Node, error) {
		switch {
		case n == nil || (n.Type != "pane" && n.Type != "split"): // refused when the params were decoded
			return nil, protocol.Errorf("invalid_layout", "%s: expected a pane or a split", at)
		case n.Type == "pane":
			cwd, err := st.Cwd(n.Cwd, w.cwd)
			if err != nil {
				return nil, err
			}
			if _, err := st.Argv(n.Command); err != nil {
				return nil, err
			}
			leaves = append(leaves, layout.NewLeaf(""))
			progs = append(progs, Program{Cwd: cwd, Label: deref(n.Label), Command: n.Command, Env: n.Env})
			return leaves[len(leaves)-1], nil
		}
		first, err := build(n.First, at+".first")
		if err != nil {
			return nil, err
		}
		second, err := build(n.Second, at+".second")
		if err != nil {
			return nil, err
		}
		ratio := 0.5
		if n.Ratio != nil {
			ratio = *n.Ratio
		}
		return &layout.Node{Dir: layout.Direction(n.Direction), Ratio: layout.ClampRatio(ratio), First: first, Second: second}, nil
	}
	root, err := build(prm.Root, "root")
	if err != nil {
		return Placed{}, nil, err
	}
	for _, leaf := range leaves { // the tree is this call's own: no journal
		leaf.Leaf = st.TermID()
	}
	label := deref(prm.TabLabel)
	if prm.TabLabel == nil && replaced != nil {
		label = replaced.label
	}
	var pl Placed
	t := tx.newTab(&pl.Out, w, label)
	tx.SetRoot(t, root, leaves[0].Leaf)
	for i, leaf := range leaves {
		pl.Slots = append(pl.Slots, tx.place(t, leaf.Leaf, progs[i]))
	}
	return pl, replaced, nil
}

// ApplyTarget is where layout.apply builds its tab: the workspace of the
// tab it replaces (tab_id), else the named workspace, else the focused
// one.
func (m *Model) ApplyTarget(prm *protocol.LayoutApplyParams) (w *Workspace, replaced *Tab, err error) {
	w = m.focused
	if prm.TabID != nil && *prm.TabID != "" {
		if replaced, err = m.ResolveTab(*prm.TabID); err != nil {
			return nil, nil, err
		}
		w = replaced.ws
	}
	if prm.WorkspaceID != nil && *prm.WorkspaceID != "" {
		if replaced != nil {
			return nil, nil, protocol.Errorf("invalid_target", "use either tab_id or workspace_id, not both")
		}
		if w, err = m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return nil, nil, err
		}
	}
	if w == nil {
		return nil, nil, protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first")
	}
	return w, replaced, nil
}

// ApplyDone finishes layout.apply once every pane of t runs: the tab and
// its panes are announced and arranged, it takes the focus when asked or
// when the tab it replaces had it, and the replaced tab closes. The
// answer describes t after that, so its tab_id names the tab that holds
// the layout now, as Herdr's does.
func (tx *Tx) ApplyDone(env Env, prm *protocol.LayoutApplyParams, t, replaced *Tab) (protocol.LayoutApply, Out, error) {
	out := Created(env, nil, t, nil)
	for _, p := range tx.m.TabPanes(t) {
		out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: env.PaneInfo(p)}, p)
	}
	out.do(Arrange{t})
	if prm.Focus || (replaced != nil && tx.m.TabFocused(replaced)) {
		tx.FocusTab(t)
	}
	if replaced != nil {
		tx.closeTab(env, &out, replaced)
	}
	return protocol.LayoutApply{Layout: tx.m.Describe(env, t)}, out, nil
}
