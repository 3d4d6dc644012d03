// Package plugins is the plugins actor: it owns the plugin registry
// (package plugins at the top level reads manifests and writes the
// registry), answers the plugin.* methods, and runs plugin commands —
// actions, [[events]] hooks on matching bus events, [[startup]] hooks once
// the session is restored — on goroutines of its own, never in Receive,
// with a cap on commands in flight (hooks beyond it wait in a bounded FIFO
// queue; one beyond the queue is dropped and counted in the log) and a log
// of recent runs. Its stop kills every running command with its process
// group, so none outlives the server. Plugin panes
// are opened by the session, to which it forwards plugin.pane.open (and
// the session hands popups on to the clients actor). A ctrl-click on a URL
// that a [[link_handlers]] pattern matches is an action invoked by the
// interactive client with clicked_url and link_handler_id in its context.
package plugins
