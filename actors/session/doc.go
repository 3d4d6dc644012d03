// Package session owns the structure of a herdr session: the ordered
// workspaces, their tabs, each tab's layout tree, focus, and public id
// allocation. It answers list/get/snapshot requests from its own model (the
// read model) and forwards pane requests, already resolved, to the pane
// actor that owns the terminal. Pane actors are its children.
//
// Workspaces and tabs are plain data inside this actor rather than actors
// of their own: they do no I/O, and keeping them here makes every
// cross-entity change (closing the last pane closes its tab and workspace,
// a split creates a pane and reshapes a tab) one atomic step with no asks.
package session
