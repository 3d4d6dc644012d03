package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
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
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

//go:embed static
var static embed.FS

// The credential. The token (64 hex digits) opens everything; the link
// `herdr web url` prints carries it in its query, and the page keeps it in
// its tab's sessionStorage (scoped to this origin, port included) and
// sends it in the WebSocket's subprotocol list. A cookie would not do:
// browsers send cookies to every port of a host, so another listener on
// 127.0.0.1 would receive it and could replay it. The page's cookie is
// therefore named for this port and holds only a key derived from the
// token, which opens the page's own files (the public code of the page)
// and never the WebSocket.
const (
	// wsProtocol is the subprotocol the server selects; the page offers
	// it with tokenProtocol+token beside it.
	wsProtocol    = "herdr"
	tokenProtocol = "herdr.token."
	// legacyCookie is the cookie earlier versions put the token itself
	// in: expired when the link is opened, so it stops travelling.
	legacyCookie = "herdr_token"
)

// pageCookieName is the page cookie's name on the dashboard at port:
// dashboards of several sessions do not overwrite each other's.
func pageCookieName(port string) string { return "herdr_page_" + port }

// pageKey is the page cookie's value: derived from the token (so a
// server that took over by a live handoff accepts it) and useless for
// anything but the page's files.
func pageKey(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("herdr dashboard page cookie"))
	return hex.EncodeToString(m.Sum(nil))
}

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
	token   string
	pageKey string
	cookie  string // the page cookie's name
	remote  bool   // listening beyond loopback: any Host header will do
	root    *actor.RootContext
	self    *actor.PID
	log     *slog.Logger
	files   http.Handler
	quit    chan struct{} // closed when the listener stops
	// limited are the tokens `herdr web --policy` minted, each with its
	// policy (the listener actor replaces the map, never changes it).
	limited *atomic.Pointer[map[string]config.Policy]
}

func newHandler(token, port string, remote bool, root *actor.RootContext, self *actor.PID, log *slog.Logger, quit chan struct{}) *handler {
	sub, _ := fs.Sub(static, "static")
	return &handler{token: token, pageKey: pageKey(token), cookie: pageCookieName(port), remote: remote,
		root: root, self: self, log: log, files: http.FileServerFS(sub), quit: quit}
}

// access is what a request's credential opens.
type access int

const (
	noAccess   access = iota
	pageAccess        // the page cookie: the page's own files
	fullAccess        // the token: the WebSocket too
)

// authorized reports what r's credential opens, whether the token came
// in the query (the link `herdr web url` prints), and the policy the
// token carries: a token minted by `herdr web --policy NAME` opens the WebSocket for a page
// whose every call that policy limits (nil: the full token).
func (h *handler) authorized(r *http.Request) (a access, fromQuery bool, pol *config.Policy) {
	match := func(s, want string) bool {
		return s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(want)) == 1
	}
	// Each offered token: the full one, else one carrying a policy.
	check := func(s string) (bool, *config.Policy) {
		if match(s, h.token) {
			return true, nil
		}
		if h.limited != nil {
			if m := h.limited.Load(); m != nil {
				for tok, p := range *m {
					if match(s, tok) {
						return true, &p
					}
				}
			}
		}
		return false, nil
	}
	if ok, p := check(r.URL.Query().Get("token")); ok {
		return fullAccess, true, p
	}
	if b, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found {
		if ok, p := check(b); ok {
			return fullAccess, false, p
		}
	}
	for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, s := range strings.Split(v, ",") {
			if t, found := strings.CutPrefix(strings.TrimSpace(s), tokenProtocol); found {
				if ok, p := check(t); ok {
					return fullAccess, false, p
				}
			}
		}
	}
	if c, err := r.Cookie(h.cookie); err == nil && match(c.Value, h.pageKey) {
		return pageAccess, false, nil
	}
	return noAccess, false, nil
}

// refuse answers a request the dashboard will not serve and closes its
// connection: a refused client keeps nothing open here.
func refuse(w http.ResponseWriter, msg string, code int) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
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
		refuse(w, "herdr: wrong host", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		refuse(w, "herdr: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	// The dashboard reads no request body: one is refused, never waited on.
	if r.ContentLength != 0 || len(r.TransferEncoding) > 0 {
		refuse(w, "herdr: the dashboard takes no request body", http.StatusRequestEntityTooLarge)
		return
	}
	a, fromQuery, pol := h.authorized(r)
	if a == noAccess || (a == pageAccess && r.URL.Path == "/ws") {
		refuse(w, "herdr: missing or wrong token; open the address `herdr web url` prints", http.StatusUnauthorized)
		return
	}
	if c := requestConn(r); c != nil && !c.l.promote(c) {
		refuse(w, strings.TrimSuffix(tooMany, "\n"), http.StatusServiceUnavailable)
		return
	}
	switch r.URL.Path {
	case "/ws":
		h.websocket(w, r, pol)
		return
	case "/":
		if fromQuery {
			// The link is answered with the page itself, not a redirect
			// (a SameSite cookie is not sent after a redirect that began
			// on another site's link): the page moves the token into its
			// tab's storage and cleans the address bar; the cookie lets
			// the clean address reload the page.
			http.SetCookie(w, &http.Cookie{Name: h.cookie, Value: h.pageKey, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			http.SetCookie(w, &http.Cookie{Name: legacyCookie, Value: "", Path: "/", MaxAge: -1})
		}
	case "/app.js", "/fleet.js", "/tasks.js", "/inbox.js", "/app.css", "/review.js", "/review.css":
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
func (h *handler) websocket(w http.ResponseWriter, r *http.Request, pol *config.Policy) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{wsProtocol}})
	if err != nil {
		h.log.Info("web socket refused", "err", err, "origin", r.Header.Get("Origin"))
		return
	}
	ws.SetReadLimit(maxMessage)
	done := make(chan struct{})
	h.root.Send(h.self, &accepted{ws: ws, done: done, policy: pol})
	select {
	case <-done:
	case <-h.quit:
		ws.CloseNow()
	}
}
