// Package fleetloss is one area of the end-to-end suite (tests/doc.go):
// the fleet when a machine is lost and comes back, and two
// machines on one host.
package fleetloss
