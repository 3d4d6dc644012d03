package pane

import "golang.org/x/sys/unix"

// The poller's readiness set on Linux: an epoll instance. Descriptors are
// one-shot (EPOLLONESHOT): one reported ready is not reported again until
// rearmed, so a pane is read by one goroutine at a time and one that is
// behind is not reported while it catches up. A hang-up (EPOLLHUP) is
// always reported; the read then finds the end.

type pollEvents [64]unix.EpollEvent

func pollCreate() (int, error) { return unix.EpollCreate1(unix.EPOLL_CLOEXEC) }

func pollCtl(pfd, op, fd int) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLONESHOT, Fd: int32(fd)}
	return unix.EpollCtl(pfd, op, fd, &ev)
}

func pollAdd(pfd, fd int) error    { return pollCtl(pfd, unix.EPOLL_CTL_ADD, fd) }
func pollArm(pfd, fd int) error    { return pollCtl(pfd, unix.EPOLL_CTL_MOD, fd) }
func pollRemove(pfd, fd int) error { return pollCtl(pfd, unix.EPOLL_CTL_DEL, fd) }

// wait returns how many descriptors are ready now, without waiting (the
// loop waits on Go's own poller for the epoll descriptor to be readable).
func (e *pollEvents) wait(pfd int) (int, error) { return unix.EpollWait(pfd, e[:], 0) }

func (e *pollEvents) fd(i int) int { return int(e[i].Fd) }

// waitBlocking waits up to pollBlockWait for ready descriptors (the loop's
// way where Go's poller does not take the set).
func (e *pollEvents) waitBlocking(pfd int) (int, error) {
	return unix.EpollWait(pfd, e[:], int(pollBlockWait.Milliseconds()))
}
