package session

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// The read side: after each message that changed the read model the
// session publishes a View, an immutable snapshot of it with every info
// already rendered, and the reads below are answered from the newest View
// on the caller's goroutine (the gateway's conn), never waiting in the
// session's mailbox behind a write or a burst of pane facts. The session
// publishes before it answers a write or sends its events, so every read
// that starts after a write's answer sees it. Nothing is published until
// the restore (the session's first message) is done, so until then reads
// go to the mailbox and wait for it, as every call does.
//
// A read answers from the View only what it resolves exactly as the
// session would (a current id); anything else (a legacy or former id, a
// name, an error) is sent to the session, which answers it as before.

// ReadSide holds the newest View. The session is its only writer; any
// goroutine may read.
type ReadSide struct{ cur atomic.Pointer[View] }

// NewReadSide returns a read side with nothing published: every read goes
// to the session until its first message is done.
func NewReadSide() *ReadSide { return &ReadSide{} }

// Read implements api.Reader.
func (r *ReadSide) Read(call *api.Call) *api.Reply {
	v := r.cur.Load()
	if v == nil {
		return nil
	}
	h, ok := readHandlers[call.Method]
	if !ok {
		return nil
	}
	return h(v, call)
}

// View is one published state of the read model. Nothing in it changes
// after it is published; the next publish shares what did not change.
type View struct {
	spaces []wsView
	tabs   []tabView
	panes  []*paneView // in workspace, tab and layout order
	// by current public id, the index in spaces, tabs or panes
	wsByID, tabByID, paneByID map[string]int
	focusedPane               int // index in panes, -1 for none
	focusedWS, focusedTab     string
}

type wsView struct {
	info               protocol.WorkspaceInfo
	firstTab, tabEnd   int
	firstPane, paneEnd int
}

type tabView struct {
	info               protocol.TabInfo
	layout             protocol.PaneLayoutSnapshot
	firstPane, paneEnd int
}

// paneView is one pane's rendered records, kept by its paneRec and
// reused by the next publish while key is unchanged.
type paneView struct {
	key   paneKey
	info  protocol.PaneInfo
	agent *protocol.AgentInfo // nil when it hosts no agent
}

// paneKey is everything a pane's records are rendered from.
type paneKey struct {
	id, termID, ws, tab, label, cwd string
	focused                         bool
	rows                            int
	facts                           pane.Facts
	shown                           uint64 // paneRec.shownRev
}

func (s *Session) paneKey(p *paneRec) paneKey {
	return paneKey{id: p.ID, termID: p.TermID, ws: p.WS.ID, tab: p.Tab.ID, label: p.Label, cwd: p.Cwd,
		focused: s.paneFocused(p), rows: p.rows, facts: p.facts, shown: p.shownRev}
}

// paneView is p's records, rendered again only when they changed.
func (s *Session) paneView(p *paneRec) *paneView {
	k := s.paneKey(p)
	if p.view != nil && p.view.key == k {
		return p.view
	}
	v := &paneView{key: k, info: s.paneInfo(p)}
	if p.shown.HostsAgent() {
		a := p.shown.Info(v.info)
		v.agent = &a
	}
	p.view = v
	return v
}

// publish makes the read model's present state the newest View. topo
// says the topology changed (the transaction just committed changed the
// model), or something else the workspace and tab records show (an
// agent's status: viewDirty); otherwise only panes' own records can have
// changed, and the rest of the last View is shared.
func (s *Session) publish(topo bool) {
	old := s.reads.cur.Load()
	if old == nil || topo || s.viewDirty {
		s.viewDirty = false
		s.reads.cur.Store(s.buildView())
		return
	}
	var panes []*paneView
	for i, pv := range old.panes {
		p := s.terms[pv.key.termID]
		if p == nil { // cannot be without a model change; be whole anyway
			s.reads.cur.Store(s.buildView())
			return
		}
		if nv := s.paneView(p); nv != pv {
			if panes == nil {
				panes = append(make([]*paneView, 0, len(old.panes)), old.panes...)
			}
			panes[i] = nv
		}
	}
	if panes == nil {
		return // nothing a read shows changed
	}
	v := *old
	v.panes = panes
	s.reads.cur.Store(&v)
}

// buildView renders the whole read model.
func (s *Session) buildView() *View {
	v := &View{
		spaces:      make([]wsView, 0, len(s.m.Workspaces)),
		panes:       make([]*paneView, 0, len(s.terms)),
		wsByID:      make(map[string]int, len(s.m.Workspaces)),
		tabByID:     map[string]int{},
		paneByID:    make(map[string]int, len(s.terms)),
		focusedPane: -1,
	}
	focused := s.focusedPane()
	for _, w := range s.m.Workspaces {
		wv := wsView{info: s.workspaceInfo(w), firstTab: len(v.tabs), firstPane: len(v.panes)}
		for _, t := range w.Tabs {
			tv := tabView{info: s.tabInfo(t), layout: s.layoutSnapshot(t), firstPane: len(v.panes)}
			for _, p := range s.tabPanes(t) {
				if p == focused {
					v.focusedPane = len(v.panes)
				}
				v.paneByID[p.ID] = len(v.panes)
				v.panes = append(v.panes, s.paneView(p))
			}
			tv.paneEnd = len(v.panes)
			v.tabByID[t.ID] = len(v.tabs)
			v.tabs = append(v.tabs, tv)
		}
		wv.tabEnd, wv.paneEnd = len(v.tabs), len(v.panes)
		v.wsByID[w.ID] = len(v.spaces)
		v.spaces = append(v.spaces, wv)
	}
	if w := s.m.Focused; w != nil {
		v.focusedWS = w.ID
		if w.Active != nil {
			v.focusedTab = w.Active.ID
		}
	}
	return v
}

// readHandlers are the methods answered from the View. Each answers as
// the session's handler of the same method does, or nil to leave the
// call to the session.
var readHandlers = map[string]func(v *View, call *api.Call) *api.Reply{
	"workspace.list":   (*View).workspaceList,
	"workspace.get":    (*View).workspaceGet,
	"tab.list":         (*View).tabList,
	"tab.get":          (*View).tabGet,
	"pane.list":        (*View).paneList,
	"pane.get":         (*View).paneGet,
	"pane.current":     (*View).paneCurrent,
	"pane.layout":      (*View).paneLayout,
	"pane.edges":       (*View).paneEdges,
	"agent.list":       (*View).agentList,
	"agent.get":        (*View).agentGet,
	"session.snapshot": (*View).snapshot,
}

// targetID is the id a targeted call names.
func targetID(call *api.Call) string {
	if t, ok := call.Params.(protocol.Targeted); ok {
		return t.TargetID()
	}
	return ""
}

// space is the workspace with current id *id, all of them for nil; ok is
// false for an id the View does not know as given.
func (v *View) space(id *string) (first, end int, ok bool) {
	if id == nil {
		return 0, len(v.spaces), true
	}
	i, ok := v.wsByID[*id]
	return i, i + 1, ok
}

func (v *View) workspaceList(*api.Call) *api.Reply {
	out := make([]protocol.WorkspaceInfo, len(v.spaces))
	for i := range v.spaces {
		out[i] = v.spaces[i].info
	}
	return api.Done(protocol.WorkspaceList{Workspaces: out})
}

func (v *View) workspaceGet(call *api.Call) *api.Reply {
	i, ok := v.wsByID[targetID(call)]
	if !ok {
		return nil
	}
	return api.Done(protocol.WorkspaceInfoResult{Workspace: v.spaces[i].info})
}

func (v *View) tabList(call *api.Call) *api.Reply {
	first, end, ok := v.space(call.Params.(*protocol.TabListParams).WorkspaceID)
	if !ok {
		return nil
	}
	out := []protocol.TabInfo{}
	if first < end {
		for i := v.spaces[first].firstTab; i < v.spaces[end-1].tabEnd; i++ {
			out = append(out, v.tabs[i].info)
		}
	}
	return api.Done(protocol.TabList{Tabs: out})
}

func (v *View) tabGet(call *api.Call) *api.Reply {
	i, ok := v.tabByID[targetID(call)]
	if !ok {
		return nil
	}
	return api.Done(protocol.TabInfoResult{Tab: v.tabs[i].info})
}

func (v *View) paneList(call *api.Call) *api.Reply {
	first, end, ok := v.space(call.Params.(*protocol.PaneListParams).WorkspaceID)
	if !ok {
		return nil
	}
	out := []protocol.PaneInfo{}
	if first < end {
		panes := v.panes[v.spaces[first].firstPane:v.spaces[end-1].paneEnd]
		out = make([]protocol.PaneInfo, len(panes))
		for i, p := range panes {
			out[i] = p.info
		}
	}
	return api.Done(protocol.PaneList{Panes: out})
}

// pane is the pane with current id id, else (for "" and allowFocused)
// the focused pane; -1 when the View cannot say.
func (v *View) pane(id *string) int {
	if id != nil && *id != "" {
		if i, ok := v.paneByID[*id]; ok {
			return i
		}
		return -1
	}
	return v.focusedPane
}

func (v *View) paneGet(call *api.Call) *api.Reply {
	i, ok := v.paneByID[targetID(call)]
	if !ok {
		return nil
	}
	return api.Done(protocol.PaneInfoResult{Pane: v.panes[i].info})
}

func (v *View) paneCurrent(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if i < 0 {
		return nil
	}
	return api.Done(protocol.PaneCurrent{Pane: v.panes[i].info})
}

// tabOf is the tab holding panes[i].
func (v *View) tabOf(i int) *tabView {
	return &v.tabs[v.tabByID[v.panes[i].info.TabID]]
}

func (v *View) paneLayout(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
	}
	return api.Done(protocol.PaneLayout{Layout: v.tabOf(i).layout})
}

func (v *View) paneEdges(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
	}
	lay, id := &v.tabOf(i).layout, v.panes[i].info.PaneID
	area, r := rect(lay.Area), rect(lay.Area)
	for _, lp := range lay.Panes {
		if lp.PaneID == id {
			r = rect(lp.Rect)
		}
	}
	return api.Done(protocol.PaneEdges{Edges: protocol.PaneEdgesResult{
		PaneID: id,
		Left:   layout.AtEdge(area, r, layout.Left),
		Right:  layout.AtEdge(area, r, layout.Right),
		Up:     layout.AtEdge(area, r, layout.Up),
		Down:   layout.AtEdge(area, r, layout.Down),
		Layout: *lay,
	}})
}

func rect(r protocol.Rect) layout.Rect { return layout.Rect{X: r.X, Y: r.Y, W: r.Width, H: r.Height} }

// agents lists the panes hosting an agent, in workspace, tab and layout order.
func (v *View) agents() []protocol.AgentInfo {
	out := []protocol.AgentInfo{}
	for _, p := range v.panes {
		if p.agent != nil {
			out = append(out, *p.agent)
		}
	}
	return out
}

func (v *View) agentList(*api.Call) *api.Reply {
	return api.Done(protocol.AgentList{Agents: v.agents()})
}

// agentGet answers for a current pane id whose pane hosts an agent; a
// name, or any other form, is the session's to resolve (resolveAgent).
func (v *View) agentGet(call *api.Call) *api.Reply {
	i, ok := v.paneByID[targetID(call)]
	if !ok || v.panes[i].agent == nil {
		return nil
	}
	return api.Done(protocol.AgentInfoResult{Agent: *v.panes[i].agent})
}

func (v *View) snapshot(*api.Call) *api.Reply {
	snap := protocol.SessionSnapshot{
		Version:    protocol.Version,
		Protocol:   protocol.ProtocolVersion,
		Workspaces: make([]protocol.WorkspaceInfo, len(v.spaces)),
		Tabs:       make([]protocol.TabInfo, len(v.tabs)),
		Panes:      make([]protocol.PaneInfo, len(v.panes)),
		Layouts:    make([]protocol.PaneLayoutSnapshot, len(v.tabs)),
		Agents:     v.agents(),
	}
	for i := range v.spaces {
		snap.Workspaces[i] = v.spaces[i].info
	}
	for i := range v.tabs {
		snap.Tabs[i], snap.Layouts[i] = v.tabs[i].info, v.tabs[i].layout
	}
	for i, p := range v.panes {
		snap.Panes[i] = p.info
	}
	if v.focusedWS != "" {
		snap.FocusedWorkspaceID = protocol.Ptr(v.focusedWS)
		if v.focusedTab != "" {
			snap.FocusedTabID = protocol.Ptr(v.focusedTab)
		}
		if v.focusedPane >= 0 {
			snap.FocusedPaneID = protocol.Ptr(v.panes[v.focusedPane].info.PaneID)
		}
	}
	return api.Done(protocol.SessionSnapshotResult{Snapshot: snap})
}
