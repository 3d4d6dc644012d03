// Package herdr095 is one area of the end-to-end suite (tests/doc.go):
// Herdr 0.9.5 on the wire — the version a client and its plugins see,
// Herdr's refusals where ours used to answer, the methods and
// capabilities 0.9.1–0.9.5 added, and a recorded 0.9.5 conversation
// replayed against the real server (replay_test.go).
package herdr095
