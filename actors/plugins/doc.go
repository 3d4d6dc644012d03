// Package plugins is the plugins actor: it owns the plugin registry
// (package plugins at the top level reads manifests and writes the
// registry), answers the plugin.* methods, and runs plugin commands —
// actions, [[events]] hooks on matching bus events, [[startup]] hooks once
// the session is restored — on goroutines of its own, never in Receive,
// with a cap on commands in flight and a log of recent runs. Plugin panes
// are opened by the session, to which it forwards plugin.pane.open.
package plugins
