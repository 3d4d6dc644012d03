// Package model is the session's topology: which workspaces, tabs and panes
// exist, their ids and counters, their order, each tab's layout tree, zoom
// and focus. It has no actor code and no I/O: the session actor is its only
// writer. Every write goes through a transaction (Tx, tx.go) that journals
// what it replaced: the session opens one per message and commits it, or
// discards it when the change fails or panics half-way, so nothing
// half-applied is ever published or saved. The fields are unexported, so
// no other package can write them: it reads them through getters
// (read.go); tx_test.go checks that nothing writes through what a getter
// hands out (a slice, the tokens map, a layout tree). Everything here is tested on its own, including random sequences
// of operations that must keep the invariants and that a discard must
// undo exactly.
//
// The writes a call makes (a layout edit, a move, a rename, a close) are
// operations of a Tx (ops_*.go): they take the call's params, check
// before they write, and return the answer, the events and the effects
// the session applies once the transaction commits, as values (Out,
// op.go); what they need from outside the topology (how records render,
// a pane's folder) comes through Env. A call that starts panes is split
// around the start, which is the session's: the model checks it (the
// folder and program checks come in as Starts), places the panes and
// returns them to start (Placed), and finishes the call once they run
// (ops_create.go; layout.apply, ops_apply.go; the panes other actors open
// and the overlays, whose covered pane and zoom the model keeps,
// ops_open.go; the worktree checkouts, ops_worktree.go; a restore's
// failed panes and labels, ops_restore.go); closing stops panes and
// retires entities by effects (ops_close.go).
//
// It also says how session.json keeps the interactive client's sidebar
// state (UIState), which is the clients actor's, not the model's: the
// keeper writes it beside the topology.
//
// The model owns ids: counters only grow, so no id is reused within a
// session; a pane that moves to another workspace gets the next id there
// and keeps its former ones as aliases until it closes.
package model
