// Package tui is herdr's interactive client: a Bubble Tea program that
// attaches to a server over its socket and draws the session — a sidebar of
// workspaces and agents, a tab bar, and the panes of the focused tab with
// their borders.
//
// The client keeps no model of its own. Structure and status come from
// session.snapshot, refreshed whenever events.subscribe reports a change;
// pane contents come from the screen stream (screen.subscribe), which
// pushes only the rows that changed. Every key binding is an API call, and
// all other keys go to the focused pane as pane.send_text. The three
// streams use three connections: requests, events and screens.
package tui
