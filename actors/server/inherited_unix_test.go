//go:build unix

package server

import (
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// inheritedPipe is a pipe whose ends are not close-on-exec, as those a
// server inherits from the shell that starts it.
func inheritedPipe(t *testing.T) [2]int {
	t.Helper()
	var p [2]int
	syscall.ForkLock.Lock() // no child of another test may get them
	defer syscall.ForkLock.Unlock()
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(p[0]); unix.Close(p[1]) })
	return p
}

func closeOnExec(t *testing.T, fd int) bool {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.FD_CLOEXEC != 0
}

func TestInheritedDescriptorsCloseOnExec(t *testing.T) {
	for name, mark := range map[string]func(){"closeInheritedOnExec": closeInheritedOnExec, "markListedOnExec": func() { markListedOnExec(fdDir) }} {
		p := inheritedPipe(t)
		if closeOnExec(t, p[0]) || closeOnExec(t, p[1]) {
			t.Fatal("a pipe made without O_CLOEXEC is close-on-exec")
		}
		mark()
		if !closeOnExec(t, p[0]) || !closeOnExec(t, p[1]) {
			t.Errorf("%s left an inherited pipe open across exec", name)
		}
		if closeOnExec(t, 2) {
			t.Errorf("%s marked stderr close-on-exec", name)
		}
	}
}
