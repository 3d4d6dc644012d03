package protocol

// Peer is the process at the other end of a socket connection, as the
// kernel reports it (SO_PEERCRED, LOCAL_PEERCRED and LOCAL_PEERPID). The
// server keeps its connection budget per peer process (actors/gateway);
// PID 0 means the platform named the user but not the process.
type Peer struct {
	UID, PID int
}
