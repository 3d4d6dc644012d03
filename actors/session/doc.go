// Package session is the topology authority of a herdr session: which
// workspaces, tabs and panes exist, their ids, order, layout trees, zoom
// and focus. Only topology writes enter its mailbox, and each runs as one
// transaction (txn.go) over the model (package model): the model's
// operations check a call, change the topology and return their answer,
// events and effects as values; settle commits them and applies the
// effects once, in a fixed order, and abandon drops them, so a call that
// fails leaves nothing. A call that starts panes is placed by the model,
// started here inside the message (panes.Spawner, spawn.go) and finished
// by the model, so a pane that cannot start fails its call.
//
// Beside the topology the session holds its read side's records
// (view.Records: each terminal's actor, facts, agent and size), which
// render every record and publish a view.View after each change, before
// the answer and the events go out. Every read, and every call whose
// owner is a pane, the agents actor, a workspace or a tab, is answered or
// routed from the newest View without entering the session's mailbox; one
// sent here anyway is answered internal_error naming it.
//
// Other actors ask for a topology change with one message carrying the
// call (kit.TopologyAsk: kit.OpenPane, FocusPane, ClosePane, SetArea;
// worktrees.OpenCheckout, CloseCheckout), and tell the session what
// changed (kit.Fact: a pane's facts or end, what the agents actor shows, a
// workspace's or tab's record); the keeper asks for the session file
// (kit.Keeping, persist.go). Receive switches on those kinds (kinds.go).
// docs/ARCHITECTURE.md tells who owns what around it.
package session
