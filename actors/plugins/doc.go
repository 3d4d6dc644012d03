// Package plugins is the plugins actor: it owns the plugin registry
// (package plugins at the top level reads manifests and writes the
// registry), answers the plugin.* methods, and runs plugin commands —
// actions, [[events]] hooks on matching bus events (their context is what
// the event says: ids, labels, a pane's agent and status), [[startup]]
// hooks once the session is restored, not after a live handoff — on
// goroutines of its own, never in Receive,
// with a cap on commands in flight (hooks beyond it wait in a bounded FIFO
// queue; one beyond the queue is dropped and counted in the log) and a log
// of recent runs. Its stop kills every running command with its process
// group, so none outlives the server. plugin.action.invoke and
// plugin.pane.* come from the gateway; their context, or the pane they
// name, is read from the session's newest View (calls.go). The actor keeps which terminal runs which
// plugin pane entrypoint (forgotten when the pane's actor stops) and asks
// the session to open, focus or close it (api.OpenPane, FocusPane,
// ClosePane), which answers the caller; a popup goes to the clients
// actor, which owns it (panes.go). A ctrl-click on a URL
// that a [[link_handlers]] pattern matches is an action invoked by the
// interactive client with clicked_url and link_handler_id in its context.
// command.invoke comes from the commands actor, which resolves its
// context, as a Command (command.go), and runs here: a plugin action, a shell
// [[keys.command]] (in its own process group for at most 10 minutes,
// killed at stop), a popup through the clients actor, a pane through the
// session.
package plugins
