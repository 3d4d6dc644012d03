package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// fresh is a herdr server and a tmux server started for one row, so that
// what the row measures is not coloured by what the rows before it did
// (a used server's new panes reuse the heap its earlier work left).
type fresh struct {
	herdr       *protocol.Client
	sock        string
	herdrPid    int
	tmux        func(...string) *exec.Cmd
	tmuxPid     int
	tmuxSession string
	stopHerdr   func()
	stopTmux    func()
}

// startFresh starts both servers under the name session, each with one
// pane running /bin/sh in a 200×50 window.
func startFresh(bin, dir string, env []string, session string) *fresh {
	f := &fresh{tmuxSession: session}
	server := exec.Command(bin, "--session", session, "server")
	server.Env = env
	server.Stderr = os.Stderr
	check(server.Start())
	f.herdrPid = server.Process.Pid
	f.stopHerdr = func() { server.Process.Kill(); server.Wait() }
	atExit(f.stopHerdr)
	f.sock = filepath.Join(dir, "c/herdr/sessions", session, "herdr.sock")
	f.herdr = connect(f.sock)
	call(f.herdr, "workspace.create", map[string]any{"cwd": dir}, nil)

	sockName := session + strconv.Itoa(os.Getpid())
	f.tmux = func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", sockName, "-f", "/dev/null"}, args...)...)
	}
	check(f.tmux("new-session", "-d", "-s", session, "-x", "200", "-y", "50", "/bin/sh").Run())
	out, err := f.tmux("display-message", "-p", "#{pid}").Output()
	check(err)
	f.tmuxPid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	pid := f.tmuxPid
	f.stopTmux = func() {
		f.tmux("kill-server").Run()
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
	atExit(f.stopTmux)
	return f
}

func (f *fresh) stop() {
	f.herdr.Close()
	f.stopHerdr()
	f.stopTmux()
}

// idleFresh is the idle row on servers of its own: RSS and threads with
// one pane, then with 1+n.
func idleFresh(bin, dir string, env []string, n int) {
	f := startFresh(bin, dir, env, "gapsidle")
	defer f.stop()
	idle(f.herdr, f.herdrPid, f.tmuxPid, n, dir, f.tmux)
}

// floodSeconds is how long each round's floods run.
const floodSeconds = 4

// flood prints the round trip of a no-op request on a connection of its
// own while n panes flood output: herdr's ping against a tmux control-mode
// client's display-message (attached to a session of its own, so it is
// sent no %output), at an idle client's pace of one every 5 ms, both
// servers fresh, rounds taking turns; p50, p99 and max over all rounds,
// and the same with the panes idle.
func flood(bin, dir string, env []string, n, rounds int) {
	f := startFresh(bin, dir, env, "gapsflood")
	defer f.stop()
	var panes []string
	for i := 0; i < n; i++ {
		var ws protocol.WorkspaceCreated
		call(f.herdr, "workspace.create", map[string]any{"cwd": dir}, &ws)
		panes = append(panes, ws.RootPane.PaneID)
		check(f.tmux("new-window", "-d", "-t", f.tmuxSession, "/bin/sh").Run())
	}
	check(f.tmux("new-session", "-d", "-s", "ctl", "/bin/sh").Run())
	ctl := f.tmux("-C", "attach-session", "-t", "ctl")
	tin, err := ctl.StdinPipe()
	check(err)
	stdout, err := ctl.StdoutPipe()
	check(err)
	check(ctl.Start())
	defer func() { tin.Close(); ctl.Wait() }()
	tr := bufio.NewReaderSize(stdout, 64<<10)
	ends := func() {
		for {
			line, err := tr.ReadString('\n')
			check(err)
			if strings.HasPrefix(line, "%error") {
				fail("tmux -C: " + line)
			}
			if strings.HasPrefix(line, "%end") {
				return
			}
		}
	}
	ends() // the attach-session block
	p := connect(f.sock)
	defer p.Close()

	herdrPing := func() time.Duration {
		t := time.Now()
		call(p, "ping", nil, nil)
		return time.Since(t)
	}
	tmuxPing := func() time.Duration {
		t := time.Now()
		_, err := io.WriteString(tin, "display-message -p ok\n")
		check(err)
		ends()
		return time.Since(t)
	}
	// measure pings for d at an idle client's pace.
	measure := func(ping func() time.Duration, d time.Duration) []time.Duration {
		var lat []time.Duration
		for end := time.Now().Add(d); time.Now().Before(end); {
			lat = append(lat, ping())
			time.Sleep(5 * time.Millisecond)
		}
		return lat
	}
	line := fmt.Sprintf("timeout %d yes 'herdr flood 0123456789 abcdefghijklmnopqrstuvwxyz'", floodSeconds)
	herdrFlood := func() {
		for _, pane := range panes {
			call(f.herdr, "pane.send_input", map[string]any{"pane_id": pane, "text": line, "keys": []string{"Enter"}}, nil)
		}
	}
	tmuxFlood := func() {
		for i := 1; i <= n; i++ {
			check(f.tmux("send-keys", "-t", f.tmuxSession+":"+strconv.Itoa(i), line, "Enter").Run())
		}
	}
	// round floods with start, measures pings while it runs (after a
	// ramp-up), and lets the output drain before the next round.
	round := func(start func(), ping func() time.Duration) []time.Duration {
		start()
		time.Sleep(500 * time.Millisecond)
		lat := measure(ping, floodSeconds*time.Second-time.Second)
		time.Sleep(time.Second + 500*time.Millisecond)
		return lat
	}
	var hi, ti, hf, tf []time.Duration
	hi = append(hi, measure(herdrPing, time.Second)...)
	ti = append(ti, measure(tmuxPing, time.Second)...)
	for r := 0; r < rounds; r++ {
		hf = append(hf, round(herdrFlood, herdrPing)...)
		tf = append(tf, round(tmuxFlood, tmuxPing)...)
	}
	fmt.Printf("a no-op request's round trip while %d panes flood (yes, %d s a round, %d alternating rounds; a request every 5 ms)\n", n, floodSeconds, rounds)
	fmt.Printf("%-22s %9s %9s %9s %6s\n", "", "p50", "p99", "max", "n")
	for _, r := range []struct {
		name string
		lat  []time.Duration
	}{{"herdr ping, idle", hi}, {"tmux -C, idle", ti}, {"herdr ping, flood", hf}, {"tmux -C, flood", tf}} {
		slices.Sort(r.lat)
		fmt.Printf("%-22s %7.2fms %7.2fms %7.2fms %6d\n", r.name, ms(r.lat[len(r.lat)/2]), ms(r.lat[len(r.lat)*99/100]), ms(r.lat[len(r.lat)-1]), len(r.lat))
	}
}
