package kit

// The kinds of message the session takes besides a call and its own
// lifecycle. Each message type declares its kind with a marker method, so
// the session's Receive switches on a handful of kinds and each kind's
// dispatcher (actors/session/kinds.go) lists its members: a new message
// for the session joins a kind rather than growing Receive.

// TopologyAsk is another actor asking the session for one topology
// change on behalf of the call it carries (OpenPane, FocusPane,
// ClosePane, SetArea, the worktrees actor's checkouts): the session runs
// it as one transaction, like a call of its own, and answers the call.
type TopologyAsk interface {
	CallCarrier
	TopologyAsk()
}

// Fact is an actor the session supervises or feeds telling what changed
// about one pane, agent, workspace or tab; the session takes it into its
// model in one transaction and answers nothing.
type Fact interface {
	Fact()
}

// Keeping is a prompt to write down the session: the keeper asking for
// session.json or the kept lines, a live handoff asking for the export,
// the session itself for the View it held back.
type Keeping interface {
	Keeping()
}

// PassOn is an answer on its way through the session: the session adds
// what only it knows (the pane's record, the agent's record) or passes it
// to the next actor.
type PassOn interface {
	PassOn()
}

// TopologyAsk marks the kind.
func (*OpenPane) TopologyAsk() {}

// TopologyAsk marks the kind.
func (*FocusPane) TopologyAsk() {}

// TopologyAsk marks the kind.
func (*ClosePane) TopologyAsk() {}

// TopologyAsk marks the kind.
func (*SetArea) TopologyAsk() {}

// CarriedCall implements CallCarrier: a panic handling one answers its call.
func (m *SetArea) CarriedCall() *Call { return m.Call }
