// Package integrations is the actor that answers integration.install,
// integration.uninstall and integration.list. It runs one call's file work at a time, on a
// goroutine of its own (two at once could interleave edits of one agent's
// settings file, or a list read a file half written), and queues the rest; Receive never touches a file. What
// is written where is package setup's, which the CLI also uses without a
// server (and so without this package's actor runtime).
package integrations
