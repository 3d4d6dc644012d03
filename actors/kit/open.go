package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Panes other actors open, focus and close: the actor keeps what a pane
// is for (the plugins actor: which plugin entrypoint it runs) and asks
// the session, with one message carrying the call, for the topology
// change, which the session applies as one change and answers the caller
// with (the message's sender). They live here, not in the session, so
// that the actors the session forwards calls to can send them back.

// Where an OpenPane opens its pane.
const (
	OpenSplit   = "split"   // a split of PaneID (nil: of WorkspaceID's focused pane, else the focused pane)
	OpenZoomed  = "zoomed"  // the same split, zoomed and focused
	OpenTab     = "tab"     // a new tab of WorkspaceID (nil: the focused workspace)
	OpenOverlay = "overlay" // a zoomed split of the focused pane, which gets focus and zoom back when it goes
)

// OpenPane asks the session to open a pane running Argv. Before it
// answers, the session tells Owner a PaneOpened carrying Tag.
type OpenPane struct {
	Call                *Call
	Where               string
	PaneID, WorkspaceID *string
	Direction           *string // a split's: right (default) or down
	Argv                []string
	Env                 map[string]string
	Cwd, Label          string
	Focus               bool
	// FailCode answers a program that cannot start.
	FailCode string
	Owner    *actor.PID
	Tag      any
	// Answer makes the caller's result from the new pane (nil: pane_info).
	Answer func(protocol.PaneInfo) protocol.Result
}

// PaneOpened tells an OpenPane's owner the pane's terminal and actor
// (which stops when the pane goes, however it goes).
type PaneOpened struct {
	Tag    any
	TermID string
	PID    *actor.PID
}

// FocusPane and ClosePane focus or close the pane of terminal TermID, an
// owner's record of a pane it opened; a pane gone meanwhile answers
// NotFound (nil: pane_not_found). Answer makes the caller's result from
// the pane (before it closes, for ClosePane).
type (
	FocusPane struct {
		Call     *Call
		TermID   string
		NotFound error
		Answer   func(protocol.PaneInfo) protocol.Result
	}
	ClosePane struct {
		Call     *Call
		TermID   string
		NotFound error
		Answer   func(protocol.PaneInfo) protocol.Result
	}
)

// CarriedCall implements CallCarrier: a panic handling one answers its call.
func (m *OpenPane) CarriedCall() *Call { return m.Call }

// CarriedCall implements CallCarrier.
func (m *FocusPane) CarriedCall() *Call { return m.Call }

// CarriedCall implements CallCarrier.
func (m *ClosePane) CarriedCall() *Call { return m.Call }
