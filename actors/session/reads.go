package session

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/agents"
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
	// panes are in workspace, tab and layout order. A pane's record alone
	// changes without a new View (its facts: output, title, scroll, at the
	// rate of its output), so each is an atomic pointer to an immutable
	// record, replaced whole; all else is fixed once published.
	panes []atomic.Pointer[paneView]
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
	cache              *tabCache // its layout, and what that was rendered from
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
// agent's status: viewDirty); otherwise only the records of panes told
// something outside the model (touch: their facts, their size) can have
// changed, and the rest of the last View is shared.
func (s *Session) publish(topo bool) {
	defer func() { clear(s.touched); s.touched = s.touched[:0] }()
	old := s.reads.cur.Load()
	if old == nil || topo || s.viewDirty {
		s.viewDirty = false
		s.reads.cur.Store(s.buildView())
		return
	}
	for _, p := range s.touched {
		i, ok := old.paneByID[p.ID]
		if !ok || s.terms[p.TermID] != p || old.rec(i).key.termID != p.TermID {
			continue // not shown: gone, or not yet placed (a model change)
		}
		if nv := s.paneView(p); nv != old.rec(i) {
			old.panes[i].Store(nv)
		}
	}
}

// rec is the record of panes[i].
func (v *View) rec(i int) *paneView { return v.panes[i].Load() }

// touch says p's facts or size changed outside the model: the next
// publish renders its records again if they show it.
func (s *Session) touch(p *paneRec) { s.touched = append(s.touched, p) }

// buildView renders the whole read model, in one walk: a pane's records
// and a tab's layout are rendered again only when what they show changed,
// and the id indexes are the last View's while the ids and their order are.
func (s *Session) buildView() *View {
	old := s.reads.cur.Load()
	tabs := 0
	for _, w := range s.m.Workspaces {
		tabs += len(w.Tabs)
	}
	v := &View{
		spaces:      make([]wsView, 0, len(s.m.Workspaces)),
		tabs:        make([]tabView, 0, tabs),
		panes:       make([]atomic.Pointer[paneView], len(s.terms)),
		focusedPane: -1,
	}
	focused, n := s.focusedPane(), 0
	same := old != nil // the ids, in the same order, as old's
	for i, w := range s.m.Workspaces {
		same = same && i < len(old.spaces) && old.spaces[i].info.WorkspaceID == w.ID
		wv := wsView{firstTab: len(v.tabs), firstPane: n}
		wsStatus, wsPanes := protocol.StatusUnknown, 0
		for _, t := range w.Tabs {
			j := len(v.tabs)
			same = same && j < len(old.tabs) && old.tabs[j].info.TabID == t.ID
			c := old.cacheOf(t, j, same)
			if c == nil || c.root != t.Root {
				c = &tabCache{t: t, root: t.Root, leaves: t.Root.Leaves()}
			}
			tv := tabView{firstPane: n}
			status := protocol.StatusUnknown
			for _, id := range c.leaves {
				p := s.terms[id]
				if p == nil { // only while a restore starts panes
					continue
				}
				if p == focused {
					v.focusedPane = n
				}
				pv := s.paneView(p)
				same = same && n < len(old.panes) && old.rec(n).info.PaneID == p.ID
				v.panes[n].Store(pv)
				n++
				status = worse(status, p.shown.PublicStatus())
			}
			tv.paneEnd = n
			tv.info = s.tabInfoOf(t, len(c.leaves), status)
			tv.cache = s.cachedLayout(c, t, v.panes[tv.firstPane:tv.paneEnd])
			wsStatus, wsPanes = worse(wsStatus, status), wsPanes+len(c.leaves)
			v.tabs = append(v.tabs, tv)
		}
		wv.info = s.workspaceInfoAt(w, i+1, wsPanes, wsStatus)
		wv.tabEnd, wv.paneEnd = len(v.tabs), n
		v.spaces = append(v.spaces, wv)
	}
	v.panes = v.panes[:n]
	if same && len(old.spaces) == len(v.spaces) && len(old.tabs) == len(v.tabs) && len(old.panes) == n {
		v.wsByID, v.tabByID, v.paneByID = old.wsByID, old.tabByID, old.paneByID
	} else {
		v.index()
	}
	if w := s.m.Focused; w != nil {
		v.focusedWS = w.ID
		if w.Active != nil {
			v.focusedTab = w.Active.ID
		}
	}
	return v
}

// index makes v's id indexes.
func (v *View) index() {
	v.wsByID = make(map[string]int, len(v.spaces))
	for i := range v.spaces {
		v.wsByID[v.spaces[i].info.WorkspaceID] = i
	}
	v.tabByID = make(map[string]int, len(v.tabs))
	for i := range v.tabs {
		v.tabByID[v.tabs[i].info.TabID] = i
	}
	v.paneByID = make(map[string]int, len(v.panes))
	for i := range v.panes {
		v.paneByID[v.rec(i).info.PaneID] = i
	}
}

// cacheOf is what tab t was last rendered from, if v had it: at index j
// while the order is the same, else by its id.
func (v *View) cacheOf(t *tab, j int, same bool) *tabCache {
	if v == nil {
		return nil
	}
	if !same {
		var ok bool
		if j, ok = v.tabByID[t.ID]; !ok {
			return nil
		}
	}
	if c := v.tabs[j].cache; c.t == t {
		return c
	}
	return nil
}

// worse is the more urgent of two statuses (rollup's order).
func worse(a, b protocol.AgentStatus) protocol.AgentStatus {
	if agents.Rank[b] > agents.Rank[a] {
		return b
	}
	return a
}

// tabCache is what a tab's records were last rendered from; the session
// alone reads it. A layout tree is never changed in place (model.Tx
// replaces it), so the same root is the same leaves.
type tabCache struct {
	t      *tab
	root   *layout.Node
	leaves []string
	// the layout below, and what else it was rendered from
	layout      protocol.PaneLayoutSnapshot
	area        layout.Rect
	zoomed      bool
	focused     string
	wsID, tabID string
	ids         []string // its panes' public ids
}

// cachedLayout is c, or a copy of it with t's layout rendered again when
// its tree, the area, zoom, focus or its panes' ids changed.
func (s *Session) cachedLayout(c *tabCache, t *tab, panes []atomic.Pointer[paneView]) *tabCache {
	same := c.ids != nil && c.area == s.m.Area && c.zoomed == t.Zoomed && c.focused == t.Focused &&
		c.wsID == t.WS.ID && c.tabID == t.ID && len(c.ids) == len(panes)
	for i := 0; same && i < len(panes); i++ {
		same = c.ids[i] == panes[i].Load().info.PaneID
	}
	if same {
		return c
	}
	n := &tabCache{t: t, root: c.root, leaves: c.leaves, layout: s.layoutSnapshot(t), area: s.m.Area, zoomed: t.Zoomed,
		focused: t.Focused, wsID: t.WS.ID, tabID: t.ID, ids: make([]string, len(panes))}
	for i := range panes {
		n.ids[i] = panes[i].Load().info.PaneID
	}
	return n
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
		from, to := v.spaces[first].firstPane, v.spaces[end-1].paneEnd
		out = make([]protocol.PaneInfo, to-from)
		for i := range out {
			out[i] = v.rec(from + i).info
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
	return api.Done(protocol.PaneInfoResult{Pane: v.rec(i).info})
}

func (v *View) paneCurrent(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if i < 0 {
		return nil
	}
	return api.Done(protocol.PaneCurrent{Pane: v.rec(i).info})
}

// tabOf is the tab holding panes[i].
func (v *View) tabOf(i int) *tabView {
	return &v.tabs[v.tabByID[v.rec(i).info.TabID]]
}

func (v *View) paneLayout(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
	}
	return api.Done(protocol.PaneLayout{Layout: v.tabOf(i).cache.layout})
}

func (v *View) paneEdges(call *api.Call) *api.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
	}
	lay, id := &v.tabOf(i).cache.layout, v.rec(i).info.PaneID
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
	for i := range v.panes {
		if p := v.rec(i); p.agent != nil {
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
	if !ok {
		return nil
	}
	p := v.rec(i)
	if p.agent == nil {
		return nil
	}
	return api.Done(protocol.AgentInfoResult{Agent: *p.agent})
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
		snap.Tabs[i], snap.Layouts[i] = v.tabs[i].info, v.tabs[i].cache.layout
	}
	for i := range v.panes {
		snap.Panes[i] = v.rec(i).info
	}
	if v.focusedWS != "" {
		snap.FocusedWorkspaceID = protocol.Ptr(v.focusedWS)
		if v.focusedTab != "" {
			snap.FocusedTabID = protocol.Ptr(v.focusedTab)
		}
		if v.focusedPane >= 0 {
			snap.FocusedPaneID = protocol.Ptr(v.rec(v.focusedPane).info.PaneID)
		}
	}
	return api.Done(protocol.SessionSnapshotResult{Snapshot: snap})
}
