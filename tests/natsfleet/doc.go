// Package natsfleet tests the fleet on NATS end to end (issue 48): herdr
// servers as separate processes with homes of their own, one of them
// running the embedded hub, the others joining it; fleet.status on each,
// calls for a member's qualified ids and their errors, a member with the
// wrong password refused, and the light front linking no NATS server.
package natsfleet
