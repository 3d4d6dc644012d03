package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// idleClients attaches herdr's client (and before's, to a session of its
// own served by bin) and a tmux client, each in a PTY that plays the outer
// terminal, lets them settle, then counts each client process's context
// switches (voluntary and not, summed over its threads) over secs seconds
// in which nothing happens: the wakeups an idle client costs the machine.
func idleClients(bin, before, dir string, env []string, secs int, tmux func(...string) *exec.Cmd) {
	type side struct {
		name   string
		o      *outer
		v0, n0 int
	}
	client := func(b, session string) *outer {
		c := exec.Command(b, "--session", session)
		c.Env = append(slices.Clone(env), "TERM=xterm-256color")
		o := startOuter(c)
		o.typeUntil("", "╭", 10*time.Second) // the client is up: a framed pane
		return o
	}
	sides := []*side{{name: "herdr", o: client(bin, "gaps")}}
	if before != "" {
		srv := startSession(bin, "gapsidleb", env)
		atExit(func() { srv.Process.Kill(); srv.Wait() })
		// Listening before the client looks: else the client starts a
		// server of its own build.
		connect(filepath.Join(dir, "c/herdr/sessions/gapsidleb/herdr.sock")).Close()
		sides = append(sides, &side{name: "before", o: client(before, "gapsidleb")})
	}
	tc := tmux("new-session", "-s", "idlec", "/bin/sh")
	tc.Env = append(slices.Clone(env), "TERM=xterm-256color")
	t := startOuter(tc)
	t.typeUntil("", "[idlec]", 10*time.Second)
	sides = append(sides, &side{name: "tmux", o: t})
	time.Sleep(3 * time.Second) // start-up's queries answered, first frames drawn
	for _, s := range sides {
		s.v0, s.n0 = ctxtSwitches(s.o.cmd.Process.Pid)
	}
	time.Sleep(time.Duration(secs) * time.Second)
	fmt.Printf("idle attached client, context switches over %d s (all threads)\n", secs)
	fmt.Printf("%-8s %11s %14s %7s %9s\n", "", "voluntary", "nonvoluntary", "total", "per s")
	for _, s := range sides {
		v, n := ctxtSwitches(s.o.cmd.Process.Pid)
		tot := v - s.v0 + n - s.n0
		fmt.Printf("%-8s %11d %14d %7d %9.2f\n", s.name, v-s.v0, n-s.n0, tot, float64(tot)/float64(secs))
	}
	fmt.Println()
	for _, s := range sides {
		s.o.stop()
	}
}

// ctxtSwitches sums voluntary and nonvoluntary context switches over the
// threads of pid (/proc/PID/status counts only the main thread's).
func ctxtSwitches(pid int) (vol, nonvol int) {
	dirs, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	check(err)
	for _, p := range dirs {
		f, err := os.Open(p)
		if err != nil {
			continue // the thread ended
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "voluntary_ctxt_switches:"); ok {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				vol += n
			}
			if v, ok := strings.CutPrefix(sc.Text(), "nonvoluntary_ctxt_switches:"); ok {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				nonvol += n
			}
		}
		f.Close()
	}
	return vol, nonvol
}
