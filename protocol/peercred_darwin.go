package protocol

import "golang.org/x/sys/unix"

// fdPeerUID is the user id of the process at the other end (LOCAL_PEERCRED).
func fdPeerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
