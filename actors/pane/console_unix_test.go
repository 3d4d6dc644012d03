//go:build unix

package pane

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/herdr-go/herdr/actors/procs"
)

// startTest starts argv on a console and reads its output in the background.
func startTest(t *testing.T, dir string, argv ...string) (console, *syncOut) {
	t.Helper()
	c, err := startConsole(consoleSpec{Argv: argv, Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH"), "PS1=$ ", "HERDR_AGENT=claude"}, Cols: 80, Rows: 24, reaper: newReaper()})
	if err != nil {
		t.Fatal(err)
	}
	out := &syncOut{ch: make(chan []byte, 1024)}
	go func() {
		for {
			b, err := c.ReadBlock(func() func() { return nil })
			if len(b) > 0 {
				out.ch <- bytes.Clone(b)
				putBlock(b)
			}
			if err != nil {
				close(out.ch)
				return
			}
		}
	}()
	t.Cleanup(func() { c.Hangup(); c.Kill() })
	return c, out
}

type syncOut struct {
	ch  chan []byte
	got []byte
}

// waitFor reads until want appears in the output.
func (o *syncOut) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for !bytes.Contains(o.got, []byte(want)) {
		select {
		case b, ok := <-o.ch:
			if !ok {
				t.Fatalf("output ended before %q: %q", want, o.got)
			}
			o.got = append(o.got, b...)
		case <-deadline:
			t.Fatalf("no %q in %q", want, o.got)
		}
	}
}

func eventually(t *testing.T, why string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", why)
		}
	}
}

func TestConsoleRunsAndReportsExit(t *testing.T) {
	c, out := startTest(t, t.TempDir(), "/bin/sh", "-c", "stty size; echo ready; exit 3")
	out.waitFor(t, "24 80")
	out.waitFor(t, "ready")
	if code := c.Wait(); code != 3 {
		t.Errorf("exit code = %d, want 3", code)
	}
	if tty := c.TTY(); !strings.HasPrefix(tty, "/dev/") {
		t.Errorf("TTY = %q, want a device path", tty)
	}
}

func TestConsoleStartFailsCleanly(t *testing.T) {
	if _, err := startConsole(consoleSpec{Argv: []string{"/nonexistent/shell"}, Cols: 80, Rows: 24, reaper: newReaper()}); err == nil {
		t.Fatal("starting a missing program must fail")
	}
}

// An interactive shell with job control puts a foreground command in a
// group of its own: ForegroundGroup follows it and the process table
// describes it.
func TestForegroundJobFacts(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c, out := startTest(t, dir, "/bin/sh", "-i")
	out.waitFor(t, "$ ")
	if fg := c.ForegroundGroup(); fg != c.Pid() {
		t.Errorf("idle shell: foreground group = %d, want the shell %d", fg, c.Pid())
	}
	if _, err := c.Write([]byte("exec 2>/dev/null; sleep 30\n")); err != nil {
		t.Fatal(err)
	}
	var job []procs.Entry
	eventually(t, "sleep in front", func() bool {
		fg := c.ForegroundGroup()
		if fg <= 0 || fg == c.Pid() {
			return false
		}
		job = procs.Host.Job(c.Pid(), fg)
		// Until it execs, the job is a copy of the shell.
		return len(job) == 1 && job[0].PID == fg && job[0].Name == "sleep"
	})
	pid := job[0].PID
	if argv := procs.Host.Argv(pid); !slices.Equal(argv, []string{"sleep", "30"}) {
		t.Errorf("argv = %q", argv)
	}
	if cwd := procs.Host.Cwd(pid); cwd != dir {
		t.Errorf("cwd = %q, want %q", cwd, dir)
	}
	if v, ok := procs.Host.Env(pid, "HERDR_AGENT"); !ok || v != "claude" {
		t.Errorf("env HERDR_AGENT = %q %v", v, ok)
	}
	if _, ok := procs.Host.Env(pid, "NOT_SET_ANYWHERE"); ok {
		t.Error("a missing variable must not be found")
	}
	if !slices.Contains(procs.Host.Session(c.Pid()), pid) {
		t.Errorf("session %d does not list its job %d", c.Pid(), pid)
	}
}

// Kill takes every process group of the terminal's session, including
// background jobs and processes that ignore SIGHUP.
func TestKillTakesTheWholeSession(t *testing.T) {
	c, out := startTest(t, t.TempDir(), "/bin/sh", "-c", "trap '' HUP; sleep 60 & sleep 60 & echo started; wait")
	out.waitFor(t, "started")
	var members []int
	eventually(t, "three session members", func() bool {
		members = procs.Host.Session(c.Pid())
		return len(members) >= 3
	})
	c.Hangup()
	time.Sleep(100 * time.Millisecond)
	for _, pid := range members {
		if unix.Kill(pid, 0) != nil {
			t.Fatalf("process %d went on hangup; the test needs one that ignores it", pid)
		}
	}
	c.Kill()
	c.Wait()
	eventually(t, "every member gone", func() bool {
		for _, pid := range members {
			if alive(pid) {
				return false
			}
		}
		return true
	})
}

// alive reports a live process; zombies (exited, not yet reaped by their
// parent) count as gone.
func alive(pid int) bool {
	if unix.Kill(pid, 0) != nil {
		return false
	}
	if data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := bytes.LastIndexByte(data, ')'); i > 0 && len(data) > i+2 && data[i+2] == 'Z' {
			return false
		}
	}
	return true
}
