//go:build !linux && !darwin

package gateway

import "net"

// tryWrite takes nothing here (a named pipe has no non-blocking write):
// every line goes through the connection's writer.
func tryWrite(net.Conn, []byte) int { return 0 }
