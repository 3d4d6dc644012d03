// Package session is the topology authority of a herdr session: which
// workspaces, tabs and panes exist, their ids, order, layout trees, zoom
// and focus, changed only here and only through the model package, so a
// change that spans entities (a split, closing the last pane of a tab) is
// one step inside one message with no asks. It also keeps the read model
// (what every list, get and snapshot answers from, including the facts
// panes, entity actors and the agents actor told it) and the session file,
// with the interactive client's sidebar state that file keeps
// (client.ui_state.*), and, under [experimental] pane_history, each
// pane's lines across restarts in history/ beside the session file
// (history.go).
//
// Everything else is another actor's: the session resolves a request's
// target once and forwards it, already resolved, to the pane, workspace,
// tab, agents, clients or plugins actor that owns what the method is
// about (plugin calls and popup.open with the context only it knows:
// open.go). Another actor that needs a pane opened, focused or closed (the
// plugins actor, for its panes) asks with an api.OpenPane, FocusPane or
// ClosePane carrying the call, applied as one change. Pane, workspace and
// tab actors are its children (HandleFailure says what happens when one
// fails); the entity actors are started and stopped at the end of the
// message that made or removed their entity.
package session
