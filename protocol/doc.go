// Package protocol is the wire contract of herdr: the newline-delimited JSON
// envelopes, every params and result type with its JSON tags, the method
// table, error codes, public id formats, the key-combo grammar, socket path
// resolution, the transport, and a small client used by the CLI, the TUI and
// the tests.
//
// It imports nothing else from this module, so anything may depend on it.
package protocol
