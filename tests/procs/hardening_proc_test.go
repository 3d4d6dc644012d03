//go:build linux

package procs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The server's processes: what a pane inherits from it, what a killed
// server leaves behind, and what a live handoff must prove before the old
// server lets go. Linux: the checks read /proc.

// startWithFiles is Home.Start with extra descriptors handed to the server
// from fd 3 on, as a shell or make hands its own to what it starts.
func startWithFiles(t *testing.T, h *Home, name string, files []*os.File) *Server {
	t.Helper()
	s := &Server{T: t, Home: h, Name: name, Socket: h.Socket(name), Env: h.Env, Out: &SyncBuffer{}, ExitCh: make(chan struct{})}
	s.Cmd = exec.Command(HerdrBin, "--session", name, "server")
	s.Cmd.Env, s.Cmd.Dir = h.Env, h.Dir
	s.Cmd.Stdout, s.Cmd.Stderr = s.Out, s.Out
	s.Cmd.ExtraFiles = files
	if err := s.Cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	go func() { s.Err = s.Cmd.Wait(); close(s.ExitCh) }()
	t.Cleanup(s.Stop)
	WaitFor(t, "the server to answer ping", func() bool {
		if s.Exited() {
			t.Fatalf("server exited before answering ping: %v\n%s", s.Err, s.Out.String())
		}
		return s.PingOnce()
	})
	return s
}

// shellPID is the pane's shell: its terminal session's id and leader.
func shellPID(t *testing.T, s *Server, pane string) int {
	t.Helper()
	info := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": pane}), "pane_process_info").ProcessInfo
	if info.ShellPID == nil {
		t.Fatalf("%s: no shell pid", pane)
	}
	return int(*info.ShellPID)
}

// procStat is the state and session id /proc gives for pid; ok is false
// once the process is gone.
func procStat(pid int) (state string, sid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	sid, _ = strconv.Atoi(fields[3])
	return fields[0], sid, true
}

// alive: the process exists and is not a zombie (a killed orphan waits for
// whichever init adopted it to collect it).
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != "Z" && state != "X"
}

// sessionProcs lists the live processes of terminal session sid whose
// command line is argv.
func sessionProcs(sid int, argv ...string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if _, s, _ := procStat(pid); s == sid && alive(pid) && string(cmdline) == strings.Join(argv, "\x00")+"\x00" {
			out = append(out, pid)
		}
	}
	return out
}

// killAtEnd kills pids when the test ends, whatever happened to them.
func killAtEnd(t *testing.T, pids func() []int) {
	t.Cleanup(func() {
		for _, pid := range pids() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// A pipe end the server inherits reaches no pane: a program in one sees
// only its terminal as 0, 1 and 2, and once the server is gone (killed:
// its panes' programs live on) nobody holds the pipe open.
func TestProc_PanesGetOnlyTheirTerminal(t *testing.T) {
	h := NewHome(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := startWithFiles(t, h, "fds", []*os.File{w})
	w.Close() // the server has its copy; the test keeps none
	s.CreateWorkspace(t, nil)
	shell := shellPID(t, s, "w1:p1")
	killAtEnd(t, func() []int { return sessionProcs(shell, "sleep", "7304") })

	s.Run(t, "w1:p1", "ls -l /proc/self/fd; echo fds-$((6*7))")
	text := s.WaitLine(t, "w1:p1", "fds-42")
	fds := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)\s(\d+) -> (\S+)`).FindAllStringSubmatch(text, -1) {
		fd, _ := strconv.Atoi(m[1])
		fds[fd] = m[2]
	}
	for fd := range 3 {
		if !strings.HasPrefix(fds[fd], "/dev/pts/") {
			t.Errorf("fd %d of a program in the pane is %q, want its terminal", fd, fds[fd])
		}
	}
	for fd, target := range fds {
		// Beyond its stdio, ls holds only the directory it lists.
		if fd >= 3 && !strings.HasPrefix(target, "/proc/") {
			t.Errorf("a program in the pane inherited fd %d -> %s:\n%s", fd, target, text)
		}
	}

	// A program that outlives the server, then the server killed: the
	// pipe's write end must be closed everywhere.
	s.Run(t, "w1:p1", "sleep 7304 & echo bg-$((6*7))")
	s.WaitLine(t, "w1:p1", "bg-42")
	WaitFor(t, "the background sleep", func() bool { return len(sessionProcs(shell, "sleep", "7304")) == 1 })
	s.Kill(t)
	if len(sessionProcs(shell, "sleep", "7304")) != 1 {
		t.Fatal("the background sleep went with the server; nothing left to check")
	}
	fd := int(r.Fd()) // once: Fd makes the file blocking again
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	n, err := syscall.Read(fd, make([]byte, 1))
	if n != 0 || err != nil {
		t.Fatalf("the pipe's read end got (%d, %v), want end of file: a pane's program holds the server's inherited write end", n, err)
	}
}

// waitSaved waits until session.json records the pane's shell as the
// process to end should the server die.
func waitSaved(t *testing.T, h *Home, name string, shell int) {
	t.Helper()
	path := filepath.Join(h.ConfigHome, "herdr", "sessions", name, "session.json")
	want := regexp.MustCompile(`"pid":\s*` + strconv.Itoa(shell) + `\b`)
	WaitFor(t, "session.json to record the pane's process", func() bool {
		b, _ := os.ReadFile(path)
		return want.Match(b)
	})
}

// fakeHeir reads a live handoff as a new server would (the header, every
// descriptor, the state), says "ready" and serves nothing: named
// *-exits it exits at once, else it lingers holding every descriptor. It
// writes its pid beside itself.
const fakeHeir = `package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.WriteFile(os.Args[0]+".pid", []byte(strconv.Itoa(os.Getpid())), 0o644)
	sock := 3
	head := make([]byte, 16)
	readFull(sock, head)
	want, size := int(binary.BigEndian.Uint32(head[4:])), int(binary.BigEndian.Uint64(head[8:]))
	got := 0
	oob := make([]byte, syscall.CmsgSpace(200*4))
	for got < want {
		_, oobn, _, _, err := syscall.Recvmsg(sock, make([]byte, 4), oob, 0)
		if err != nil {
			os.Exit(2)
		}
		msgs, _ := syscall.ParseSocketControlMessage(oob[:oobn])
		for _, m := range msgs {
			fds, _ := syscall.ParseUnixRights(&m)
			got += len(fds)
		}
	}
	readFull(sock, make([]byte, size))
	syscall.Write(sock, []byte("ready\n"))
	if strings.HasSuffix(filepath.Base(os.Args[0]), "-exits") {
		os.Exit(0)
	}
	time.Sleep(time.Hour)
}

func readFull(fd int, b []byte) {
	for len(b) > 0 {
		n, err := syscall.Read(fd, b)
		if err != nil || n <= 0 {
			os.Exit(2)
		}
		b = b[n:]
	}
}
`

// A program that reads the handoff and says "ready" without adopting a
// pane is not believed: the command fails saying why, the old server goes
// on serving every pane (the same shell, still read and written), and the
// impostor is gone, whether it exited or lingers (behind a wrapper).
func TestProc_HandoffToAnImpostorKeepsTheOldServer(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte(fakeHeir), 0o644); err != nil {
		t.Fatal(err)
	}
	lingers := filepath.Join(dir, "herdr-impostor")
	build := exec.Command("go", "build", "-o", lingers, src)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the impostor: %v\n%s", err, out)
	}
	exits := lingers + "-exits"
	if err := CopyFile(lingers, exits); err != nil {
		t.Fatal(err)
	}
	// The lingering one behind a shell that does not exec it: killing the
	// new process alone would leave it holding the socket.
	wrapper := filepath.Join(dir, "herdr-wrapper")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\n"+lingers+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	s := StartServer(t)
	StopHeir(t, s) // should the impostor be believed after all
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	shells := map[string]int{"w1:p1": shellPID(t, s, "w1:p1"), "w1:p2": shellPID(t, s, "w1:p2")}
	for i, impostor := range []string{exits, lingers} {
		name, exe := filepath.Base(impostor), impostor
		if impostor == lingers {
			exe = wrapper
		}
		_, stderr, code := s.CLI("server", "live-handoff", "--import-exe", exe)
		if code != 1 || !strings.Contains(stderr, "handoff_failed") || !strings.Contains(stderr, "this server goes on") {
			t.Fatalf("handoff to %s: exit %d, stderr %q; want exit 1 with handoff_failed", name, code, stderr)
		}
		t.Logf("handoff to %s: %s", name, strings.TrimSpace(stderr))
		if s.Exited() {
			t.Fatalf("the old server exited after a handoff to %s", name)
		}
		for pane, shell := range shells {
			if got := shellPID(t, s, pane); got != shell || !alive(shell) {
				t.Fatalf("after a handoff to %s, %s's shell is %d (alive: %v), was %d", name, pane, got, alive(shell), shell)
			}
			marker := "still-" + strconv.Itoa(i) + "-" + strings.TrimPrefix(pane, "w1:")
			s.Run(t, pane, "echo "+marker)
			s.WaitLine(t, pane, marker)
		}
		b, err := os.ReadFile(impostor + ".pid")
		if err != nil {
			t.Fatalf("%s did not run: %v", name, err)
		}
		pid, _ := strconv.Atoi(string(b))
		WaitFor(t, name+" to be gone", func() bool { return !alive(pid) })
	}
}

// A server killed outright leaves its panes' background jobs running
// (their shells go with the terminal); the next server for the session
// ends them before it restores it, even those that ignore SIGHUP, and
// only them: the restored pane's new shell lives.
func TestProc_ARestartedServerEndsWhatAKilledOneLeft(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "left")
	s.CreateWorkspace(t, nil)
	shell := shellPID(t, s, "w1:p1")
	left := func() []int {
		return slices.Concat(sessionProcs(shell, "sleep", "7302"), sessionProcs(shell, "sh", "-c", "sleep 7302 & sleep 7302"),
			sessionProcs(shell, "sh", "-c", `trap "" HUP; sleep 7302 & sleep 7302`))
	}
	killAtEnd(t, left)
	// Two jobs in the background, each a shell and two sleeps in one
	// process group; the second ignores SIGHUP.
	s.Run(t, "w1:p1", `sh -c 'sleep 7302 & sleep 7302' & sh -c 'trap "" HUP; sleep 7302 & sleep 7302' & echo started-$((6*7))`)
	s.WaitLine(t, "w1:p1", "started-42")
	WaitFor(t, "four sleeps", func() bool { return len(sessionProcs(shell, "sleep", "7302")) == 4 })
	waitSaved(t, h, "left", shell)

	s.Kill(t)
	before := left()
	if len(before) != 6 {
		t.Fatalf("%d of the pane's 6 background processes outlived the killed server; want them all (what the next server must end)", len(before))
	}

	s = h.Start(t, "left")
	if !Eventually(func() bool { return len(left()) == 0 }) {
		t.Fatalf("processes %v of the killed server's pane are still running after a new server started", left())
	}
	restored := shellPID(t, s, "w1:p1")
	if restored == shell || !alive(restored) {
		t.Fatalf("the restored pane's shell is %d (alive: %v); the old one was %d", restored, alive(restored), shell)
	}
	s.Run(t, "w1:p1", "echo restored-$((6*7))")
	s.WaitLine(t, "w1:p1", "restored-42")
}
