package gateway

import "net"

// peerGone cannot tell a half-close from a full close here; waits then end
// by their own timeout.
func peerGone(net.Conn) bool { return false }
