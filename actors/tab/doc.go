// Package tab is the tab actor: one per tab, a child of the session. The
// session owns the tab's topology (its layout tree, zoom and focus, which
// must change atomically with the rest of the session); the tab actor owns
// its custom label and the fan-out of terminal sizes to its panes.
//
// After every change that moves the tab's rectangles the session tells the
// tab an Arrange: the size each of its panes should have, each with the
// pane's size revision. The tab resizes the panes whose size it has not
// sent yet; a burst of Arranges (a client being dragged to a new size)
// collapses to the first and the last, because the tab applies one at once
// and then only the newest of those that queued up meanwhile. Revisions
// make the panes drop a stale size from a tab a pane has just left.
package tab
