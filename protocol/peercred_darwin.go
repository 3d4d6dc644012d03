package protocol

import "golang.org/x/sys/unix"

// fdPeer is the user (LOCAL_PEERCRED) and process (LOCAL_PEERPID) at the
// other end; a process the kernel does not name is left 0.
func fdPeer(fd int) (Peer, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return Peer{}, err
	}
	pid, _ := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	return Peer{UID: int(cred.Uid), PID: pid}, nil
}
