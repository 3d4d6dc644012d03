package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var layoutHandlers = map[string]handler{
	"pane.swap":              op((*model.Tx).Swap),
	"pane.zoom":              op((*model.Tx).Zoom),
	"pane.focus_direction":   op((*model.Tx).FocusDirection),
	"pane.resize":            op((*model.Tx).Resize),
	"pane.input.set":         op((*model.Tx).SetInput),
	"layout.apply":           (*Session).layoutApply,
	"layout.set_split_ratio": op((*model.Tx).SetSplitRatio),
	"layout.select":          op((*model.Tx).SelectLayout),
}

// layoutApply builds a new tab from a declarative tree: every pane starts
// or none does. With tab_id, that tab is closed once the new one exists.
func (s *Session) layoutApply(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutApplyParams)
	w, replaced, err := s.m.ApplyTarget(prm)
	if err != nil {
		return kit.Fail(err)
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
	t, out := s.tx.ApplyTab(prm, w, replaced, root)
	s.apply(out)
	for _, id := range root.Leaves() {
		if _, err := s.startPane(ctx, w, t, setups[id], id, s.m.RectOf(t, id)); err != nil {
			// The failed call's transaction is discarded: the panes
			// started so far stop, the tab was never there.
			return kit.Fail(protocol.Errorf("layout_apply_failed", "%v", err))
		}
	}
	s.apply(s.tx.ApplyDone(s.env(), prm, t, replaced))
	if replaced != nil {
		s.closeTab(ctx, replaced)
	}
	// Described after the replaced tab is gone: layout.tab_id names the tab
	// that now holds the layout, as Herdr's answer does.
	return kit.Done(protocol.LayoutApply{Layout: s.m.Describe(s.env(), t)})
}
