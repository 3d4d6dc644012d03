package evstream

import (
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// hub is an in-process NATS server with JetStream on disk in dir.
type hub struct {
	t    *testing.T
	dir  string
	port int
	srv  *server.Server
}

// startHub starts a server storing in dir, on port (0: any free port).
func startHub(t *testing.T, dir string, port int) *hub {
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
	h := &hub{t: t, dir: dir, port: s.Addr().(*net.TCPAddr).Port, srv: s}
	t.Cleanup(h.stop)
	return h
}

func (h *hub) url() string { return h.srv.ClientURL() }

func (h *hub) stop() {
	h.srv.Shutdown()
	h.srv.WaitForShutdown()
}

// restart stops the server and starts it again on the same port and store.
func (h *hub) restart() {
	h.stop()
	n := startHub(h.t, h.dir, h.port)
	h.srv = n.srv
}

// connect returns a JetStream context on a connection that reconnects for
// ever.
func connect(t *testing.T, url string) (*nats.Conn, jetstream.JetStream) {
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
