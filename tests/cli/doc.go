// Package cli is one area of the end-to-end suite (tests/doc.go):
// the command line as a person runs it: tables, completion,
// daily commands, the front binary, config, MCP.
package cli
