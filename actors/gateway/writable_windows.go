package gateway

import "net"

// socketWritable: a named pipe does not say; it counts as writable.
func socketWritable(net.Conn) bool { return true }
