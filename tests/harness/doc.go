// Package harness is what the end-to-end suite's areas (tests/*/) share:
// the herdr binaries built once per build (Main), throw-away homes and the
// servers started in them, socket and CLI calls checked against the
// schema, the interactive client on a PTY, and the fixtures more than one
// area uses. Every area imports it with a dot import, so a test reads as
// it did when the suite was one package.
package harness
