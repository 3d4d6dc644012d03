package web

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func testHandler(t *testing.T) (*handler, string) {
	t.Helper()
	token, err := newToken(filepath.Join(t.TempDir(), "s", "web-token"))
	if err != nil {
		t.Fatal(err)
	}
	return newHandler(token, "7681", false, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), make(chan struct{})), token
}

func get(h http.Handler, target string, edit func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Host = "127.0.0.1:7681"
	if edit != nil {
		edit(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandler_TokenRequired(t *testing.T) {
	h, token := testHandler(t)
	for _, path := range []string{"/", "/app.js", "/app.css", "/ws", "/?token=wrong", "/ws?token=" + token[:10]} {
		if w := get(h, path, nil); w.Code != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %d, want 401", path, w.Code)
		}
	}
	w := get(h, "/?token="+token, nil)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "/app.js") {
		t.Fatalf("GET /?token: %d, want the page", w.Code)
	}
	var cookie []*http.Cookie
	legacyExpired := false
	for _, c := range w.Result().Cookies() {
		if c.Name == legacyCookie {
			legacyExpired = c.MaxAge < 0
			continue
		}
		cookie = append(cookie, c)
	}
	if len(cookie) != 1 || cookie[0].Name != "herdr_page_7681" || cookie[0].Value == token || strings.Contains(cookie[0].Value, token) ||
		!cookie[0].HttpOnly || cookie[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie: %+v, want herdr_page_7681 with a value that is not the token", cookie)
	}
	if !legacyExpired {
		t.Errorf("the link does not expire the old herdr_token cookie")
	}
	w = get(h, "/", func(r *http.Request) { r.AddCookie(cookie[0]) })
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "/app.js") {
		t.Fatalf("GET / with the cookie: %d %.100q", w.Code, w.Body.String())
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	w = get(h, "/app.js", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) })
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "screen.subscribe") {
		t.Fatalf("GET /app.js with a bearer token: %d", w.Code)
	}
	if w := get(h, "/nope", func(r *http.Request) { r.AddCookie(cookie[0]) }); w.Code != http.StatusNotFound {
		t.Errorf("unknown path: %d", w.Code)
	}
	// The cookie opens the page's files only: never the WebSocket, and
	// not as a token either.
	for name, edit := range map[string]func(*http.Request){
		"cookie":      func(r *http.Request) { r.AddCookie(cookie[0]) },
		"bearer":      func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+cookie[0].Value) },
		"subprotocol": func(r *http.Request) { r.Header.Set("Sec-WebSocket-Protocol", "herdr, herdr.token."+cookie[0].Value) },
		"old cookie":  func(r *http.Request) { r.AddCookie(&http.Cookie{Name: legacyCookie, Value: token}) },
	} {
		if w := get(h, "/ws", edit); w.Code != http.StatusUnauthorized {
			t.Errorf("GET /ws with the page cookie's value as %s: %d, want 401", name, w.Code)
		}
	}
	if w := get(h, "/ws?token="+cookie[0].Value, nil); w.Code != http.StatusUnauthorized {
		t.Errorf("GET /ws with the page cookie's value as the token: %d, want 401", w.Code)
	}
}

// The token in the WebSocket's subprotocol list (as the page sends it)
// is a credential; next to a wrong one, or misspelt, it is not.
func TestHandler_SubprotocolToken(t *testing.T) {
	h, token := testHandler(t)
	wrongLast := "0"
	if strings.HasSuffix(token, "0") {
		wrongLast = "1" // a misspelt token, whatever its last digit
	}
	for value, want := range map[string]int{
		"herdr, herdr.token." + token:                  http.StatusOK,
		"herdr.token." + token:                         http.StatusOK,
		"herdr, herdr.token." + token[:63] + wrongLast: http.StatusUnauthorized,
		"herdr, herdr-token." + token:                  http.StatusUnauthorized,
		"herdr":                                        http.StatusUnauthorized,
	} {
		if w := get(h, "/app.js", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Protocol", value) }); w.Code != want {
			t.Errorf("Sec-WebSocket-Protocol %q: %d, want %d", value, w.Code, want)
		}
	}
}

// Whatever the dashboard refuses, it closes the connection after: a
// client without the token keeps nothing open.
func TestHandler_RefusalsClose(t *testing.T) {
	h, token := testHandler(t)
	cases := map[string]func(*http.Request){
		"no token":   nil,
		"wrong host": func(r *http.Request) { r.Host = "evil.example"; r.URL.RawQuery = "token=" + token },
		"post":       func(r *http.Request) { r.Method = http.MethodPost; r.URL.RawQuery = "token=" + token },
		"a body":     func(r *http.Request) { r.ContentLength = 5; r.URL.RawQuery = "token=" + token },
		"chunked":    func(r *http.Request) { r.TransferEncoding = []string{"chunked"}; r.URL.RawQuery = "token=" + token },
	}
	for name, edit := range cases {
		w := get(h, "/", edit)
		if w.Code < 400 || w.Header().Get("Connection") != "close" {
			t.Errorf("%s: %d, Connection %q; want a refusal that closes", name, w.Code, w.Header().Get("Connection"))
		}
	}
	if w := get(h, "/app.js", func(r *http.Request) { r.ContentLength = 5; r.Header.Set("Authorization", "Bearer "+token) }); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a request with a body: %d, want 413", w.Code)
	}
}

func TestHandler_RefusesForeignHostsAndWrites(t *testing.T) {
	h, token := testHandler(t)
	if w := get(h, "/?token="+token, func(r *http.Request) { r.Host = "evil.example:7681" }); w.Code != http.StatusForbidden {
		t.Errorf("rebinding host: %d, want 403", w.Code)
	}
	r := httptest.NewRequest(http.MethodPost, "/?token="+token, strings.NewReader("x"))
	r.Host = "localhost:7681"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", w.Code)
	}
}

func TestToken_FileIsPrivateAndFresh(t *testing.T) {
	path := filepath.Join(t.TempDir(), "web-token")
	a, err := newToken(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newToken(path)
	if a == b || len(a) != 64 {
		t.Fatalf("tokens %q %q", a, b)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(path)
	if strings.TrimSpace(string(data)) != b {
		t.Fatalf("file holds %q, want the newest token", data)
	}
}

func TestCheckListen(t *testing.T) {
	cases := []struct {
		listen string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7681", false, true},
		{"localhost:0", false, true},
		{"[::1]:7681", false, true},
		{"0.0.0.0:7681", false, false},
		{"192.0.2.1:7681", false, false},
		{"0.0.0.0:7681", true, true},
		{"7681", true, false},
	}
	for _, c := range cases {
		if err := checkListen(c.listen, c.remote); (err == nil) != c.ok {
			t.Errorf("checkListen(%q, %v) = %v", c.listen, c.remote, err)
		}
	}
}

func TestBucket_LimitsBursts(t *testing.T) {
	now := time.Now()
	k := bucket{tokens: inputBurst, at: now}
	n := 0
	for k.take(now) {
		n++
	}
	if n != inputBurst {
		t.Fatalf("burst of %d, want %d", n, inputBurst)
	}
	if !k.take(now.Add(time.Second / inputRate * 2)) {
		t.Fatal("no token after a pause")
	}
}

// A handoff's heir keeps a well-formed token its predecessor wrote 0600;
// anything else is not a token to trust.
func TestOldToken(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes do not say who may read a file on Windows; there is no handoff there either")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "web-token")
	tok, err := newToken(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := oldToken(path); got != tok {
		t.Fatalf("oldToken = %q, want %q", got, tok)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := oldToken(path); got != "" {
		t.Fatalf("a token others may read was kept: %q", got)
	}
	os.WriteFile(path, []byte("not-hex\n"), 0o600)
	if got := oldToken(path); got != "" {
		t.Fatalf("a malformed token was kept: %q", got)
	}
	if got := oldToken(filepath.Join(dir, "none")); got != "" {
		t.Fatalf("a missing file gave %q", got)
	}
}

func TestServedAddr(t *testing.T) {
	for _, c := range []struct{ listen, bound, want string }{
		{"127.0.0.1:0", "127.0.0.1:40001", "127.0.0.1:40001"},
		{"0.0.0.0:0", "[::]:40002", "0.0.0.0:40002"},
		{"localhost:7681", "127.0.0.1:7681", "localhost:7681"},
		{"[::1]:0", "[::1]:40003", "[::1]:40003"},
	} {
		bound, err := net.ResolveTCPAddr("tcp", c.bound)
		if err != nil {
			t.Fatal(err)
		}
		if got := servedAddr(c.listen, bound); got != c.want {
			t.Errorf("servedAddr(%q, %s) = %q, want %q", c.listen, c.bound, got, c.want)
		}
	}
}
