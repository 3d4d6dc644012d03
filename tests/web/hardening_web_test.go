package web

import (
	"errors"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	. "github.com/herdr-go/herdr/tests/harness"
)

// serverFDs counts the server's open descriptors, where /proc tells.
func serverFDs(t *testing.T, s *Server) (int, bool) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return 0, false
	}
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(s.Cmd.Process.Pid) + "/fd")
	if err != nil {
		t.Fatalf("count the server's fds: %v", err)
	}
	return len(ents), true
}

// dashboardAddr is host:port of the dashboard `herdr web url` names, and
// its token.
func dashboardAddr(t *testing.T, s *Server) (addr, token string) {
	t.Helper()
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	base, token, ok := strings.Cut(url, "/?token=")
	if !ok {
		t.Fatalf("herdr web url printed %q", url)
	}
	return strings.TrimPrefix(base, "http://"), token
}

// untilClosed reads c until the server closes it; err says why reading
// stopped otherwise (the deadline only keeps a broken server from hanging
// the test).
func untilClosed(c net.Conn) (string, error) {
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return string(b), err
	}
	return string(b), nil
}

// flood opens n connections to addr, each sending send as soon as it is
// connected, and reads each until the server closes it. It returns what
// each read and how many the server left open; the connections stay open
// on this side until the test ends.
func flood(t *testing.T, addr string, n int, send string) (got []string, open int) {
	t.Helper()
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatalf("connection %d of %d: %v", i, n, err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
		_, _ = io.WriteString(c, send) // fails only once the server closed it
	}
	got = make([]string, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := untilClosed(c)
			mu.Lock()
			defer mu.Unlock()
			got[i] = s
			if err != nil {
				open++
			}
		}()
	}
	wg.Wait()
	return got, open
}

// TestHardening_Web_UnauthenticatedFlood is the probe's script: under a
// 256-fd limit, 400 connections each send `GET /` without the token. Each
// used to be answered 401 and kept open, idle, forever, until the server
// had no fd left and the owner's own workspace.create failed. Now each is
// closed by the server (after its 401, or pushed out of the budget of
// unauthenticated connections), the server's fds come back to where they
// were while the flood's sockets are still open on this side, and the
// owner's socket API works.
func TestHardening_Web_UnauthenticatedFlood(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := StartUnderFDLimit(t, h, "webfd", 256)
	addr, _ := dashboardAddr(t, s)
	before, counted := serverFDs(t, s)

	const n = 400
	got, open := flood(t, addr, n, "GET / HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if open > 0 {
		t.Fatalf("%d of %d connections without the token were left open by the server", open, n)
	}
	answered := 0
	for i, g := range got {
		switch {
		case strings.HasPrefix(g, "HTTP/1.1 401"):
			if !strings.Contains(g, "Connection: close") {
				t.Fatalf("connection %d: a 401 that does not say it closes: %q", i, g)
			}
			answered++
		case g == "" || strings.HasPrefix(g, "HTTP/1.1 503"):
			// pushed out of the budget before its request was read
		default:
			t.Fatalf("connection %d read %q", i, g)
		}
	}
	if answered == 0 {
		t.Fatalf("no connection of %d was answered 401", n)
	}
	t.Logf("%d connections: %d answered 401, %d pushed out", n, answered, n-answered)
	if counted {
		// The server closed every one of them (their EOFs came after), so
		// its count is back, give or take its own comings and goings.
		after, _ := serverFDs(t, s)
		if after > before+8 {
			t.Fatalf("the server holds %d fds after the flood, %d before", after, before)
		}
		t.Logf("server fds: %d before, %d after", before, after)
	}
	p := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, p)
}

// TestHardening_Web_ConnectionCapKeepsThePage: a browser has the
// dashboard open; 300 idle connections then arrive. Past the budget of 64
// unauthenticated ones, the oldest are told 503 and closed (before, all
// stayed until the header timeout), the server never holds more, and the
// page keeps working: its WebSocket answers, a request with the token
// gets through, and the page reloads.
func TestHardening_Web_ConnectionCapKeepsThePage(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webcap")
	addr, token := dashboardAddr(t, s)
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	ctx := Browser(t, exe)
	paneRow := chromedp.CSS(`li.pane[data-pane="` + shell + `"]`)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/?token="+token), chromedp.WaitVisible(paneRow)); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	before, counted := serverFDs(t, s)

	const n, budget = 300, 64
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatalf("connection %d of %d: %v", i, n, err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
	}
	if counted {
		if now, _ := serverFDs(t, s); now > before+budget+8 {
			t.Errorf("the server holds %d fds with %d idle connections, %d before: more than the budget of %d", now, n, before, budget)
		}
	}
	// The page, while they are there.
	answer, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("session.snapshot").then(() => "ok", (e) => e.message)`, chromedp.EvalAwaitPromise))
	if err != nil || answer != "ok" {
		t.Fatalf("the page's call during the flood: %q %v", answer, err)
	}
	if code := GetWithToken(t, "http://"+addr+"/app.js", token); code != http.StatusOK {
		t.Fatalf("GET /app.js with the token during the flood: %d", code)
	}

	pushedOut := 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := untilClosed(c)
			if err != nil {
				t.Errorf("an idle connection was never closed: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.HasPrefix(got, "HTTP/1.1 503") {
				pushedOut++
			}
		}()
	}
	wg.Wait()
	t.Logf("%d idle connections: %d pushed out with a 503", n, pushedOut)
	if pushedOut < n-budget {
		t.Fatalf("%d of %d idle connections were told 503, want at least %d past the budget of %d", pushedOut, n, n-budget, budget)
	}
	// A reload of the clean address: the page's cookie serves the page,
	// the tab's sessionStorage the token.
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(paneRow)); err != nil {
		t.Fatalf("reload the dashboard: %v", err)
	}
}

// cookieCatcher is another listener on 127.0.0.1, as any local user may
// run: it records what the browser sends it.
type cookieCatcher struct {
	mu      sync.Mutex
	cookies []*http.Cookie
	seen    []string // request lines and headers, as received
}

func (c *cookieCatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cookies = append(c.cookies, r.Cookies()...)
	var b strings.Builder
	b.WriteString(r.Method + " " + r.URL.String() + "\n")
	_ = r.Header.Write(&b)
	c.seen = append(c.seen, b.String())
	io.WriteString(w, "<!doctype html><title>elsewhere</title><p id=here>elsewhere</p>")
	if link := r.URL.Query().Get("link"); link != "" {
		io.WriteString(w, `<a id=link href="`+html.EscapeString(link)+`">the dashboard</a>`)
	}
}

// TestHardening_Web_CookieUselessElsewhere: browsers send a host's
// cookies to all its ports, so another listener on 127.0.0.1, visited
// by the browser that has the dashboard open, receives them. It used to
// receive the token itself (herdr_token) and could type into the
// person's shells with it. Now what it receives opens no WebSocket, in
// whatever way it is replayed, and holds no token; the dashboard tab
// still reloads.
func TestHardening_Web_CookieUselessElsewhere(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webcookie")
	addr, token := dashboardAddr(t, s)
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	paneRow := chromedp.CSS(`li.pane[data-pane="` + shell + `"]`)

	catcher := &cookieCatcher{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	other := &http.Server{Handler: catcher}
	go other.Serve(ln)
	t.Cleanup(func() { other.Close() })

	// The person follows the link from another site's page (a chat, a
	// mail): the dashboard opens, and the token leaves the address bar.
	ctx := Browser(t, exe)
	link := "http://" + ln.Addr().String() + "/?" + url.Values{"link": {"http://" + addr + "/?token=" + token}}.Encode()
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.Click(chromedp.CSS("#link")), chromedp.WaitVisible(paneRow)); err != nil {
		t.Fatalf("open the dashboard from a link on another site: %v", err)
	}
	if href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`)); err != nil || href != "http://"+addr+"/" {
		t.Errorf("the address bar shows %q, want the clean http://%s/", href, addr)
	}
	catcher.mu.Lock()
	catcher.cookies, catcher.seen = nil, nil // the link page's own URL held the token
	catcher.mu.Unlock()
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/"), chromedp.WaitVisible(chromedp.CSS("#here"))); err != nil {
		t.Fatalf("visit the other listener: %v", err)
	}
	catcher.mu.Lock()
	cookies, seen := catcher.cookies, strings.Join(catcher.seen, "\n")
	catcher.mu.Unlock()
	if len(cookies) == 0 {
		t.Fatalf("the other listener received no cookie of the dashboard's; the test shows nothing:\n%s", seen)
	}
	if strings.Contains(seen, token) {
		t.Errorf("the other listener received the token:\n%s", seen)
	}

	// Replay each value it captured against the dashboard's WebSocket,
	// from a client of its own with the page's origin, as cookie, bearer,
	// query and subprotocol: none may open it.
	upgrade := func(query string, edit func(*http.Request)) int {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/ws"+query, nil)
		for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
			"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://" + addr} {
			req.Header.Set(k, v)
		}
		if edit != nil {
			edit(req)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := upgrade("?token="+token, nil); code != http.StatusSwitchingProtocols {
		t.Fatalf("the WebSocket with the token: %d, want 101 (the replays below would prove nothing)", code)
	}
	for _, c := range cookies {
		t.Logf("captured cookie %s (%d bytes)", c.Name, len(c.Value))
		for how, edit := range map[string]func(*http.Request){
			"cookie":      func(r *http.Request) { r.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value}) },
			"bearer":      func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+c.Value) },
			"subprotocol": func(r *http.Request) { r.Header.Set("Sec-WebSocket-Protocol", "herdr, herdr.token."+c.Value) },
		} {
			if code := upgrade("", edit); code != http.StatusUnauthorized {
				t.Errorf("the captured cookie %s replayed as %s opens the WebSocket: %d, want 401", c.Name, how, code)
			}
		}
		if code := upgrade("?token="+c.Value, nil); code != http.StatusUnauthorized {
			t.Errorf("the captured cookie %s replayed as the query token: %d, want 401", c.Name, code)
		}
	}

	// Back in the dashboard's tab, the clean address reloads it.
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(paneRow)); err != nil {
		t.Fatalf("reload the dashboard: %v", err)
	}
	answer, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("session.snapshot").then(() => "ok", (e) => e.message)`, chromedp.EvalAwaitPromise))
	if err != nil || answer != "ok" {
		t.Fatalf("the reloaded page's call: %q %v", answer, err)
	}
}
