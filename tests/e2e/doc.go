// Package e2e is one area of the end-to-end suite (tests/doc.go):
// the socket API's methods, the CLI over them and the
// server's own behaviour, end to end.
package e2e
