// Package persist is one area of the end-to-end suite (tests/doc.go):
// what survives a stop, a crash and a restart: the session
// file, the keeper, a server's lifecycle.
package persist
