package view

import (
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The session's reads, one function each, answered from the View with
// the errors the ids they name earn (the same codes and words the model's
// resolvers give).

// reads are the session's read methods.
var reads = map[string]func(v *View, call *kit.Call) *kit.Reply{
	"workspace.list":         (*View).workspaceList,
	"workspace.count":        (*View).workspaceCount,
	"workspace.get":          (*View).workspaceGet,
	"tab.list":               (*View).tabList,
	"tab.get":                (*View).tabGet,
	"pane.list":              (*View).paneList,
	"pane.get":               (*View).paneGet,
	"pane.current":           (*View).paneCurrent,
	"pane.layout":            (*View).paneLayout,
	"pane.edges":             (*View).paneEdges,
	"pane.neighbor":          (*View).paneNeighbor,
	"layout.export":          (*View).layoutExport,
	"agent.list":             (*View).agentList,
	"agent.get":              (*View).agentGet,
	"session.snapshot":       (*View).snapshot,
	"server.agent_manifests": (*View).agentManifests,
}

// targetID is the id a targeted call names.
func targetID(call *kit.Call) string {
	if t, ok := call.Params.(protocol.Targeted); ok {
		return t.TargetID()
	}
	return ""
}

// spaces are the indexes of the workspace id names, all of them for nil.
func (v *View) spaces(id *string) (first, end int, err error) {
	if id == nil {
		return 0, len(v.Spaces), nil
	}
	i, err := v.ResolveWorkspace(*id)
	return i, i + 1, err
}

func (v *View) workspaceList(*kit.Call) *kit.Reply {
	out := make([]protocol.WorkspaceInfo, len(v.Spaces))
	for i := range v.Spaces {
		out[i] = v.Spaces[i].Info
	}
	return kit.Done(protocol.WorkspaceList{Workspaces: out})
}

func (v *View) workspaceCount(*kit.Call) *kit.Reply {
	return kit.Done(protocol.WorkspaceCount{Count: len(v.Spaces)})
}

func (v *View) workspaceGet(call *kit.Call) *kit.Reply {
	i, err := v.ResolveWorkspace(targetID(call))
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.WorkspaceInfoResult{Workspace: v.Spaces[i].Info})
}

func (v *View) tabList(call *kit.Call) *kit.Reply {
	first, end, err := v.spaces(call.Params.(*protocol.TabListParams).WorkspaceID)
	if err != nil {
		return kit.Fail(err)
	}
	out := []protocol.TabInfo{}
	if first < end {
		for i := v.Spaces[first].FirstTab; i < v.Spaces[end-1].TabEnd; i++ {
			out = append(out, v.Tabs[i].Info)
		}
	}
	return kit.Done(protocol.TabList{Tabs: out})
}

func (v *View) tabGet(call *kit.Call) *kit.Reply {
	i, err := v.ResolveTab(targetID(call))
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.TabInfoResult{Tab: v.Tabs[i].Info})
}

func (v *View) paneList(call *kit.Call) *kit.Reply {
	first, end, err := v.spaces(call.Params.(*protocol.PaneListParams).WorkspaceID)
	if err != nil {
		return kit.Fail(err)
	}
	out := []protocol.PaneInfo{}
	if first < end {
		from, to := v.Spaces[first].FirstPane, v.Spaces[end-1].PaneEnd
		out = make([]protocol.PaneInfo, to-from)
		for i := range out {
			out[i] = v.Rec(from + i).Info
		}
	}
	return kit.Done(protocol.PaneList{Panes: out})
}

func (v *View) paneGet(call *kit.Call) *kit.Reply {
	i, err := v.ResolvePane(targetID(call))
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PaneInfoResult{Pane: v.Rec(i).Info})
}

func (v *View) paneCurrent(call *kit.Call) *kit.Reply {
	i, err := v.OrFocused(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PaneCurrent{Pane: v.Rec(i).Info})
}

// tabOf is the tab holding panes[i].
func (v *View) tabOf(i int) *Tab {
	return &v.Tabs[v.TabByID[v.Rec(i).Info.TabID]]
}

func (v *View) paneLayout(call *kit.Call) *kit.Reply {
	i, err := v.OrFocused(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PaneLayout{Layout: *v.tabOf(i).Layout})
}

func (v *View) paneEdges(call *kit.Call) *kit.Reply {
	i, err := v.OrFocused(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	lay, id := v.tabOf(i).Layout, v.Rec(i).Info.PaneID
	area, r := rect(lay.Area), rect(lay.Area)
	for _, lp := range lay.Panes {
		if lp.PaneID == id {
			r = rect(lp.Rect)
		}
	}
	return kit.Done(protocol.PaneEdges{Edges: protocol.PaneEdgesResult{
		PaneID: id,
		Left:   layout.AtEdge(area, r, layout.Left),
		Right:  layout.AtEdge(area, r, layout.Right),
		Up:     layout.AtEdge(area, r, layout.Up),
		Down:   layout.AtEdge(area, r, layout.Down),
		Layout: *lay,
	}})
}

func rect(r protocol.Rect) layout.Rect { return layout.Rect{X: r.X, Y: r.Y, W: r.Width, H: r.Height} }

// paneNeighbor finds the pane beside one in the tab's layout without its
// zoom, which is what navigation between panes follows.
func (v *View) paneNeighbor(call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneDirectionParams)
	i, err := v.OrFocused(prm.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	t, p := v.tabOf(i), v.Rec(i)
	res := protocol.PaneNeighborResult{PaneID: p.Info.PaneID, Direction: prm.Direction, Layout: *t.Layout}
	if t.Root == nil { // a View built by hand, without trees
		return kit.Done(protocol.PaneNeighbor{Neighbor: res})
	}
	rects, _ := t.Root.Compute(v.Area)
	if id, ok := layout.Neighbor(rects, p.Info.TerminalID, layout.Side(prm.Direction)); ok {
		if n, ok := v.ByTerm[id]; ok {
			res.NeighborPaneID = protocol.Ptr(v.Rec(n).Info.PaneID)
		}
	}
	return kit.Done(protocol.PaneNeighbor{Neighbor: res})
}

// layoutExport renders a tab (the one named, else the named or focused
// pane's) as a portable layout tree.
func (v *View) layoutExport(call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutExportParams)
	var t *Tab
	if prm.TabID != nil && *prm.TabID != "" {
		j, err := v.ResolveTab(*prm.TabID)
		if err != nil {
			return kit.Fail(err)
		}
		t = &v.Tabs[j]
	} else {
		i, err := v.OrFocused(prm.PaneID)
		if err != nil {
			return kit.Fail(err)
		}
		t = v.tabOf(i)
	}
	var conv func(n *layout.Node) protocol.LayoutNode
	conv = func(n *layout.Node) protocol.LayoutNode {
		if n == nil {
			return protocol.LayoutNode{Type: "pane"}
		}
		if n.IsLeaf() {
			out := protocol.LayoutNode{Type: "pane"}
			if i, ok := v.ByTerm[n.Leaf]; ok {
				p := v.Rec(i)
				out.PaneID, out.Cwd, out.Command, out.Label = protocol.Ptr(p.Info.PaneID), p.Info.Cwd, p.Command, p.Info.Label
				if p.Info.ForegroundCwd != nil {
					out.Cwd = p.Info.ForegroundCwd
				}
			}
			return out
		}
		first, second := conv(n.First), conv(n.Second)
		return protocol.LayoutNode{Type: "split", Direction: string(n.Dir), Ratio: protocol.Ptr(n.Ratio), First: &first, Second: &second}
	}
	return kit.Done(protocol.LayoutExport{Layout: protocol.LayoutDescription{
		WorkspaceID:   t.Info.WorkspaceID,
		TabID:         t.Info.TabID,
		Zoomed:        t.Layout.Zoomed,
		FocusedPaneID: t.Layout.FocusedPaneID,
		Root:          conv(t.Root),
	}})
}

// agents lists the panes hosting an agent, in workspace, tab and layout order.
func (v *View) agents() []protocol.AgentInfo {
	out := []protocol.AgentInfo{}
	for i := range v.Panes {
		if p := v.Rec(i); p.Agent != nil {
			out = append(out, *p.Agent)
		}
	}
	return out
}

func (v *View) agentList(*kit.Call) *kit.Reply {
	return kit.Done(protocol.AgentList{Agents: v.agents()})
}

func (v *View) agentGet(call *kit.Call) *kit.Reply {
	i, err := v.ResolveAgent(targetID(call))
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.AgentInfoResult{Agent: *v.Rec(i).Agent})
}

func (v *View) snapshot(*kit.Call) *kit.Reply {
	snap := protocol.SessionSnapshot{
		Version:    protocol.Version,
		Protocol:   protocol.ProtocolVersion,
		Workspaces: make([]protocol.WorkspaceInfo, len(v.Spaces)),
		Tabs:       make([]protocol.TabInfo, len(v.Tabs)),
		Panes:      make([]protocol.PaneInfo, len(v.Panes)),
		Layouts:    make([]protocol.PaneLayoutSnapshot, len(v.Tabs)),
		Agents:     v.agents(),
	}
	for i := range v.Spaces {
		snap.Workspaces[i] = v.Spaces[i].Info
	}
	for i := range v.Tabs {
		snap.Tabs[i], snap.Layouts[i] = v.Tabs[i].Info, *v.Tabs[i].Layout
	}
	for i := range v.Panes {
		snap.Panes[i] = v.Rec(i).Info
	}
	if v.FocusedWS != "" {
		snap.FocusedWorkspaceID = protocol.Ptr(v.FocusedWS)
		if v.FocusedTab != "" {
			snap.FocusedTabID = protocol.Ptr(v.FocusedTab)
		}
		if v.FocusedPane >= 0 {
			snap.FocusedPaneID = protocol.Ptr(v.Rec(v.FocusedPane).Info.PaneID)
		}
	}
	return kit.Done(protocol.SessionSnapshotResult{Snapshot: snap})
}

func (v *View) agentManifests(*kit.Call) *kit.Reply {
	if v.Manifests == nil {
		return kit.Done(protocol.AgentManifestStatus{Manifests: []protocol.AgentManifestInfo{}})
	}
	return kit.Done(protocol.AgentManifestStatus{Manifests: v.Manifests})
}
