// Package tests is the end-to-end suite, one package per area so that
// `go test ./...` reports each as it ends and runs them side by side:
// tests/harness builds the herdr binaries (once per build, in the user's
// cache), starts real servers on private sockets under temporary homes,
// and drives them through the socket, the CLI and the interactive client
// in a PTY, validating every response against Herdr's reference schema
// (shared/spec) for the result types it knows and against the binary's
// own `herdr api schema --json` for the others (tests/harness/schema.go).
// The areas (tests/e2e, cli, readme, gorun, agents, dispatch, events,
// fleet, fleetagents, fleetloss, machines, web, plugins, handoff, lossless,
// persist, history, hardening, procs, protocol22, tui, screen, tuinav,
// layout, review), each a few seconds to some twenty, dot-import it. A test
// needing a program beyond Go, git and a POSIX shell skips, naming it,
// where it is absent. tests/bench holds the side-by-side throughput
// scripts.
package tests
