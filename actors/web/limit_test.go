package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// heldCall is a call the fake session keeps unanswered until the test
// answers it.
type heldCall struct {
	call   *kit.Call
	sender *actor.PID
}

// fakeSession answers every call OK at once, except the methods in hold,
// which it hands to the test on held.
type fakeSession struct {
	hold map[string]bool
	held chan heldCall
}

func (f *fakeSession) Receive(ctx actor.Context) {
	if c, ok := ctx.Message().(*kit.Call); ok {
		if f.hold[c.Method] {
			f.held <- heldCall{call: c, sender: ctx.Sender()}
			return
		}
		ctx.Respond(kit.OK())
	}
}

type dashboard struct {
	system *actor.ActorSystem
	addr   string
	token  string
	held   chan heldCall
}

// startDashboard runs the listener actor on a loopback port with a fake
// session, under the limits and timeouts given (nil: the defaults).
func startDashboard(t *testing.T, fds int, to *timeouts, hold ...string) *dashboard {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	d := &dashboard{system: system, held: make(chan heldCall, 16)}
	fs := &fakeSession{hold: map[string]bool{}, held: d.held}
	for _, m := range hold {
		fs.hold[m] = true
	}
	session := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return fs }))
	opts := Options{Session: session, Events: session, Log: quiet, Listen: "127.0.0.1:0", timeouts: to}
	if fds > 0 {
		opts.fdLimit = func() (int, bool) { return fds, true }
	}
	pid := system.Root.Spawn(Props(opts))
	t.Cleanup(func() { _ = system.Root.StopFuture(pid).Wait() })
	res, err := system.Root.RequestFuture(pid, &kit.Call{Method: "web.url"}, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*kit.Reply)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	started := r.Result.(protocol.WebStarted)
	d.addr = started.Listen
	_, d.token, _ = strings.Cut(started.URL, "?token=")
	return d
}

// dial opens a TCP connection to the dashboard.
func (d *dashboard) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", d.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readAll reads what the server sends until it closes the connection;
// err is nil when it did (EOF or a reset), else why reading stopped.
func readAll(c net.Conn, wait time.Duration) (string, error) {
	_ = c.SetReadDeadline(time.Now().Add(wait))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return string(b), err
	}
	return string(b), nil
}

func TestConnLimits(t *testing.T) {
	for _, c := range []struct {
		fds           int
		limited       bool
		fresh, authed int
	}{
		{0, false, maxFresh, maxAuthed},
		{1 << 20, true, maxFresh, maxAuthed},
		{256, true, 8, 24},
		{128, true, 4, 12},
		{8, true, 1, 1},
	} {
		if f, a := connLimits(c.fds, c.limited); f != c.fresh || a != c.authed {
			t.Errorf("connLimits(%d, %v) = %d, %d; want %d, %d", c.fds, c.limited, f, a, c.fresh, c.authed)
		}
	}
}

// A client without the token is answered 401 and the connection closed
// at once: before, it was kept alive, and idle, forever.
func TestDashboard_UnauthenticatedConnectionsClose(t *testing.T) {
	d := startDashboard(t, 0, nil)
	for range 20 {
		c := d.dial(t)
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: "+d.addr+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(c, 10*time.Second)
		if err != nil {
			t.Fatalf("the connection stayed open after %q: %v", got, err)
		}
		if !strings.HasPrefix(got, "HTTP/1.1 401") || !strings.Contains(got, "Connection: close") {
			t.Fatalf("GET / without the token: %q", got)
		}
	}
}

// Past the unauthenticated budget the oldest silent connections are told
// 503 and closed, and a client with the token still gets through (its
// request follows its connect, so it is never the oldest).
func TestDashboard_UnauthenticatedBudget(t *testing.T) {
	d := startDashboard(t, 128, nil) // 4 unauthenticated, 12 authenticated
	const flood = 20
	conns := make([]net.Conn, flood)
	for i := range conns {
		conns[i] = d.dial(t)
	}
	for i, c := range conns[:flood-4] {
		got, err := readAll(c, 10*time.Second)
		if err != nil || !strings.HasPrefix(got, "HTTP/1.1 503") || !strings.Contains(got, tooMany) {
			t.Fatalf("idle connection %d of %d, past the budget of 4: %q %v", i, flood, got, err)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+d.addr+"/app.js", nil)
	req.Header.Set("Authorization", "Bearer "+d.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /app.js with the token during the flood: %d", resp.StatusCode)
	}
}

// Past the authenticated budget a request with the token is told 503;
// a WebSocket's place comes back when it closes.
func TestDashboard_AuthenticatedBudget(t *testing.T) {
	d := startDashboard(t, 16, nil) // 1 unauthenticated, 1 authenticated
	ws := d.dialWS(t)
	c := d.dial(t)
	if _, err := io.WriteString(c, "GET /app.js HTTP/1.1\r\nHost: "+d.addr+"\r\nAuthorization: Bearer "+d.token+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := readAll(c, 10*time.Second); err != nil || !strings.HasPrefix(got, "HTTP/1.1 503") {
		t.Fatalf("a second authenticated connection past the budget of 1: %.80q %v", got, err)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, "http://"+d.addr+"/app.js", nil)
		req.Header.Set("Authorization", "Bearer "+d.token)
		req.Close = true
		resp, err := http.DefaultClient.Do(req)
		status := 0
		if err == nil {
			resp.Body.Close()
			status = resp.StatusCode
		}
		if status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the closed WebSocket's place never came back: %d %v", status, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Headers past maxHeaderBytes are refused (net/http's default is 1 MB).
func TestDashboard_BoundsHeaders(t *testing.T) {
	d := startDashboard(t, 0, nil)
	c := d.dial(t)
	big := strings.Repeat("a", 4*maxHeaderBytes)
	go io.WriteString(c, "GET / HTTP/1.1\r\nHost: "+d.addr+"\r\nX-Big: "+big+"\r\n\r\n")
	got, _ := readAll(c, 10*time.Second)
	if !strings.HasPrefix(got, "HTTP/1.1 431") {
		t.Fatalf("a %d-byte header: %.80q, want 431", len(big), got)
	}
}

// dialWS opens the dashboard's WebSocket as the page does: the token in
// the subprotocol list, from the page's origin.
func (d *dashboard) dialWS(t *testing.T) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, "ws://"+d.addr+"/ws", &websocket.DialOptions{
		Subprotocols: []string{"herdr", "herdr.token." + d.token},
		HTTPHeader:   http.Header{"Origin": {"http://" + d.addr}},
	})
	if err != nil {
		t.Fatalf("dial the WebSocket: %v", err)
	}
	if resp.Header.Get("Sec-WebSocket-Protocol") != "herdr" {
		t.Fatalf("subprotocol %q, want herdr", resp.Header.Get("Sec-WebSocket-Protocol"))
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// roundTrip sends one request on the page's socket and reads lines until
// its answer.
func roundTrip(t *testing.T, ws *websocket.Conn, id, method string) protocol.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":"`+id+`","method":"`+method+`","params":{}}`)); err != nil {
		t.Fatalf("write: %v", err)
	}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var resp protocol.Response
		if json.Unmarshal(data, &resp) == nil && resp.ID == id {
			return resp
		}
	}
}

// The page's WebSocket is not held to the request timeouts: it answers
// well past the read, write and idle timeouts of its upgrade request.
func TestDashboard_WebSocketOutlivesRequestTimeouts(t *testing.T) {
	d := startDashboard(t, 0, &timeouts{header: 200 * time.Millisecond, read: 200 * time.Millisecond, write: 200 * time.Millisecond, idle: 200 * time.Millisecond})
	ws := d.dialWS(t)
	if r := roundTrip(t, ws, "1", "session.snapshot"); r.Error != nil {
		t.Fatalf("first call: %+v", r.Error)
	}
	time.Sleep(time.Second)
	if r := roundTrip(t, ws, "2", "session.snapshot"); r.Error != nil {
		t.Fatalf("call after the request timeouts passed: %+v", r.Error)
	}
}

// A large message holds the whole read window: while one waits for its
// answer the page's next messages are not read, so a page cannot have
// window × 8 MB in the server at once. Before, a small message sent
// after it was read and answered at once.
func TestDashboard_LargeMessageHoldsTheWindow(t *testing.T) {
	d := startDashboard(t, 0, nil, "pane.send_text")
	ws := d.dialWS(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	big := `{"id":"big","method":"pane.send_text","params":{"pane_id":"w1:p1","text":"` + strings.Repeat("x", 2*smallMessage) + `"}}`
	if err := ws.Write(ctx, websocket.MessageText, []byte(big)); err != nil {
		t.Fatal(err)
	}
	var held heldCall
	select {
	case held = <-d.held:
	case <-ctx.Done():
		t.Fatal("the large message never reached the session")
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":"small","method":"nope.nope","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 4)
	go func() {
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				close(lines)
				return
			}
			lines <- string(data)
		}
	}()
	// Nothing may be answered while the large message is held; a wait
	// that is too short can only miss a failure, never invent one.
	select {
	case l := <-lines:
		t.Fatalf("answered while a large message was unanswered: %.100s", l)
	case <-time.After(500 * time.Millisecond):
	}
	d.system.Root.Send(held.sender, kit.OK())
	for _, want := range []string{`"id":"big"`, `"id":"small"`} {
		select {
		case l := <-lines:
			if !strings.Contains(l, want) {
				t.Fatalf("got %.100s, want the answer with %s", l, want)
			}
		case <-ctx.Done():
			t.Fatalf("no answer with %s", want)
		}
	}
}
