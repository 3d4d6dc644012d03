// Package commands holds the commands actor, which answers command.invoke
// without entering the session's mailbox: it resolves the workspace, tab
// and pane the command runs with from the session's published read side
// (view.ReadSide, once that shows every message the session was sent
// before the call), has a selection's text read by its pane
// (pane.ReadSelection, answered back here as SelectionRead), finds the
// [[keys.command]] entry in the configuration it was given (the reloads
// actor tells it a reload, config.Reloaded) and hands the command to the plugins actor, which runs it and
// answers the caller (actors/plugins/command.go). The links panes find
// for pane.link.activate come here too (pane.LinkFound: the server's pane
// runtime names this actor), and go on to the plugins actor with the
// clicked pane's context. It owns no topology.
package commands
