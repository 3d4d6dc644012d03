// Package readme is one area of the end-to-end suite (tests/doc.go):
// the README's commands and the help texts' examples, run as
// written.
package readme
