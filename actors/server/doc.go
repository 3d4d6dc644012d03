// Package server assembles a herdr server process: it loads the config,
// opens the log, binds the API socket, starts the actor system with the
// session and the gateway under one root, and tears everything down on
// server.stop or a signal. It also keeps the record of dismissed release
// notes and product announcements (dismissals.go, dismissed.json beside
// session.json), for the gateway to answer their dismiss methods.
//
// server.reload_config and server.reload_agent_manifests are the reloads
// actor's (reload.go, owner reloads): not topology, so not the session's.
// It loads the file or the catalog and, before it answers, hands each
// part to the actor that applies it: the clients, the commands actor, the
// worktrees actor, the policies, the dispatcher its [tasks]
// (dispatcher.Reconfigure), the tasks actor its retention, the loop its
// [notify], the machines actor its ssh command (machines.SetSSH), and the
// session what new panes start with (session.Reconfigure); a catalog goes
// on to every pane the View shows once the session has taken it. The keys
// read only here, as the server starts, are config.RestartRequired's
// ([fleet] among them: the fleet actor, fleet.go, joins with the section
// it started with).
package server
