// Package agents is one area of the end-to-end suite (tests/doc.go):
// coding agents: their detection, states and commands.
package agents
