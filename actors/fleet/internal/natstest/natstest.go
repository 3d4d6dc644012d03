// Package natstest is the fleet's test hubs: an in-process NATS server
// with JetStream on disk that a test can stop and start again on the same
// port and store, a three-node clustered hub, and a connection that
// reconnects for ever. The fleet's packages' tests share it (board,
// evstream); nothing else imports it.
package natstest

import (
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Hub is an in-process NATS server with JetStream on disk in Dir.
type Hub struct {
	t    testing.TB
	Dir  string
	Port int
	Srv  *server.Server
}

// Start starts a hub storing in dir, on port (0: any free port); the
// test's cleanup stops it.
func Start(t testing.TB, dir string, port int) *Hub {
	t.Helper()
	if port == 0 {
		port = -1
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		t.Fatal("nats server did not start")
	}
	h := &Hub{t: t, Dir: dir, Port: s.Addr().(*net.TCPAddr).Port, Srv: s}
	t.Cleanup(h.Stop)
	return h
}

// URL is the hub's client URL.
func (h *Hub) URL() string { return h.Srv.ClientURL() }

// Stop shuts the hub down and waits until it is.
func (h *Hub) Stop() {
	h.Srv.Shutdown()
	h.Srv.WaitForShutdown()
}

// Restart stops the hub and starts it again on the same port and store.
func (h *Hub) Restart() { h.RestartAfter(0) }

// RestartAfter stops the hub, waits d, and starts it again.
func (h *Hub) RestartAfter(d time.Duration) {
	h.Stop()
	time.Sleep(d)
	h.Srv = Start(h.t, h.Dir, h.Port).Srv
}

// Connect returns a JetStream context on a connection that reconnects
// for ever; the test's cleanup closes it.
func Connect(t testing.TB, url string) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// FreePorts reserves n local ports and frees them for servers to take.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	var out []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// StartCluster starts a three-node hub routed together, in process; the
// test's cleanup stops it.
func StartCluster(t testing.TB) []*server.Server {
	t.Helper()
	ports := FreePorts(t, 3)
	var routes []*url.URL
	for _, p := range ports {
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	var out []*server.Server
	for i, p := range ports {
		o := &server.Options{
			ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: -1,
			JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
			Cluster: server.ClusterOpts{Name: "herdr", Host: "127.0.0.1", Port: p},
			Routes:  routes,
		}
		s, err := server.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		go s.Start()
		t.Cleanup(s.Shutdown)
		out = append(out, s)
	}
	for _, s := range out {
		if !s.ReadyForConnections(30 * time.Second) {
			t.Fatal("a cluster node did not start")
		}
	}
	return out
}
