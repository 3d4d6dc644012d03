// Package server assembles a herdr server process: it loads the config,
// opens the log, binds the API socket, starts the actor system with the
// session and the gateway under one root, and tears everything down on
// server.stop or a signal. It also keeps the record of dismissed release
// notes and product announcements (dismissals.go, dismissed.json beside
// session.json), for the gateway to answer their dismiss methods.
//
// server.reload_config is the session's; the actors spawned after it that
// apply a part of the file are handed the new one by a small relay
// (reload.go): the dispatcher its [tasks] (dispatcher.Reconfigure), the
// machines actor its ssh command (machines.SetSSH). The keys read only
// here, as the server starts, are config.RestartRequired's ([fleet] among
// them: the fleet actor, fleet.go, joins with the section it started with).
package server
