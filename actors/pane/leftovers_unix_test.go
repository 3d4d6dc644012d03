//go:build unix

package pane

import (
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/procs"
)

// fakeProbe is a process table: start stamps by pid, members by session,
// HERDR_SOCKET_PATH by pid.
type fakeProbe struct {
	stamps   map[int]string
	sessions map[int][]procs.Member
	sockets  map[int]string
}

func (f fakeProbe) startStamp(pid int) string { return f.stamps[pid] }
func (f fakeProbe) liveSessions(sids map[int]bool) map[int][]procs.Member {
	out := map[int][]procs.Member{}
	for sid, m := range f.sessions {
		if sids[sid] {
			out[sid] = m
		}
	}
	return out
}
func (f fakeProbe) env(pid int, key string) (string, bool) {
	v, ok := f.sockets[pid]
	return v, ok && key == "HERDR_SOCKET_PATH"
}

func detached(pids ...int) []procs.Member {
	out := make([]procs.Member, len(pids))
	for i, pid := range pids {
		out[i] = procs.Member{PID: pid}
	}
	return out
}

func TestOurSessions(t *testing.T) {
	const sock = "/run/herdr.sock"
	left := []Leftover{{Pid: 100, Start: "boot/500"}}
	for _, tt := range []struct {
		name  string
		probe fakeProbe
		left  []Leftover
		want  map[int][]int
	}{
		{"the leader alive with its start stamp: its whole session",
			fakeProbe{stamps: map[int]string{100: "boot/500"}, sessions: map[int][]procs.Member{100: detached(100, 101, 102)}},
			left, map[int][]int{100: {100, 101, 102}}},
		{"the pid used again by a process that started later: not ours",
			fakeProbe{stamps: map[int]string{100: "boot/9000"}, sessions: map[int][]procs.Member{100: detached(100, 101)}},
			left, map[int][]int{}},
		{"the same start time in another boot: not ours",
			fakeProbe{stamps: map[int]string{100: "otherboot/500"}, sessions: map[int][]procs.Member{100: detached(100)}},
			left, map[int][]int{}},
		{"the leader gone, a member carrying our socket: the session",
			fakeProbe{sessions: map[int][]procs.Member{100: detached(101, 102)}, sockets: map[int]string{102: sock}},
			left, map[int][]int{100: {101, 102}}},
		{"the leader gone, no member of ours: left alone",
			fakeProbe{sessions: map[int][]procs.Member{100: detached(101)}, sockets: map[int]string{101: "/elsewhere/herdr.sock"}},
			left, map[int][]int{}},
		{"a terminal still open on it (a server serves it): left alone",
			fakeProbe{stamps: map[int]string{100: "boot/500"}, sessions: map[int][]procs.Member{100: {{PID: 100, Attached: true}, {PID: 101}}}},
			left, map[int][]int{}},
		{"no stamp recorded (a platform that cannot tell): left alone",
			fakeProbe{stamps: map[int]string{100: ""}, sessions: map[int][]procs.Member{100: detached(100)}, sockets: map[int]string{100: sock}},
			[]Leftover{{Pid: 100}}, map[int][]int{}},
		{"pids 0 and 1 are never a session of ours",
			fakeProbe{stamps: map[int]string{1: "boot/1"}, sessions: map[int][]procs.Member{1: detached(1), 0: detached(5)}, sockets: map[int]string{5: sock}},
			[]Leftover{{Pid: 1, Start: "boot/1"}, {Pid: 0, Start: "boot/1"}}, map[int][]int{}},
		{"nothing left of it", fakeProbe{}, left, map[int][]int{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ourSessions(tt.left, sock, tt.probe)
			if got == nil {
				got = map[int][]int{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ourSessions = %v, want %v", got, tt.want)
			}
		})
	}
}

// startDetached starts argv in a session of its own with no terminal, as
// a pane's job is once its server has gone; its exit comes on the channel.
func startDetached(t *testing.T, argv ...string) (int, <-chan error) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd.Process.Pid, done
}

// signalOf is the signal that ended a process, or 0.
func signalOf(err error) syscall.Signal {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ws.Signal()
		}
	}
	return 0
}

// A real process under a pid recorded with another start stamp is not
// touched; recorded with its own, it is hung up, and killed when it
// ignores that.
func TestEndLeftovers(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pid, done := startDetached(t, "sleep", "60")
	stamp := procs.StartStamp(pid)
	if stamp == "" {
		t.Skip("no start stamps on this platform")
	}
	if n := EndLeftovers([]Leftover{{Pid: pid, Start: stamp + "0"}}, "/nowhere", quiet); n != 0 {
		t.Fatalf("a pid recorded with another start stamp: %d processes signalled, want none", n)
	}
	select {
	case err := <-done:
		t.Fatalf("the process under a recycled-looking pid was ended: %v", err)
	default:
	}
	if n := EndLeftovers([]Leftover{{Pid: pid, Start: stamp}}, "/nowhere", quiet); n != 1 {
		t.Fatalf("the recorded process: %d signalled, want 1", n)
	}
	if sig := signalOf(waitDone(t, done)); sig != syscall.SIGHUP {
		t.Fatalf("the recorded process ended by %v, want SIGHUP", sig)
	}

	deaf, done := startDetached(t, "sh", "-c", `trap "" HUP; exec sleep 60`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if argv := procs.Host.Argv(deaf); len(argv) > 0 && argv[0] == "sleep" {
			break // the trap is set: sh has exec'd
		}
		if time.Now().After(deadline) {
			t.Fatal("sh did not exec sleep")
		}
	}
	if n := EndLeftovers([]Leftover{{Pid: deaf, Start: procs.StartStamp(deaf)}}, "/nowhere", quiet); n != 1 {
		t.Fatalf("the process ignoring SIGHUP: %d signalled, want 1", n)
	}
	if sig := signalOf(waitDone(t, done)); sig != syscall.SIGKILL {
		t.Fatalf("the process ignoring SIGHUP ended by %v, want SIGKILL", sig)
	}
}

func waitDone(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the process did not exit")
		return nil
	}
}
