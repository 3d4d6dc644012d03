// Package tests holds the end-to-end tests: they build the herdr binary
// once, start real servers on private sockets under temporary homes, and
// drive them through the socket, the CLI and the interactive client in a
// PTY, validating every response: against Herdr's reference schema
// (shared/spec) for the result types it knows, against the binary's own
// `herdr api schema --json` for the others (schema_test.go). tests/bench
// holds the side-by-side throughput script.
package tests
