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
// pane answers): a call that finds such a message still waiting waits
// here until the session has handled it (AfterCaughtUp, wait.go), so a
// read after an answer sees that write.
//
// shown counts the messages whose effects the published View shows:
// every one received, but while the session owes a View (Records holds
// a fact's publish back for the messages queued behind it, Owe) the
// count stops, and calls wait for the View that is owed.
type ReadSide struct {
	cur      atomic.Pointer[View]
	posted   atomic.Int64
	received atomic.Int64
	shown    atomic.Int64
	owed     atomic.Bool
	// waits are the calls waiting for the session to catch up (wait.go);
	// pending counts them, so a message costs a load when none.
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
	if n := r.received.Add(1); !r.owed.Load() {
		r.shown.Store(n)
	}
	r.wake()
}

// MessageFailed counts a message that panicked handled, with the View
// as it is: what the session owed waits for its next message, and reads
// must not wait for that.
func (r *ReadSide) MessageFailed() {
	r.owed.Store(false)
	r.MessageReceived(nil)
}

// Owe says whether the View published shows the message being handled
// (owed: not yet, the session publishes once the messages queued behind
// it are handled).
func (r *ReadSide) Owe(owed bool) { r.owed.Store(owed) }

// Hold says the session may hold back the View of the message it is
// handling (a fact's: view.Records.Publish's later): more messages are
// queued behind it, and no call waits for that message (one given
// after it was posted), which would otherwise wait for the View owed,
// behind all of them.
func (r *ReadSide) Hold() bool {
	handling := r.received.Load() + 1
	if r.posted.Load() <= handling {
		return false
	}
	if r.pending.Load() == 0 {
		return true
	}
	r.waits.mu.Lock()
	defer r.waits.mu.Unlock()
	for _, w := range r.waits.list {
		if w.mark <= handling {
			return false
		}
	}
	return true
}

// MailboxEmpty implements actor.MailboxMiddleware.
func (r *ReadSide) MailboxEmpty() {}

// caughtUp says every message sent to the session before the call was
// made has been handled (and so published).
func (r *ReadSide) caughtUp() bool {
	posted := r.posted.Load()
	return r.shown.Load() >= posted
}

// NewReadSide returns a read side with nothing published: every call
// waits for the session's first message (a restore) to be done.
func NewReadSide() *ReadSide { return &ReadSide{} }

// A connection routes the session's calls here.
var _ kit.Router = (*ReadSide)(nil)

// Routes implements kit.Router.
func (r *ReadSide) Routes(m protocol.Method) bool { return Routes(m) }

// Route implements kit.Router: from the newest View once every message
// sent to the session so far is handled (a pane closed, moved or told
// something by one of them shows).
func (r *ReadSide) Route(call *kit.Call, m protocol.Method, o kit.Owners) (kit.Routed, bool) {
	if !r.caughtUp() {
		return kit.Routed{}, false
	}
	v := r.cur.Load()
	if v == nil {
		return kit.Routed{}, false
	}
	return v.Route(call, m, o), true
}

// RouteNow implements kit.Router.
func (r *ReadSide) RouteNow(call *kit.Call, m protocol.Method, o kit.Owners) kit.Routed {
	v := r.cur.Load()
	if v == nil { // only before the session started: AfterCaughtUp waits for a View
		return failed(protocol.Errorf(protocol.CodeInternal, "%s: the session has published nothing yet", call.Method))
	}
	return v.Route(call, m, o)
}

// Newest is the View last published, nil for none.
func (r *ReadSide) Newest() *View { return r.cur.Load() }

// Publish makes v the View reads answer from. v is not changed after,
// but for its panes' records (View.Panes).
func (r *ReadSide) Publish(v *View) {
	r.cur.Store(v)
	r.wake()
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
	// ByTerm is the index in Panes of each terminal id.
	ByTerm map[string]int
	// Raw is each pane's raw id (model.Pane.Raw), beside Panes; Former
	// maps the ids panes had before moving workspaces to their index.
	// Both serve the id forms the model resolves (resolve.go).
	Raw                   []uint64
	Former                map[string]int
	FocusedPane           int // index in Panes, -1 for none
	FocusedWS, FocusedTab string
	// Area is the tab area in cells (the size commands are run with).
	Area layout.Rect
	// Manifests are the agent manifests panes detect with (nil for none
	// loaded).
	Manifests []protocol.AgentManifestInfo
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
	Info   protocol.TabInfo
	Layout *protocol.PaneLayoutSnapshot
	// Root is its layout tree (never changed in place), whose leaves are
	// terminal ids.
	Root               *layout.Node
	FirstPane, PaneEnd int
}

// Pane is a pane's rendered records.
type Pane struct {
	Info  protocol.PaneInfo
	Agent *protocol.AgentInfo // nil when it hosts no agent
	// PID is the pane's actor, for the actors that resolve a pane from
	// the View and then ask it something (its selection's text).
	PID *actor.PID
	// Shown is what the agents actor shows of its agent (its name, its
	// state, hook authority), the record's own (never changed; read it
	// through Showing), Command the command it was started with.
	Shown   *agents.Shown
	Command []string
}

// Showing is what p shows of its agent (nothing for a record made
// without it).
func (p *Pane) Showing() *agents.Shown {
	if p.Shown == nil {
		return noShown
	}
	return p.Shown
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
	v.ByTerm = make(map[string]int, len(v.Panes))
	for i := range v.Panes {
		v.PaneByID[v.Rec(i).Info.PaneID] = i
		v.ByTerm[v.Rec(i).Info.TerminalID] = i
	}
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
