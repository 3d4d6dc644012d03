package protocol

import "golang.org/x/sys/unix"

// fdPeer is the user and process at the other end (SO_PEERCRED).
func fdPeer(fd int) (Peer, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Peer{}, err
	}
	return Peer{UID: int(cred.Uid), PID: int(cred.Pid)}, nil
}
