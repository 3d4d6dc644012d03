// Package protocol22 is one area of the end-to-end suite (tests/doc.go):
// Herdr's protocol 22 and the wire: the reference schema,
// pipelined requests, legacy ids.
package protocol22
