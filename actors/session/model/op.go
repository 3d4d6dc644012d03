package model

import "github.com/herdr-go/herdr/protocol"

// An operation is one topology write as a method of Tx (ops_*.go): it
// takes the call's params, checks everything it can before it writes, and
// returns its answer, the events it caused and the effects the session
// must apply once the transaction commits, as values (Out). It never
// sends, starts or stops anything itself; the session hands Out to its
// transaction, which applies it on commit and drops it on discard.
//
// A failing operation returns its error before its first write, so the
// model is left as it was without a discard. Its params are the call's,
// validated when they were decoded (protocol.DecodeParams).

// Out is what an operation did beside the topology.
type Out struct {
	Events  []Event
	Effects []Effect
}

// Event is an event to publish once the change commits, stamped with the
// fields subscribers filter on, as they were when it happened.
type Event struct {
	Data   protocol.EventData
	Fields Fields
}

// Fields are the ids and label an event is stamped with (the bus's
// events.Fields, which this package does not import).
type Fields struct {
	WorkspaceID, TabID, PaneID, TermID, Label string
	Revision                                  uint64
}

// A Subject is what an event is about: a *Workspace, *Tab or *Pane.
type Subject interface{ subject() }

func (*Workspace) subject() {}
func (*Tab) subject()       {}
func (*Pane) subject()      {}

// An Effect is something the session does outside the model once the
// transaction commits.
type Effect interface{ effect() }

type (
	// Arrange says a tab's rectangles may have moved: its layout is
	// published and its panes resized.
	Arrange struct{ Tab *Tab }
	// TellIDs tells a pane its public ids and label, which it stamps its
	// own events with.
	TellIDs struct{ Pane *Pane }
	// TellRightClick tells a pane what right-clicking it does.
	TellRightClick struct{ Pane *Pane }
	// Start starts the actor of a new workspace or tab.
	Start struct{ Entity Subject }
	// Retire stops the actor of the workspace or tab with this id.
	Retire struct{ ID string }
)

func (Arrange) effect()        {}
func (TellIDs) effect()        {}
func (TellRightClick) effect() {}
func (Start) effect()          {}
func (Retire) effect()         {}

// Env is what an operation needs from outside the topology: how records
// render (with what each pane last told the session), and what a pane
// reported of its folder. The session implements it.
type Env interface {
	WorkspaceInfo(w *Workspace) protocol.WorkspaceInfo
	TabInfo(t *Tab) protocol.TabInfo
	PaneInfo(p *Pane) protocol.PaneInfo
	Layout(t *Tab) protocol.PaneLayoutSnapshot
	// Fields are the event fields of a subject as it is now.
	Fields(s Subject) Fields
	// Folder is where p's foreground process is, "" when unknown.
	Folder(p *Pane) string
	// AutoLabel is the label a workspace made in cwd shows without one.
	AutoLabel(cwd string) string
}

// emit records an event about s (nil: no fields), stamped now.
func (o *Out) emit(env Env, d protocol.EventData, s Subject) {
	var f Fields
	if s != nil {
		f = env.Fields(s)
	}
	o.Events = append(o.Events, Event{Data: d, Fields: f})
}

// do records an effect.
func (o *Out) do(e Effect) { o.Effects = append(o.Effects, e) }

func reason(r string) *string { return &r }
