// Package fleet is one area of the end-to-end suite (tests/doc.go):
// the fleet of machines the server keeps linked (a real sshd
// where installed): qualified ids, remote agents and events, the
// client's and the dashboard's view of them.
package fleet
