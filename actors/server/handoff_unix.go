//go:build unix

package server

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/herdr-go/herdr/protocol"
)

// The wire between the two servers, over a socket pair: a 16-byte header
// (magic, descriptor count, state length), the descriptors in chunks of
// at most fdChunk, each with a 4-byte count as its data (SCM_RIGHTS rides
// on data), then the state. The new server answers one line: "ready", or
// "fail: why".

const (
	handoffMagic = "HDH1"
	fdChunk      = 200 // under the kernel's limit of descriptors per message
)

// handoffSupported: Unix servers can pass descriptors.
const handoffSupported = true

// listenerFD is the listening socket's descriptor, for SCM_RIGHTS.
func listenerFD(l net.Listener) (int, error) {
	sc, ok := l.(syscall.Conn)
	if !ok {
		return 0, errors.New("the listener has no descriptor to pass")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	fd := -1
	if err := rc.Control(func(f uintptr) { fd = int(f) }); err != nil {
		return 0, err
	}
	return fd, nil
}

// startSuccessor starts exe with args as the new server, hands it fds and
// the state, and waits until it is ready and confirm agrees (or it fails,
// exits or times out). A new server that said ready but is not confirmed
// is killed, and gone, before this returns: this server must not resume
// accepting while it still holds the socket.
func startSuccessor(exe string, args []string, fds []int, state []byte, confirm func() error, log *slog.Logger) error {
	// Both ends close-on-exec before any other goroutine can start a
	// child (macOS has no SOCK_CLOEXEC; the fork lock covers the gap): the
	// new server gets pair[1] as fd 3 through ExtraFiles, and nothing else
	// may hold it, or its end would not close when the new server dies.
	syscall.ForkLock.RLock()
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(pair[0])
		unix.CloseOnExec(pair[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return err
	}
	ours := os.NewFile(uintptr(pair[0]), "handoff")
	theirs := os.NewFile(uintptr(pair[1]), "handoff-peer")
	defer ours.Close()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), handoffEnv+"=3")
	cmd.ExtraFiles = []*os.File{theirs}
	// Its own session, and no pipe back to this process, which is about
	// to exit: stdio is /dev/null; it logs to the server log.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		return fmt.Errorf("start %s: %w", exe, err)
	}
	log.Info("live handoff: new server started", "exe", exe, "pid", cmd.Process.Pid, "terminals", len(fds)-1, "state_bytes", len(state))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	answer := make(chan error, 1)
	go func() { answer <- sendHandoff(pair[0], fds, state) }()
	select {
	case err := <-answer:
		if err != nil {
			killSuccessor(cmd.Process)
			return err
		}
		return confirmSuccessor(cmd.Process, exited, confirm, log)
	case exit := <-exited:
		// A new server that refuses writes why, then exits: its exit can
		// win this race with its answer, which must not be lost. Its end
		// of the pair is closed now, so the answer (or EOF) comes at once.
		select {
		case err := <-answer:
			if err != nil {
				return fmt.Errorf("%w (the new server exited: %v)", err, exit)
			}
		case <-time.After(time.Second):
		}
		return fmt.Errorf("the new server exited before it was ready (%v)", exit)
	case <-time.After(handoffTimeout):
		killSuccessor(cmd.Process)
		return fmt.Errorf("the new server was not ready within %v", handoffTimeout)
	}
}

// confirmSuccessor runs confirm on a new server that said it was ready;
// one that exits meanwhile, or is not confirmed, has failed, and is
// killed and waited for (briefly: it is SIGKILLed).
func confirmSuccessor(proc *os.Process, exited <-chan error, confirm func() error, log *slog.Logger) error {
	confirmed := make(chan error, 1)
	go func() { confirmed <- confirm() }()
	select {
	case err := <-confirmed:
		if err == nil {
			return nil
		}
		log.Error("live handoff: the new server is not confirmed; killing it", "pid", proc.Pid, "err", err)
		killSuccessor(proc)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			log.Error("live handoff: the unconfirmed new server did not exit", "pid", proc.Pid)
		}
		return err
	case exit := <-exited:
		if exit == nil {
			return errors.New("the new server said it was ready, then exited (status 0) serving nothing")
		}
		return fmt.Errorf("the new server said it was ready, then exited (%v)", exit)
	}
}

// killSuccessor kills a new server that failed, with its process group
// (it leads its own session): a wrapper's child that got the listener
// must not go on accepting beside this server. The group is signalled
// only while the leader is not yet collected (Signal reports a process
// that Wait has taken as done): after that its id may be another's.
func killSuccessor(proc *os.Process) {
	if proc.Pid > 1 && proc.Signal(syscall.Signal(0)) == nil {
		unix.Kill(-proc.Pid, unix.SIGKILL)
	}
	proc.Kill()
}

// sendHandoff writes the header, descriptors and state, and reads the answer.
func sendHandoff(sock int, fds []int, state []byte) error {
	head := make([]byte, 16)
	copy(head, handoffMagic)
	binary.BigEndian.PutUint32(head[4:], uint32(len(fds)))
	binary.BigEndian.PutUint64(head[8:], uint64(len(state)))
	if err := writeAll(sock, head); err != nil {
		return err
	}
	for len(fds) > 0 {
		n := min(len(fds), fdChunk)
		count := binary.BigEndian.AppendUint32(nil, uint32(n))
		if err := unix.Sendmsg(sock, count, unix.UnixRights(fds[:n]...), nil, 0); err != nil {
			return fmt.Errorf("pass descriptors: %w", err)
		}
		fds = fds[n:]
	}
	if err := writeAll(sock, state); err != nil {
		return err
	}
	line := make([]byte, 0, 256)
	buf := make([]byte, 256)
	for !strings.Contains(string(line), "\n") {
		n, err := unix.Read(sock, buf)
		if n <= 0 || err != nil {
			return fmt.Errorf("the new server closed the handoff without an answer")
		}
		line = append(line, buf[:n]...)
	}
	if answer := strings.TrimSpace(string(line)); answer != "ready" {
		return errors.New(strings.TrimPrefix(answer, "fail: "))
	}
	return nil
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// readFull reads exactly len(b) bytes, carrying no descriptors.
func readFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Read(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		b = b[n:]
	}
	return nil
}

// receiveHandoff reads what the predecessor passes on descriptor sock.
func receiveHandoff(sock int) (*received, error) {
	reply := func(msg string) {
		writeAll(sock, []byte(msg+"\n"))
		unix.Close(sock)
	}
	fail := func(err error) (*received, error) {
		reply("fail: " + err.Error())
		return nil, err
	}
	head := make([]byte, 16)
	if err := readFull(sock, head); err != nil || string(head[:4]) != handoffMagic {
		return fail(fmt.Errorf("not a handoff from a compatible server (header %q, %v)", head[:4], err))
	}
	want, size := int(binary.BigEndian.Uint32(head[4:])), binary.BigEndian.Uint64(head[8:])
	var fds []int
	oob := make([]byte, unix.CmsgSpace(fdChunk*4))
	for len(fds) < want {
		count := make([]byte, 4)
		_, oobn, _, _, err := unix.Recvmsg(sock, count, oob, 0)
		if err != nil {
			return fail(fmt.Errorf("receive descriptors: %w", err))
		}
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) == 0 {
			return fail(fmt.Errorf("descriptors missing from the handoff"))
		}
		for _, m := range msgs {
			got, err := unix.ParseUnixRights(&m)
			if err != nil {
				return fail(err)
			}
			for _, fd := range got {
				unix.CloseOnExec(fd)
			}
			fds = append(fds, got...)
		}
	}
	if size > 1<<34 {
		return fail(fmt.Errorf("handoff state of %d bytes", size))
	}
	payload := make([]byte, size)
	if err := readFull(sock, payload); err != nil {
		return fail(fmt.Errorf("read state: %w", err))
	}
	st, err := decodeState(payload)
	if err != nil {
		return fail(err)
	}
	if len(fds) != st.descriptors() {
		return fail(fmt.Errorf("%d descriptors for %d terminals (and the dashboard: %v)", len(fds), len(st.Panes), st.Web != nil))
	}
	lf := os.NewFile(uintptr(fds[0]), "listener")
	l, err := net.FileListener(lf)
	lf.Close() // FileListener keeps its own copy
	if err != nil {
		return fail(fmt.Errorf("listener: %w", err))
	}
	r := &received{state: st, listener: protocol.AdoptListener(l), masters: map[string]*os.File{}, reply: reply}
	for i, p := range st.Panes {
		r.masters[p.TerminalID] = os.NewFile(uintptr(fds[i+1]), "/dev/ptmx")
	}
	if st.Web != nil {
		wf := os.NewFile(uintptr(fds[len(fds)-1]), "web-listener")
		wl, err := net.FileListener(wf)
		wf.Close()
		// The panes matter more: a dashboard that cannot be taken is
		// left out, and inherit says why.
		r.web, r.webErr = wl, err
	}
	return r, nil
}

// decodeState reads and checks a predecessor's state.
func decodeState(payload []byte) (*handoffState, error) {
	var st handoffState
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&st); err != nil {
		return nil, fmt.Errorf("handoff state unreadable: %w", err)
	}
	if st.Version != handoffVersion {
		return nil, fmt.Errorf("handoff state version %d, this binary reads version %d", st.Version, handoffVersion)
	}
	if p := st.ExpectedProtocol; p != nil && *p != protocol.ProtocolVersion {
		return nil, fmt.Errorf("expected protocol %d, this binary speaks %d", *p, protocol.ProtocolVersion)
	}
	if v := st.ExpectedVersion; v != nil && *v != protocol.Version {
		return nil, fmt.Errorf("expected version %s, this binary is %s", *v, protocol.Version)
	}
	return &st, nil
}

// descriptors is how many descriptors go with the state: the API
// listener, each pane's master, and the dashboard's listener if it runs.
func (st *handoffState) descriptors() int {
	n := 1 + len(st.Panes)
	if st.Web != nil {
		n++
	}
	return n
}
