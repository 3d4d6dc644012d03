// Package server assembles a herdr server process: it loads the config,
// opens the log, binds the API socket, starts the actor system with the
// session and the gateway under one root, and tears everything down on
// server.stop or a signal.
package server
