// Command soak runs a herdr server under churn for -duration and checks
// that it comes back to where it started: panes created and closed,
// output floods, event and screen subscribers coming and going (one of
// them never reading), and list/read calls all the while. Every -sample it
// prints the server's RSS, threads and open descriptors (Linux: /proc);
// at the end it closes everything, makes the same workspace it started
// with, lets the server settle, and compares with the starting point.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

var (
	requests atomic.Int64
	failures sync.Map // error code → *atomic.Int64
)

func main() {
	bin := flag.String("herdr", "", "herdr binary (default: build one)")
	duration := flag.Duration("duration", 30*time.Minute, "how long to churn")
	every := flag.Duration("sample", 10*time.Second, "sampling interval")
	flag.Parse()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		fmt.Fprintln(os.Stderr, "soak: needs Linux's /proc to read the server's resources")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "soak")
	check(err)
	defer os.RemoveAll(dir)
	if *bin == "" {
		*bin = filepath.Join(dir, "herdr")
		build := exec.Command("go", "build", "-o", dir+"/", "./cmd/herdr", "./cmd/herdr-full")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		check(build.Run())
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+dir+"/c", "XDG_STATE_HOME="+dir+"/s", "HOME="+dir)
	check(os.MkdirAll(dir+"/c/herdr", 0o700))
	check(os.WriteFile(dir+"/c/herdr/config.toml", []byte("[terminal]\ndefault_shell = \"/bin/sh\"\n"), 0o600))
	server := exec.Command(*bin, "--session", "soak", "server")
	server.Env = env
	check(server.Start())
	defer server.Process.Kill()
	sock := filepath.Join(dir, "c/herdr/sessions/soak/herdr.sock")
	var c *protocol.Client
	for i := 0; c == nil && i < 100; i++ {
		time.Sleep(50 * time.Millisecond)
		c, _ = protocol.Connect(sock)
	}
	if c == nil {
		fail("the server did not start")
	}
	pid := server.Process.Pid

	setup(c, dir)
	time.Sleep(10 * time.Second)
	base := sample(pid, c)
	fmt.Printf("%-8s %8s %8s %6s %6s\n", "time", "rss_mb", "threads", "fds", "panes")
	base.print("base")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, f := range []func(string, <-chan struct{}){structure, floods, subscribers, screens, reads, slowSubscriber} {
		wg.Add(1)
		go func() { defer wg.Done(); f(sock, stop) }()
	}
	start := time.Now()
	tick := time.NewTicker(*every)
	for time.Since(start) < *duration {
		<-tick.C
		sample(pid, c).print(time.Since(start).Truncate(time.Second).String())
	}
	close(stop)
	wg.Wait()

	// Back to what the baseline had — one fresh workspace of six panes —
	// then let the server settle.
	var list protocol.WorkspaceList
	call(c, "workspace.list", nil, &list)
	for _, w := range list.Workspaces {
		call(c, "workspace.close", map[string]any{"workspace_id": w.WorkspaceID}, nil)
	}
	setup(c, dir)
	// An idle server allocates nothing, so the closed panes' memory waits
	// for the runtime's forced collection (every two minutes) and is then
	// handed back gradually: two and a half minutes cover both.
	for i := 0; i < 15; i++ {
		time.Sleep(10 * time.Second)
		sample(pid, c).print(fmt.Sprintf("settle%d", i+1))
	}
	final := sample(pid, c)
	final.print("final")

	fmt.Printf("\nrequests %d", requests.Load())
	failures.Range(func(k, v any) bool { fmt.Printf(", %s %d", k, v.(*atomic.Int64).Load()); return true })
	fmt.Printf("\nbaseline: rss %.1f MB, threads %d, fds %d, panes %d\n", base.rssMB, base.threads, base.fds, base.panes)
	fmt.Printf("final:    rss %.1f MB (%+.1f), threads %d, fds %d, panes %d\n",
		final.rssMB, final.rssMB-base.rssMB, final.threads, final.fds, final.panes)
	// Thresholds: the same six panes should cost what they cost before.
	// Descriptors are exact (a leak of one per pane or connection shows at
	// once); a few threads may stay parked from the busiest moment (the Go
	// runtime keeps them); RSS gets 40 MB of slack because the runtime
	// hands freed heap back to the system gradually (after floods of 20 MB
	// with 10 MB of scrollback per pane, more than that is a leak).
	if final.fds > base.fds+2 || final.threads > base.threads+8 || final.rssMB > base.rssMB+40 {
		fail("resources did not return to the baseline")
	}
}

// setup makes one workspace of six panes.
func setup(c *protocol.Client, dir string) {
	call(c, "workspace.create", map[string]any{"cwd": dir, "focus": true}, nil)
	for i := 0; i < 5; i++ {
		call(c, "pane.split", map[string]any{"direction": "right"}, nil)
	}
}

type point struct {
	rssMB        float64
	threads, fds int
	panes        int
}

func (p point) print(label string) {
	fmt.Printf("%-8s %8.1f %8d %6d %6d\n", label, p.rssMB, p.threads, p.fds, p.panes)
}

func sample(pid int, c *protocol.Client) point {
	var p point
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	check(err)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			p.rssMB = float64(kb) / 1024
		}
	}
	f.Close()
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	p.threads, p.fds = len(tasks), len(fds)
	var panes protocol.PaneList
	call(c, "pane.list", nil, &panes)
	p.panes = len(panes.Panes)
	return p
}

// call makes one request and counts its outcome; closing a pane that just
// closed itself (pane_not_found) is an expected race, counted like others.
func call(c *protocol.Client, method string, params, out any) bool {
	requests.Add(1)
	err := c.Call(method, params, out)
	if err != nil {
		code := protocol.AsError(err).Code
		n, _ := failures.LoadOrStore(method+":"+code, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
	}
	return err == nil
}

func connect(sock string) *protocol.Client {
	c, err := protocol.Connect(sock)
	check(err)
	return c
}

func panes(c *protocol.Client) []string {
	var list protocol.PaneList
	call(c, "pane.list", nil, &list)
	var ids []string
	for _, p := range list.Panes {
		ids = append(ids, p.PaneID)
	}
	return ids
}

// structure keeps 10–40 panes alive, creating and closing them.
func structure(sock string, stop <-chan struct{}) {
	c := connect(sock)
	defer c.Close()
	for wait(stop, 150*time.Millisecond) {
		ids := panes(c)
		switch {
		case len(ids) < 10 || len(ids) < 40 && rand.IntN(2) == 0:
			if rand.IntN(4) == 0 {
				call(c, "workspace.create", map[string]any{}, nil)
			} else {
				call(c, "pane.split", map[string]any{"target_pane_id": ids[rand.IntN(len(ids))], "direction": "down"}, nil)
			}
		default:
			call(c, "pane.close", map[string]any{"pane_id": ids[rand.IntN(len(ids))]}, nil)
		}
	}
}

// floods makes a random pane print 20 MB every few seconds.
func floods(sock string, stop <-chan struct{}) {
	c := connect(sock)
	defer c.Close()
	for wait(stop, 3*time.Second) {
		if ids := panes(c); len(ids) > 0 {
			call(c, "pane.send_input", map[string]any{"pane_id": ids[rand.IntN(len(ids))], "text": "yes herdr soak | head -c 20000000", "keys": []string{"Enter"}}, nil)
		}
	}
}

// subscribers come and go, each reading events for a while.
func subscribers(sock string, stop <-chan struct{}) {
	for wait(stop, time.Second) {
		c := connect(sock)
		c.WriteLine([]byte(`{"id":"s","method":"events.subscribe","params":{"subscriptions":[{"type":"pane.created"},{"type":"pane.closed"},{"type":"workspace.created"}]}}`))
		c.Conn().SetReadDeadline(time.Now().Add(2 * time.Second))
		for {
			if _, err := c.ReadLine(); err != nil {
				break
			}
		}
		c.Close()
	}
}

// slowSubscriber subscribes and never reads, a minute at a time.
func slowSubscriber(sock string, stop <-chan struct{}) {
	for {
		c := connect(sock)
		c.WriteLine([]byte(`{"id":"s","method":"events.subscribe","params":{"subscriptions":[{"type":"pane.created"},{"type":"pane.closed"}]}}`))
		ok := wait(stop, time.Minute)
		c.Close()
		if !ok {
			return
		}
	}
}

// screens streams a random pane's screen for a while, then leaves.
func screens(sock string, stop <-chan struct{}) {
	for wait(stop, 2*time.Second) {
		c := connect(sock)
		if ids := panes(c); len(ids) > 0 {
			c.WriteLine([]byte(`{"id":"w","method":"screen.subscribe","params":{"pane_ids":["` + ids[rand.IntN(len(ids))] + `"]}}`))
			c.Conn().SetReadDeadline(time.Now().Add(2 * time.Second))
			for {
				if _, err := c.ReadLine(); err != nil {
					break
				}
			}
		}
		c.Close()
	}
}

// reads lists and reads all the while.
func reads(sock string, stop <-chan struct{}) {
	c := connect(sock)
	defer c.Close()
	for wait(stop, 100*time.Millisecond) {
		call(c, "agent.list", nil, nil)
		if ids := panes(c); len(ids) > 0 {
			call(c, "pane.read", map[string]any{"pane_id": ids[rand.IntN(len(ids))], "source": "recent", "lines": 50}, nil)
		}
	}
}

// wait sleeps d and reports whether to go on.
func wait(stop <-chan struct{}, d time.Duration) bool {
	select {
	case <-stop:
		return false
	case <-time.After(d):
		return true
	}
}

func check(err error) {
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "soak:", msg)
	os.Exit(1)
}
