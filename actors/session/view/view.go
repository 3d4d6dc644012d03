package view

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// ReadSide holds the newest View. The session is its only writer; any
// goroutine may read.
//
// It also counts the session's mailbox (it is the mailbox's middleware):
// a message is counted posted as it is sent and received once handled. A
// write's effects can reach the session as a message sent before the
// write is answered (a pane's facts after pane.report_metadata, which the
// pane answers): a read that finds such a message still waiting goes to
// the session, behind it, so a read after an answer sees that write.
type ReadSide struct {
	cur      atomic.Pointer[View]
	posted   atomic.Int64
	received atomic.Int64
	// waits are events.wait calls waiting for the session to catch up
	// (wait.go); pending counts them, so a message costs a load when none.
	waits   waiters
	pending atomic.Int32
}

// MailboxStarted implements actor.MailboxMiddleware.
func (r *ReadSide) MailboxStarted() {}

// MessagePosted implements actor.MailboxMiddleware: called before the
// message is queued.
func (r *ReadSide) MessagePosted(any) { r.posted.Add(1) }

// MessageReceived implements actor.MailboxMiddleware: called after the
// message was handled.
func (r *ReadSide) MessageReceived(any) {
	r.received.Add(1)
	r.wake()
}

// MailboxEmpty implements actor.MailboxMiddleware.
func (r *ReadSide) MailboxEmpty() {}

// caughtUp says every message sent to the session before the call was
// made has been handled (and so published).
func (r *ReadSide) caughtUp() bool {
	posted := r.posted.Load()
	return r.received.Load() >= posted
}

// NewReadSide returns a read side with nothing published: every read goes
// to the session until its first message is done.
func NewReadSide() *ReadSide { return &ReadSide{} }

// Read implements kit.Reader.
func (r *ReadSide) Read(call *kit.Call) *kit.Reply {
	if !r.caughtUp() {
		return nil
	}
	v := r.cur.Load()
	if v == nil {
		return nil
	}
	h, ok := handlers[call.Method]
	if !ok {
		return nil
	}
	return h(v, call)
}

// The gateway's connections find panes' and agents' targets here.
var _ kit.PaneFinder = (*ReadSide)(nil)

// PaneActor implements kit.PaneFinder: the actor of the pane call's
// target names, once every message sent to the session so far is handled
// (a pane closed or moved by one of them is not found here).
func (r *ReadSide) PaneActor(call *kit.Call) (*actor.PID, string) {
	if !r.caughtUp() {
		return nil, ""
	}
	v := r.cur.Load()
	if v == nil {
		return nil, ""
	}
	i, err := v.ResolvePane(targetID(call))
	if err != nil {
		return nil, ""
	}
	rec := v.Rec(i)
	return rec.PID, rec.Info.PaneID
}

// AgentTerm implements kit.PaneFinder, resolving as the session's route
// does for the agents actor's methods: a pane by any id form, an agent by
// the current id of the pane hosting it (its name, or another form, is the
// session's to resolve), once every message sent to the session so far is
// handled.
func (r *ReadSide) AgentTerm(call *kit.Call, t protocol.Target) (string, bool) {
	v := r.cur.Load()
	if v == nil || !r.caughtUp() {
		return "", false
	}
	id := targetID(call)
	switch t {
	case protocol.TargetNone:
		return "", true
	case protocol.TargetPane:
		i, err := v.ResolvePane(id)
		if err != nil {
			return "", false
		}
		return v.Rec(i).Info.TerminalID, true
	case protocol.TargetAgent:
		if i, ok := v.PaneByID[id]; ok && v.Rec(i).Agent != nil {
			return v.Rec(i).Info.TerminalID, true
		}
	}
	return "", false
}

// Workspace implements kit.PaneFinder: the record of the workspace call
// names, and its folder.
func (r *ReadSide) Workspace(call *kit.Call) (protocol.WorkspaceInfo, string, bool) {
	v := r.cur.Load()
	if v == nil || !r.caughtUp() {
		return protocol.WorkspaceInfo{}, "", false
	}
	i, err := v.ResolveWorkspace(targetID(call))
	if err != nil {
		return protocol.WorkspaceInfo{}, "", false
	}
	return v.Spaces[i].Info, v.Spaces[i].Cwd, true
}

// Tab implements kit.PaneFinder: the record of the tab call names.
func (r *ReadSide) Tab(call *kit.Call) (protocol.TabInfo, bool) {
	v := r.cur.Load()
	if v == nil || !r.caughtUp() {
		return protocol.TabInfo{}, false
	}
	i, err := v.ResolveTab(targetID(call))
	if err != nil {
		return protocol.TabInfo{}, false
	}
	return v.Tabs[i].Info, true
}

// Newest is the View last published, nil for none.
func (r *ReadSide) Newest() *View { return r.cur.Load() }

// Publish makes v the View reads answer from. v is not changed after,
// but for its panes' records (View.Panes).
func (r *ReadSide) Publish(v *View) {
	r.cur.Store(v)
	r.wake()
}

// Methods are the methods a ReadSide answers.
func Methods() []string {
	out := make([]string, 0, len(handlers))
	for name := range handlers {
		out = append(out, name)
	}
	return out
}

// View is one published state of the session's read model, every record
// already rendered. Nothing in it is written after it is published but
// the pane records' pointers; the next View shares what did not change.
type View struct {
	Spaces []Space
	Tabs   []Tab
	// Panes are in workspace, tab and layout order. A pane's record alone
	// changes without a new View (its facts: output, title, scroll, at the
	// rate of its output), so each is an atomic pointer to an immutable
	// record, replaced whole.
	Panes []atomic.Pointer[Pane]
	// by current public id, the index in Spaces, Tabs or Panes
	WSByID, TabByID, PaneByID map[string]int
	// Raw is each pane's raw id (model.Pane.Raw), beside Panes; Former
	// maps the ids panes had before moving workspaces to their index.
	// Both serve the id forms the model resolves (resolve.go).
	Raw                   []uint64
	Former                map[string]int
	FocusedPane           int // index in Panes, -1 for none
	FocusedWS, FocusedTab string
	// Area is the tab area in cells (the size commands are run with).
	Area layout.Rect
}

// Space is a workspace's record and where its tabs and panes are.
type Space struct {
	Info               protocol.WorkspaceInfo
	Cwd                string // the workspace's folder (a command's context)
	FirstTab, TabEnd   int
	FirstPane, PaneEnd int
}

// Tab is a tab's record, its layout, and where its panes are.
type Tab struct {
	Info               protocol.TabInfo
	Layout             *protocol.PaneLayoutSnapshot
	FirstPane, PaneEnd int
}

// Pane is a pane's rendered records.
type Pane struct {
	Info  protocol.PaneInfo
	Agent *protocol.AgentInfo // nil when it hosts no agent
	// PID is the pane's actor, for the actors that resolve a pane from
	// the View and then ask it something (its selection's text).
	PID *actor.PID
}

// Rec is the record of Panes[i].
func (v *View) Rec(i int) *Pane { return v.Panes[i].Load() }

// Index makes v's id indexes from its records.
func (v *View) Index() {
	v.WSByID = make(map[string]int, len(v.Spaces))
	for i := range v.Spaces {
		v.WSByID[v.Spaces[i].Info.WorkspaceID] = i
	}
	v.TabByID = make(map[string]int, len(v.Tabs))
	for i := range v.Tabs {
		v.TabByID[v.Tabs[i].Info.TabID] = i
	}
	v.PaneByID = make(map[string]int, len(v.Panes))
	for i := range v.Panes {
		v.PaneByID[v.Rec(i).Info.PaneID] = i
	}
}

// handlers are the methods answered from the View. Each answers as
// the session's handler of the same method does, or nil to leave the
// call to the session.
var handlers = map[string]func(v *View, call *kit.Call) *kit.Reply{
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
func targetID(call *kit.Call) string {
	if t, ok := call.Params.(protocol.Targeted); ok {
		return t.TargetID()
	}
	return ""
}

// space is the workspace with current id *id, all of them for nil; ok is
// false for an id the View does not know as given.
func (v *View) space(id *string) (first, end int, ok bool) {
	if id == nil {
		return 0, len(v.Spaces), true
	}
	i, ok := v.WSByID[*id]
	return i, i + 1, ok
}

func (v *View) workspaceList(*kit.Call) *kit.Reply {
	out := make([]protocol.WorkspaceInfo, len(v.Spaces))
	for i := range v.Spaces {
		out[i] = v.Spaces[i].Info
	}
	return kit.Done(protocol.WorkspaceList{Workspaces: out})
}

func (v *View) workspaceGet(call *kit.Call) *kit.Reply {
	i, ok := v.WSByID[targetID(call)]
	if !ok {
		return nil
	}
	return kit.Done(protocol.WorkspaceInfoResult{Workspace: v.Spaces[i].Info})
}

func (v *View) tabList(call *kit.Call) *kit.Reply {
	first, end, ok := v.space(call.Params.(*protocol.TabListParams).WorkspaceID)
	if !ok {
		return nil
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
	i, ok := v.TabByID[targetID(call)]
	if !ok {
		return nil
	}
	return kit.Done(protocol.TabInfoResult{Tab: v.Tabs[i].Info})
}

func (v *View) paneList(call *kit.Call) *kit.Reply {
	first, end, ok := v.space(call.Params.(*protocol.PaneListParams).WorkspaceID)
	if !ok {
		return nil
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

// pane is the pane with current id id, else (for "" and allowFocused)
// the focused pane; -1 when the View cannot say.
func (v *View) pane(id *string) int {
	if id != nil && *id != "" {
		if i, ok := v.PaneByID[*id]; ok {
			return i
		}
		return -1
	}
	return v.FocusedPane
}

func (v *View) paneGet(call *kit.Call) *kit.Reply {
	i, ok := v.PaneByID[targetID(call)]
	if !ok {
		return nil
	}
	return kit.Done(protocol.PaneInfoResult{Pane: v.Rec(i).Info})
}

func (v *View) paneCurrent(call *kit.Call) *kit.Reply {
	i := v.pane(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if i < 0 {
		return nil
	}
	return kit.Done(protocol.PaneCurrent{Pane: v.Rec(i).Info})
}

// tabOf is the tab holding panes[i].
func (v *View) tabOf(i int) *Tab {
	return &v.Tabs[v.TabByID[v.Rec(i).Info.TabID]]
}

func (v *View) paneLayout(call *kit.Call) *kit.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
	}
	return kit.Done(protocol.PaneLayout{Layout: *v.tabOf(i).Layout})
}

func (v *View) paneEdges(call *kit.Call) *kit.Reply {
	i := v.pane(call.Params.(*protocol.PaneOptionalTarget).PaneID)
	if i < 0 {
		return nil
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

// agentGet answers for a current pane id whose pane hosts an agent; a
// name, or any other form, is the session's to resolve (resolveAgent).
func (v *View) agentGet(call *kit.Call) *kit.Reply {
	i, ok := v.PaneByID[targetID(call)]
	if !ok {
		return nil
	}
	p := v.Rec(i)
	if p.Agent == nil {
		return nil
	}
	return kit.Done(protocol.AgentInfoResult{Agent: *p.Agent})
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

// Visible reports whether the pane of terminal termID is on screen: its
// workspace and tab are in front and no zoom hides it (brief modes of the
// client do not count), as pane.graphics.info reports it.
func (v *View) Visible(termID string) bool {
	for i := range v.Panes {
		if p := v.Rec(i); p.Info.TerminalID == termID {
			t := v.tabOf(i)
			return t.Info.Focused && (t.Layout == nil || !t.Layout.Zoomed || p.Info.Focused)
		}
	}
	return false
}

// Placement is where every pane is, in workspace, tab and layout order,
// and the tab on screen: what the agents actor places agents by (the
// session sends it when it changed).
func (v *View) Placement() agents.Placement {
	pl := agents.Placement{Panes: make([]agents.Place, 0, len(v.Panes)), FocusedWorkspace: v.FocusedWS, FocusedTab: v.FocusedTab}
	for i := range v.Panes {
		p := v.Rec(i)
		label := ""
		if p.Info.Label != nil {
			label = *p.Info.Label
		}
		pl.Panes = append(pl.Panes, agents.Place{TermID: p.Info.TerminalID, PaneID: p.Info.PaneID, TabID: p.Info.TabID, WorkspaceID: p.Info.WorkspaceID, Label: label, PID: p.PID})
	}
	return pl
}
