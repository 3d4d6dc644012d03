// Package machines is one area of the end-to-end suite (tests/doc.go):
// saved machines reached over ssh: machine add/list/remove,
// --machine, attaching to a remote.
package machines
