package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Reader answers a read from the newest snapshot its owner published,
// on the caller's goroutine: a list or get does not wait in the owner's
// mailbox behind writes. nil means it cannot answer this call from the
// snapshot (nothing published yet, a method it does not serve, an id in a
// form only the owner resolves): the caller sends the call to the owner
// as before, which answers it, errors included.
type Reader interface {
	Read(call *Call) *Reply
}

// PaneFinder finds, from the newest snapshot, the actor of the pane a call
// names by id (any form the session resolves), and the pane's current id,
// which the pane checks is still its own (PaneCall). A nil PID means the
// snapshot cannot say (nothing published, a message to the session still
// waiting, an id it does not know): the call goes through the session,
// which answers it, errors included.
type PaneFinder interface {
	PaneActor(call *Call) (pid *actor.PID, paneID string)
	// AgentTerm is the terminal of the pane a call for the agents actor
	// with target kind t names: a pane by any id form (TargetPane), an
	// agent by the current id of the pane hosting it (TargetAgent; names
	// are the session's), none for TargetNone. ok false: the session
	// resolves it.
	AgentTerm(call *Call, t protocol.Target) (termID string, ok bool)
	// Workspace and Tab are the records of the workspace or tab a call
	// names (any id form), for its actor (ok false: the session resolves
	// it).
	Workspace(call *Call) (info protocol.WorkspaceInfo, cwd string, ok bool)
	Tab(call *Call) (info protocol.TabInfo, ok bool)
}
