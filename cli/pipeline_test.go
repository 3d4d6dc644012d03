package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// holdingServer answers one connection, and answers a ping only once the
// line after it has arrived: a client that waits for the pong before
// sending its request never gets one (it gives up at pingTimeout). It
// returns the socket and a channel that yields the methods it saw.
func holdingServer(t *testing.T, proto int) (string, <-chan []string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "hpipe")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "herdr.sock")
	ln, err := protocol.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan []string, 1)
	go func() {
		conn, err := ln.Accept()
		ln.Close()
		if err != nil {
			seen <- nil
			return
		}
		defer conn.Close()
		var methods []string
		defer func() { seen <- methods }()
		var heldPong string
		sc := bufio.NewScanner(conn)
		for sc.Scan() {
			var req protocol.Request
			if json.Unmarshal(sc.Bytes(), &req) != nil {
				return
			}
			methods = append(methods, req.Method)
			id, _ := json.Marshal(req.ID)
			if req.Method == "ping" {
				heldPong = fmt.Sprintf(`{"id":%s,"result":{"type":"pong","version":"0.0.1","protocol":%d}}`+"\n", id, proto)
				continue
			}
			fmt.Fprintf(conn, `%s{"id":%s,"result":{"type":"echo","method":%q}}`+"\n", heldPong, id, req.Method)
			heldPong = ""
		}
	}()
	return sock, seen
}

// A read is written together with its ping: one round trip, and the
// answer printed as it came.
func TestReadSentWithItsPing(t *testing.T) {
	defer func(d time.Duration) { pingTimeout = d }(pingTimeout)
	pingTimeout = time.Second // what the code before this waited, then failed
	sock, seen := holdingServer(t, protocol.ProtocolVersion)
	env := newEnv(t)
	env["HERDR_SOCKET_PATH"] = sock
	r := run(t, env, "pane", "list", "--json")
	want := `{"id":"cli:pane:list","result":{"type":"echo","method":"pane.list"}}` + "\n"
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("exit %d stdout %q stderr %q, want 0 and %q", r.code, r.stdout, r.stderr, want)
	}
	if got := <-seen; strings.Join(got, " ") != "ping pane.list" {
		t.Errorf("the server saw %v, want ping then pane.list on one connection", got)
	}
}

// A server of another protocol answers the pipelined read too: the
// answer is dropped and the mismatch reported, as before.
func TestReadFromMismatchedServer(t *testing.T) {
	defer func(d time.Duration) { pingTimeout = d }(pingTimeout)
	pingTimeout = time.Second
	sock, seen := holdingServer(t, 19)
	env := newEnv(t)
	env["HERDR_SOCKET_PATH"] = sock
	r := run(t, env, "pane", "list", "--json")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q, want 1 and nothing", r.code, r.stdout)
	}
	resp := errorLine(t, r.stderr)
	if resp.ID != "cli:pane:list" || resp.Error.Code != "protocol_mismatch" || !strings.Contains(resp.Error.Message, "protocol 19") {
		t.Errorf("stderr %q", r.stderr)
	}
	<-seen
}
