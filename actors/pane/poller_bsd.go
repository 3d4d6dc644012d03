//go:build unix && !linux

package pane

import "golang.org/x/sys/unix"

// The poller's readiness set on macOS and the BSDs: a kqueue. Read
// filters are dispatched (EV_DISPATCH): one reported ready is disabled
// until rearmed (EV_ENABLE), so a pane is read by one goroutine at a time
// and one that is behind is not reported while it catches up.

type pollEvents [64]unix.Kevent_t

func pollCreate() (int, error) {
	kq, err := unix.Kqueue()
	if err == nil {
		unix.CloseOnExec(kq)
	}
	return kq, err
}

func pollCtl(pfd, fd, flags int) error {
	var k [1]unix.Kevent_t
	unix.SetKevent(&k[0], fd, unix.EVFILT_READ, flags)
	_, err := unix.Kevent(pfd, k[:], nil, nil)
	return err
}

func pollAdd(pfd, fd int) error    { return pollCtl(pfd, fd, unix.EV_ADD|unix.EV_DISPATCH) }
func pollArm(pfd, fd int) error    { return pollCtl(pfd, fd, unix.EV_ENABLE|unix.EV_DISPATCH) }
func pollRemove(pfd, fd int) error { return pollCtl(pfd, fd, unix.EV_DELETE) }

// wait returns how many descriptors are ready now, without waiting (the
// loop waits on Go's own poller for the kqueue to be readable).
func (e *pollEvents) wait(pfd int) (int, error) {
	return unix.Kevent(pfd, nil, e[:], &unix.Timespec{})
}

func (e *pollEvents) fd(i int) int { return int(e[i].Ident) }

// waitBlocking waits up to pollBlockWait for ready descriptors (the loop's
// way where Go's poller does not take the kqueue).
func (e *pollEvents) waitBlocking(pfd int) (int, error) {
	ts := unix.NsecToTimespec(int64(pollBlockWait))
	return unix.Kevent(pfd, nil, e[:], &ts)
}
