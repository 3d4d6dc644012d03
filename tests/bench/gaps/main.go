// Command gaps measures, side by side with tmux in one run, the rows of
// issue 19 that are about cost rather than throughput:
//
//   - idle: the server's RSS and OS threads with 1 and with 1+N idle panes
//     (herdr: N workspaces; tmux: N windows; both run /bin/sh), and the
//     cost of one more pane, on servers started for this row (fresh.go);
//   - flood: a no-op request's round trip (ping; a tmux control client's
//     display-message) while N panes flood output, p50/p99 (fresh.go);
//   - cli: one command as one process, the two programs taking turns:
//     `herdr --version` / `tmux -V` and `herdr pane list` / `tmux list-panes -a`
//     against a running server, and `herdr-full --version` (the program
//     with the actor runtime linked in, beside herdr) for what the front
//     saves; medians and ratios (-before BIN: another build's herdr takes
//     its turn in the same rounds, for a before/after);
//   - keys: keystroke → echo through an attached client (herdr's client,
//     a tmux client), each in a PTY that plays the outer terminal, keys
//     taking turns; p50/p90 and the ratio of the medians (-before BIN:
//     that build's client takes its turn too, on a server of -herdr's
//     build, or of its own with -before-server);
//   - idleclient: an attached client's wakeups (context switches of all
//     its threads) while nothing happens, herdr's (and -before's) beside a
//     tmux client's (idleclient.go);
//   - pipe: requests per second with 500 written ahead on one connection,
//     `pane.list` on herdr's socket and `list-panes -a` through one tmux
//     control-mode client (`tmux -C`), one pane each, rounds taking turns;
//   - ping: the request path on the socket (ping.go): sequential ping on
//     one connection, 500 pipelined, and a fresh connection per request,
//     against a bare Go server this program runs (and tmux -C, pipelined);
//   - match: a command typed into a shell until a waiting program sees its
//     output: pane.send_input + pane.wait_for_output against tmux
//     send-keys + %output in control mode;
//   - subs: a flood with 0 and with 10 watching clients (screen.subscribe
//     connections; tmux control-mode clients), the slowdown each server's
//     watchers cost (subs.go);
//   - scroll: the server's RSS after N panes each filled their default
//     scrollback with a flood and went quiet (scroll.go; -before BIN: the
//     same for another build's server, after it).
//
// Linux only (it reads /proc). Usage:
//
//	go run ./tests/bench/gaps [-herdr BIN] [-before BIN] [-panes 100] [-runs 41] [-keys 60] [-before-server] [-only idle|flood|cli|pipe|ping|match|keys|idleclient|subs|scroll|trace]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func main() {
	bin := flag.String("herdr", "", "herdr binary (default: build one)")
	panes := flag.Int("panes", 100, "idle panes to add for the memory row")
	runs := flag.Int("runs", 41, "alternating runs per process timing")
	nkeys := flag.Int("keys", 60, "keys each client types per pace for the keys row")
	beforeServes := flag.Bool("before-server", false, "keys row: the -before client attaches to a server of that build too (default: to one of -herdr's, so only the clients differ)")
	before := flag.String("before", "", "ping, cli, scroll, keys and idleclient rows: another build's herdr (herdr-full beside it for cli) timed in the same rounds")
	only := flag.String("only", "", "run only this row: idle, flood, cli, pipe, ping, match, keys, idleclient, subs or scroll; or trace (the keystroke trace under strace, only when asked)")
	floodRounds := flag.Int("flood-rounds", 2, "alternating rounds of the flood row")
	subsRuns := flag.Int("subs-runs", 3, "alternating runs per flood for the subs row")
	traceOut := flag.String("trace-out", "", "trace row: keep strace's whole output in this file (every syscall of both processes, for reading one key's path by hand)")
	idleSecs := flag.Int("idle-seconds", 30, "how long the idleclient row watches the attached clients")
	flag.Parse()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		fail("needs Linux's /proc")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		fail("needs tmux (apt-get install -y tmux)")
	}
	dir, err := os.MkdirTemp("", "gaps")
	check(err)
	atExit(func() { os.RemoveAll(dir) })
	if *bin == "" {
		*bin = filepath.Join(dir, "herdr")
		build := exec.Command("go", "build", "-o", dir+"/", "./cmd/herdr", "./cmd/herdr-full")
		// As the README builds them: static, no dynamic loader at each start.
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		check(build.Run())
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+dir+"/c", "XDG_STATE_HOME="+dir+"/s", "HOME="+dir)
	check(os.MkdirAll(dir+"/c/herdr", 0o700))
	check(os.WriteFile(dir+"/c/herdr/config.toml", []byte("[terminal]\ndefault_shell = \"/bin/sh\"\n"), 0o600))
	h := startHerdr(*bin, dir, env)
	atExit(func() { h.Process.Kill() })
	sock := filepath.Join(dir, "c/herdr/sessions/gaps/herdr.sock")
	c := connect(sock)
	tmux := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", "gaps" + strconv.Itoa(os.Getpid()), "-f", "/dev/null"}, args...)...)
	}
	check(tmux("new-session", "-d", "-s", "gaps", "-x", "200", "-y", "50", "/bin/sh").Run())
	atExit(func() { tmux("kill-server").Run() })
	out, err := tmux("display-message", "-p", "#{pid}").Output()
	check(err)
	tmuxPid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	// kill-server has been seen to leave the server behind after a failed
	// run: make sure it goes.
	atExit(func() {
		if p, err := os.FindProcess(tmuxPid); err == nil {
			p.Kill()
		}
	})
	call(c, "workspace.create", map[string]any{"cwd": dir}, nil)

	// Each row starts on a quiet machine: the flood rows leave a load
	// behind them (100 producers and their shells) that slowed every later
	// row, the CLI's most (its processes were 2-6 times slower after it).
	rows := []struct {
		name string
		run  func()
	}{
		{"pipe", func() { pipelined(sock, *runs, tmux) }}, // first: one pane each
		{"ping", func() { pingRows(dir, sock, *before, env, *runs, tmux) }},
		{"match", func() { matched(c, *runs, tmux) }},
		{"subs", func() { subscribers(c, sock, dir, *subsRuns, tmux) }},
		{"keys", func() { keys(*bin, *before, *beforeServes, dir, env, *nkeys, tmux) }}, // one pane each; its clients stop after it
		{"idleclient", func() { idleClients(*bin, *before, dir, env, *idleSecs, tmux) }},
		{"cli", func() { cliRow(*bin, *before, env, *runs, tmux) }},
		{"idle", func() { idleFresh(*bin, dir, env, *panes) }},
		{"flood", func() { flood(*bin, dir, env, *panes, *floodRounds) }},
		{"scroll", func() { scrollRow(*bin, *before, dir, env, *panes) }},
	}
	for _, r := range rows {
		if *only == "" || *only == r.name {
			settle()
			r.run()
		}
	}
	if *only == "trace" {
		keytrace(*bin, env, h.Process.Pid, *nkeys, *traceOut)
	}
	cleanup()
}

// settle waits (at most a minute) until nothing but this program has
// been runnable for a second, then prints the load average the row
// starts at.
func settle() {
	quiet := 0
	for end := time.Now().Add(time.Minute); quiet < 5 && time.Now().Before(end); {
		time.Sleep(200 * time.Millisecond)
		if running() <= 1 {
			quiet++
		} else {
			quiet = 0
		}
	}
	b, err := os.ReadFile("/proc/loadavg")
	check(err)
	fmt.Printf("[load average %s]\n", strings.Join(strings.Fields(string(b))[:3], " "))
}

// running is the count of runnable tasks on the machine, this one among
// them (/proc/loadavg's fourth field, R/T).
func running() int {
	b, err := os.ReadFile("/proc/loadavg")
	check(err)
	f := strings.Fields(string(b))
	r, _, _ := strings.Cut(f[3], "/")
	n, _ := strconv.Atoi(r)
	return n
}

// cleanups run at the end and on failure: no server outlives the run.
var cleanups []func()

func atExit(f func()) { cleanups = append(cleanups, f) }

func cleanup() {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanups = nil
}

// idle prints RSS and threads of both servers before and after adding n
// idle panes to each.
func idle(c *protocol.Client, herdrPid, tmuxPid, n int, dir string, tmux func(...string) *exec.Cmd) {
	settle := func() { time.Sleep(4 * time.Second) } // the server hands back start-up's garbage after 1 s quiet
	settle()
	h0, t0 := sample(herdrPid), sample(tmuxPid)
	for i := 0; i < n; i++ {
		call(c, "workspace.create", map[string]any{"cwd": dir}, nil)
		check(tmux("new-window", "-d", "/bin/sh").Run())
	}
	settle()
	h1, t1 := sample(herdrPid), sample(tmuxPid)
	fmt.Printf("idle server, 1 → %d panes (RSS kB, OS threads)\n", n+1)
	fmt.Printf("%-6s %9s %9s %12s %9s %9s\n", "", "rss 1", "rss N", "kB per pane", "threads 1", "threads N")
	for _, r := range []struct {
		name   string
		before point
		after  point
	}{{"herdr", h0, h1}, {"tmux", t0, t1}} {
		fmt.Printf("%-6s %9d %9d %12.1f %9d %9d\n", r.name, r.before.rssKB, r.after.rssKB,
			float64(r.after.rssKB-r.before.rssKB)/float64(n), r.before.threads, r.after.threads)
	}
}

func timed(tmpl *exec.Cmd) time.Duration {
	cmd := exec.Command(tmpl.Path, tmpl.Args[1:]...)
	cmd.Env = tmpl.Env
	t := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		fail(fmt.Sprintf("%s: %v: %s", strings.Join(cmd.Args, " "), err, out))
	}
	return time.Since(t)
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

type point struct{ rssKB, threads int }

func sample(pid int) point {
	var p point
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			p.rssKB, _ = strconv.Atoi(strings.Fields(v)[0])
		}
		if v, ok := strings.CutPrefix(sc.Text(), "Threads:"); ok {
			p.threads, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	return p
}

func startHerdr(bin, dir string, env []string) *exec.Cmd {
	return startSession(bin, "gaps", env)
}

// startSession starts bin's server under the session name.
func startSession(bin, session string, env []string) *exec.Cmd {
	server := exec.Command(bin, "--session", session, "server")
	server.Env = env
	server.Stderr = os.Stderr
	check(server.Start())
	return server
}

func connect(sock string) *protocol.Client {
	for i := 0; i < 100; i++ {
		if c, err := protocol.Connect(sock); err == nil {
			return c
		}
		time.Sleep(50 * time.Millisecond)
	}
	fail("the herdr server did not start")
	return nil
}

func call(c *protocol.Client, method string, params, out any) {
	if err := c.Call(method, params, out); err != nil {
		fail(method + ": " + err.Error())
	}
}

func check(err error) {
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "gaps:", msg)
	cleanup()
	os.Exit(1)
}
