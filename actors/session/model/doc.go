// Package model is the session's topology: which workspaces, tabs and panes
// exist, their ids and counters, their order, each tab's layout tree, zoom
// and focus. It has no actor code and no I/O: the session actor is its only
// writer, changes it within one message, and turns what changed into events
// and into messages to the entity actors afterwards. Everything here is
// tested on its own (model_test.go), including a random sequence of
// operations that must keep the invariants.
//
// It also carries the interactive client's sidebar state (UIState), which
// session.json keeps beside the topology.
//
// The model owns ids: counters only grow, so no id is reused within a
// session; a pane that moves to another workspace gets the next id there
// and keeps its former ones as aliases until it closes.
package model
