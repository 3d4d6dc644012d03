// Command fleetnats measures the fleet on NATS at scale (issue 48, item 6):
// simulated members against one embedded hub on this machine, at each
// member count of -members (10,50,200 by default).
//
// The hub (nats-server, JetStream on a file store, a user and password
// required) runs in a child process of this command, so its CPU and RSS
// are its own: read from /proc over the measuring window. Each simulated
// member is a few goroutines on a connection of its own, speaking as a
// herdr member does: its presence entry in the herdr-members key-value
// bucket (a TTL of 15 s, rewritten every 5 s), its agents' state changes
// published into the fleet's event stream (evstream, the envelope a real
// member sends) at -rate a second with a jitter, and answers to calls on
// herdr.<name>.call (an agent.list of -agents agents). One caller plays
// a member's fleet agent.list with "machines":"all": a request to every
// member at once, waiting for all (what actors/fleet's gather does), and
// one fleet subscriber reads the stream as a member's relay does.
//
// Printed, per member count: the fleet agent.list's p50 and p99, the
// events the subscriber got a second (fan-in) and their delivery p99
// (publish to delivery, one clock), the hub's CPU (% of one core) and
// RSS. Run: go run ./tests/bench/fleetnats [-members 10,50,200] [-d 10s].
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/evstream"
)

const user, password = "herdr", "bench"

func main() {
	if os.Getenv("FLEETNATS_HUB") != "" {
		runHub()
		return
	}
	counts := flag.String("members", "10,50,200", "member counts, comma-separated")
	dur := flag.Duration("d", 10*time.Second, "how long each member count is measured")
	rate := flag.Float64("rate", 0.5, "agent state changes a second per member")
	agents := flag.Int("agents", 3, "agents per member (in each agent.list answer)")
	calls := flag.Duration("every", 200*time.Millisecond, "how often the caller sends a fleet agent.list")
	flag.Parse()

	fmt.Printf("fleet on NATS, one embedded hub, %d cores; %.2f state changes/s per member, %d agents each, measured %v per row\n\n",
		runtime.NumCPU(), *rate, *agents, *dur)
	fmt.Printf("%8s %12s %12s %10s %10s %12s %12s %10s %10s\n", "members", "list p50", "list p99", "lists", "events/s", "deliv p50", "deliv p99", "hub CPU", "hub RSS")
	for _, s := range strings.Split(*counts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "fleetnats: -members: %q is not a member count\n", s)
			os.Exit(2)
		}
		r, err := row(n, *dur, *rate, *agents, *calls)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fleetnats: %d members: %v\n", n, err)
			os.Exit(1)
		}
		fmt.Printf("%8d %12v %12v %10d %10.1f %12v %12v %9.1f%% %8.1fMB\n", n, r.listP50, r.listP99, r.lists, r.evRate, r.delP50, r.delP99, r.cpu, r.rssMB)
	}
}

// runHub is the child: the hub, until its stdin closes.
func runHub() {
	dir, _ := os.MkdirTemp("", "fleetnats-hub")
	defer os.RemoveAll(dir)
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv, err := server.NewServer(&server.Options{
		ServerName: "hub", Host: "127.0.0.1", Port: port, Username: user, Password: password,
		JetStream: true, StoreDir: filepath.Join(dir, "js"), MaxPayload: 8 << 20, NoSigs: true, NoLog: true,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		fmt.Fprintln(os.Stderr, "hub not ready")
		os.Exit(1)
	}
	fmt.Printf("nats://127.0.0.1:%d\n", port)
	buf := make([]byte, 1)
	_, _ = os.Stdin.Read(buf)
	srv.Shutdown()
}

type result struct {
	listP50, listP99, delP50, delP99 time.Duration
	lists                            int
	evRate, cpu, rssMB               float64
}

func row(n int, dur time.Duration, rate float64, agents int, every time.Duration) (result, error) {
	var r result
	hub := exec.Command(os.Args[0])
	hub.Env = append(os.Environ(), "FLEETNATS_HUB=1")
	hub.Stderr = os.Stderr
	stdin, _ := hub.StdinPipe()
	out, _ := hub.StdoutPipe()
	if err := hub.Start(); err != nil {
		return r, err
	}
	defer func() { stdin.Close(); _ = hub.Wait() }()
	line := make([]byte, 64)
	k, err := out.Read(line)
	if err != nil {
		return r, fmt.Errorf("hub: %w", err)
	}
	url := strings.TrimSpace(string(line[:k]))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	caller, err := nats.Connect(url, nats.UserInfo(user, password))
	if err != nil {
		return r, err
	}
	defer caller.Close()
	js, _ := jetstream.New(caller)
	c, cc := context.WithTimeout(ctx, 10*time.Second)
	defer cc()
	cfg := evstream.Config{}
	if _, err := evstream.Ensure(c, js, cfg); err != nil {
		return r, err
	}
	kv, err := js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: "herdr-members", TTL: 15 * time.Second, History: 1})
	if err != nil {
		return r, err
	}
	_ = kv

	// The fleet subscriber: delivery latency from the time each event
	// carries.
	var mu sync.Mutex
	var delivered []time.Duration
	measuring := atomic.Bool{}
	sub, err := evstream.Subscribe(c, js, cfg, evstream.Options{}, func(d evstream.Delivery) {
		if d.Event == nil || !measuring.Load() {
			return
		}
		var ev struct {
			Data struct {
				Sent int64 `json:"sent_ns"`
			} `json:"data"`
		}
		if json.Unmarshal(d.Event.Data, &ev) != nil {
			return
		}
		lat := time.Since(time.Unix(0, ev.Data.Sent))
		mu.Lock()
		delivered = append(delivered, lat)
		mu.Unlock()
	})
	if err != nil {
		return r, err
	}
	defer sub.Stop()

	var wg sync.WaitGroup
	var conns []*nats.Conn
	defer func() {
		cancel()
		wg.Wait()
		for _, nc := range conns {
			nc.Close()
		}
	}()
	names := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("m%03d", i)
		nc, err := nats.Connect(url, nats.UserInfo(user, password))
		if err != nil {
			return r, err
		}
		conns = append(conns, nc)
		if err := member(ctx, &wg, nc, names[i], rate, agents); err != nil {
			return r, err
		}
	}
	time.Sleep(2 * time.Second) // presence written, subscriptions made

	cpu0, _ := procCPU(hub.Process.Pid)
	start := time.Now()
	measuring.Store(true)
	var lists []time.Duration
	for time.Since(start) < dur {
		t0 := time.Now()
		if err := gather(caller, names); err != nil {
			return r, err
		}
		lists = append(lists, time.Since(t0))
		if d := every - time.Since(t0); d > 0 {
			time.Sleep(d)
		}
	}
	measuring.Store(false)
	wall := time.Since(start)
	cpu1, _ := procCPU(hub.Process.Pid)
	r.cpu = 100 * (cpu1 - cpu0) / wall.Seconds()
	r.rssMB = procRSS(hub.Process.Pid) / 1024
	r.lists = len(lists)
	r.listP50, r.listP99 = pct(lists, 50), pct(lists, 99)
	mu.Lock()
	r.evRate = float64(len(delivered)) / wall.Seconds()
	r.delP50, r.delP99 = pct(delivered, 50), pct(delivered, 99)
	mu.Unlock()
	return r, nil
}

// member starts one simulated member on nc: its call answerer, its
// presence and its agents' state changes.
func member(ctx context.Context, wg *sync.WaitGroup, nc *nats.Conn, name string, rate float64, agents int) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	list := make([]map[string]any, agents)
	for i := range list {
		list[i] = map[string]any{"name": fmt.Sprintf("agent%d", i), "pane_id": fmt.Sprintf("%s/w1:p%d", name, i+1), "workspace_id": name + "/w1",
			"agent": "claude", "agent_status": "working", "title": "fixing the build", "machine": map[string]string{"id": name, "label": name}}
	}
	answer, _ := json.Marshal(map[string]any{"id": "fleet", "result": map[string]any{"type": "agent_list", "agents": list}})
	if _, err := nc.Subscribe("herdr."+name+".call", func(m *nats.Msg) { _ = m.Respond(answer) }); err != nil {
		return err
	}
	pub, err := evstream.NewPublisher(js, evstream.Config{}, name)
	if err != nil {
		return err
	}
	wg.Add(2)
	go func() { // presence
		defer wg.Done()
		kv, err := js.KeyValue(ctx, "herdr-members")
		if err != nil {
			return
		}
		entry, _ := json.Marshal(map[string]any{"name": name, "version": "bench", "labels": []string{}, "started": time.Now().UnixMilli()})
		for {
			_, _ = kv.Put(ctx, name, entry)
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	go func() { // agent state changes, about rate a second
		defer wg.Done()
		statuses := []string{"working", "blocked", "idle", "done"}
		for seq := 1; ; seq++ {
			wait := time.Duration(float64(time.Second) / rate * (0.5 + rand.Float64()))
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			ev, _ := json.Marshal(map[string]any{"event": "pane_agent_status_changed", "seq": seq, "data": map[string]any{
				"type": "pane_agent_status_changed", "pane_id": "w1:p1", "workspace_id": "w1", "agent": "claude",
				"agent_status": statuses[seq%len(statuses)], "sent_ns": time.Now().UnixNano(),
			}})
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, _ = pub.PublishOnce(c, "pane_agent_status_changed", fmt.Sprintf("%s.%d", name, seq), ev)
			cancel()
		}
	}()
	return nil
}

// gather is a fleet agent.list: every member asked at once, all awaited.
func gather(nc *nats.Conn, names []string) error {
	req, _ := json.Marshal(map[string]any{"method": "agent.list", "params": map[string]any{}, "from": "caller"})
	errs := make(chan error, len(names))
	for _, name := range names {
		go func() {
			_, err := nc.Request("herdr."+name+".call", req, 5*time.Second)
			errs <- err
		}()
	}
	for range names {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := len(s) * p / 100
	if i >= len(s) {
		i = len(s) - 1
	}
	return s[i].Round(10 * time.Microsecond)
}

// procCPU is pid's user and system CPU seconds.
func procCPU(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100, nil // USER_HZ
}

// procRSS is pid's resident set in KiB.
func procRSS(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return v
		}
	}
	return 0
}
