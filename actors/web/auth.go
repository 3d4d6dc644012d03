package web

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/protocol"
)

//go:embed static
var static embed.FS

// cookieName carries the token after the first page load, so the page's
// own requests and its WebSocket need not put it in a URL.
const cookieName = "herdr_token"

// newToken makes a random token and writes it to path, readable by the
// owner only (the file is replaced, never appended to).
func newToken(path string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make token: %w", err)
	}
	token := hex.EncodeToString(b)
	if path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("write token: %w", err)
		}
		if err := protocol.WriteOwnFile(path, []byte(token+"\n"), 0o600); err != nil { // never through a planted link
			return "", fmt.Errorf("write token: %w", err)
		}
	}
	return token, nil
}

// oldToken is the token a predecessor wrote at path, or "" when there is
// no well-formed one (written 0600 by this user: anything else is ignored).
func oldToken(path string) string {
	fi, err := os.Stat(path)
	if path == "" || err != nil || fi.Mode().Perm()&0o077 != 0 {
		return ""
	}
	b, err := protocol.ReadRegularFile(path, 4<<10) // a FIFO there must not stall the start
	token := strings.TrimSpace(string(b))
	if _, herr := hex.DecodeString(token); err != nil || herr != nil || len(token) != 64 {
		return ""
	}
	return token
}

// checkListen refuses a malformed address, and one beyond loopback
// unless allowRemote.
func checkListen(listen string, allowRemote bool) error {
	if _, _, err := net.SplitHostPort(listen); err != nil {
		return fmt.Errorf("invalid listen address %q (use host:port, e.g. %s)", listen, DefaultListen)
	}
	if !allowRemote && !isLoopback(listen) {
		return fmt.Errorf("%s is not a loopback address; set allow_remote = true under [web] in config.toml to serve the dashboard beyond this machine", listen)
	}
	return nil
}

// isLoopback reports whether a host or host:port names this machine only.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// handler serves the page, its files and the WebSocket.
type handler struct {
	token  string
	remote bool // listening beyond loopback: any Host header will do
	root   *actor.RootContext
	self   *actor.PID
	log    *slog.Logger
	files  http.Handler
	quit   chan struct{} // closed when the listener stops
}

func newHandler(token string, remote bool, root *actor.RootContext, self *actor.PID, log *slog.Logger, quit chan struct{}) *handler {
	sub, _ := fs.Sub(static, "static")
	return &handler{token: token, remote: remote, root: root, self: self, log: log, files: http.FileServerFS(sub), quit: quit}
}

// authorized reports whether r carries the token, and whether it came in
// the query (the link `herdr web url` prints).
func (h *handler) authorized(r *http.Request) (ok, fromQuery bool) {
	match := func(s string) bool {
		return s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(h.token)) == 1
	}
	if match(r.URL.Query().Get("token")) {
		return true, true
	}
	if c, err := r.Cookie(cookieName); err == nil && match(c.Value) {
		return true, false
	}
	if b, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found && match(b) {
		return true, false
	}
	return false, false
}

// ServeHTTP implements http.Handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cache-Control", "no-store")
	// A loopback dashboard answers loopback names only, so a page of
	// another site cannot reach it by rebinding its own name to 127.0.0.1.
	if !h.remote && !isLoopback(r.Host) {
		http.Error(w, "herdr: wrong host", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "herdr: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	ok, fromQuery := h.authorized(r)
	if !ok {
		http.Error(w, "herdr: missing or wrong token; open the address `herdr web url` prints", http.StatusUnauthorized)
		return
	}
	switch r.URL.Path {
	case "/ws":
		h.websocket(w, r)
		return
	case "/":
		if fromQuery {
			// Keep the token out of the address bar and history: a cookie
			// only this origin's requests carry, then a clean URL.
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: h.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
	case "/app.js", "/app.css":
	default:
		http.NotFound(w, r)
		return
	}
	h.files.ServeHTTP(w, r)
}

// maxMessage bounds one WebSocket message from a browser (a .cast file
// uploaded for replay is the largest).
const maxMessage = 8 << 20

// websocket upgrades the request (its Origin must be this host's: the
// library refuses others) and hands the socket to a new browser actor,
// keeping the handler alive while that actor uses it.
func (h *handler) websocket(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		h.log.Info("web socket refused", "err", err, "origin", r.Header.Get("Origin"))
		return
	}
	ws.SetReadLimit(maxMessage)
	done := make(chan struct{})
	h.root.Send(h.self, &accepted{ws: ws, done: done})
	select {
	case <-done:
	case <-h.quit:
		ws.CloseNow()
	}
}
