package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the dashboard's listener actor.
type Options struct {
	Session *actor.PID
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	Events *actor.PID
	// Machines answers the page's calls for another machine and its
	// fleet-scoped lists (nil: the session refuses them as it would).
	Machines *actor.PID
	// Tasks answers the page's task.* calls (the task board; nil: the
	// session refuses them as not its own).
	Tasks *actor.PID
	// Loop answers the page's agent.queue.* and inbox.* calls (the inbox).
	Loop *actor.PID
	// Clients answers the page's screen.subscribe (the panes it streams;
	// nil: the session refuses it as not its own).
	Clients *actor.PID
	// Review answers the page's worktree.diff and review.* (its diff view).
	Review *actor.PID
	Log    *slog.Logger
	// Listen is [web] listen: served from the start when set.
	Listen string
	// AllowRemote is [web] allow_remote.
	AllowRemote bool
	// TokenPath is where the token is written (0600), in the state folder.
	TokenPath string
	// KeepToken reuses the token at TokenPath when there is one: a server
	// that took over by a live handoff keeps its predecessor's, so open
	// dashboards reconnect without a new link.
	KeepToken bool
	// Adopt is the dashboard a live handoff passed on: its listener and
	// token are served from the start, so an open page reconnects to the
	// same address with the same token (it wins over Listen).
	Adopt *Adopted
	// Policies finds a [[policy]] by name for `herdr web --policy`
	// (nil: none can be asked for); Locate places a limited page's
	// targets; Audit is the audit log's actor (nil: nothing is logged).
	Policies func(name string) (config.Policy, error)
	Locate   audit.Locator
	Audit    *actor.PID
	// CallDeadline is how long a page's request may wait for its answer
	// (kit.Deadline); zero means kit.DefaultCallDeadline.
	CallDeadline time.Duration

	// timeouts and fdLimit replace the defaults in tests.
	timeouts *timeouts
	fdLimit  func() (int, bool)
}

// Registry holds the socket API methods the listener actor answers; the
// gateway routes them here.
var Registry = kit.NewRegistry(protocol.OwnerWeb, "actors/web", map[string]func(*Web, actor.Context, *kit.Call){
	"web.start": (*Web).webStart,
	"web.url":   (*Web).webURL,
})

// listening reports the listener goroutine's start: a listener and its
// token, or why there is none. caller is the web.start caller, if any.
type listening struct {
	listen string // the address asked for
	ln     net.Listener
	token  string
	err    error
	caller *actor.PID
}

// Carried is what a live handoff carries of a running dashboard besides
// its listener: the address it serves and its token.
type Carried struct {
	Listen, Token string
}

// Export asks the listener actor what a live handoff carries; it answers
// *Exported.
type Export struct{}

// Exported is the dashboard as handed over: nil Carried when it is not
// running. The listener stays this server's until it exits.
type Exported struct {
	Carried  *Carried
	Listener net.Listener
}

// Release tells the listener actor that a live handoff passed its
// dashboard on: it stops serving here (closing only this process's copy
// of the listener), and open pages reconnect to the new server.
type Release struct{}

// Adopted is a dashboard received from a live handoff.
type Adopted struct {
	Carried
	Listener net.Listener
}

// accepted is a browser's WebSocket, handed over by the HTTP handler,
// which waits on done until the browser's actor has finished with it.
type accepted struct {
	ws     wsConn
	done   chan struct{}
	policy *config.Policy // the token's, nil for the full one
}

// Web is the dashboard's listener actor. It owns the HTTP server and
// supervises one browser actor per WebSocket.
type Web struct {
	opts     Options
	srv      *http.Server
	addr     string // where it listens, once it does
	ln       net.Listener
	token    string
	quit     chan struct{} // closed when the listener stops: handlers let go
	starting bool
	waiting  []*actor.PID // web.start and web.url callers while starting
	next     uint64
	// limited are the tokens minted for policies (web.start's policy),
	// by token; replaced whole, read by the HTTP handler.
	limited atomic.Pointer[map[string]config.Policy]
}

// Props returns the listener's props; a failing browser actor is
// stopped (its page reconnects), never restarted on a used socket.
func Props(opts Options) *actor.Props {
	stop := actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
		opts.Log.Error("web browser actor failed", "reason", reason)
		return actor.StopDirective
	})
	return actor.PropsFromProducer(func() actor.Actor { return &Web{opts: opts} }, actor.WithSupervisor(stop), kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (w *Web) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		switch {
		case w.opts.Adopt != nil:
			w.adopt(ctx, w.opts.Adopt)
		case w.opts.Listen != "":
			w.start(ctx, w.opts.Listen, nil)
		}
	case *Export:
		if w.srv == nil {
			ctx.Respond(&Exported{})
			return
		}
		ctx.Respond(&Exported{Carried: &Carried{Listen: w.addr, Token: w.token}, Listener: w.ln})
	case *kit.Call:
		w.call(ctx, msg)
	case *listening:
		w.listening(ctx, msg)
	case *accepted:
		w.next++
		props := actor.PropsFromProducer(func() actor.Actor {
			b := newBrowser(msg.ws, msg.done, w.opts)
			b.policy = msg.policy
			return b
		}, kit.Guarded(w.opts.Log))
		if _, err := ctx.SpawnNamed(props, "browser"+strconv.FormatUint(w.next, 10)); err != nil {
			w.opts.Log.Error("spawn browser actor", "err", err)
			msg.ws.CloseNow()
			close(msg.done)
		}
	case *Release:
		w.stopServing()
		w.opts.Log.Info("web dashboard handed over to the new server")
	case *actor.Stopping:
		w.stopServing()
	default:
		kit.Unhandled(ctx, msg, w.opts.Log)
	}
}

// stopServing closes the listener and lets every WebSocket go (their
// pages reconnect).
func (w *Web) stopServing() {
	if w.quit != nil {
		close(w.quit)
		w.quit = nil
	}
	if w.srv != nil {
		srv := w.srv
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_ = srv.Shutdown(ctx)
		}()
		_ = srv.Close()
		w.srv, w.ln = nil, nil
	}
}

func (w *Web) call(ctx actor.Context, c *kit.Call) {
	h, ok := Registry.Lookup(c.Method)
	if !ok {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", c.Method)))
		return
	}
	h(w, ctx, c)
}

func (w *Web) webStart(ctx actor.Context, c *kit.Call) {
	listen := c.Params.(*protocol.WebStartParams).Listen
	if name := c.Params.(*protocol.WebStartParams).Policy; name != "" {
		w.startLimited(ctx, listen, name)
		return
	}
	switch {
	case w.srv != nil && (listen == "" || listen == w.addr || listen == w.opts.Listen):
		ctx.Respond(kit.Done(w.started()))
	case w.srv != nil:
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWebStartFailed, "the dashboard already listens on %s; restart the server to move it", w.addr)))
	case w.starting:
		w.waiting = append(w.waiting, ctx.Sender())
	default:
		if listen == "" {
			listen = w.opts.Listen
		}
		if listen == "" {
			listen = DefaultListen
		}
		w.start(ctx, listen, ctx.Sender())
	}
}

func (w *Web) webURL(ctx actor.Context, _ *kit.Call) {
	if w.starting {
		// [web] listen is still binding: answer once it has.
		w.waiting = append(w.waiting, ctx.Sender())
		return
	}
	if w.srv == nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWebNotRunning, "the web dashboard is not running; start it with `herdr web` or [web] listen in config.toml")))
		return
	}
	ctx.Respond(kit.Done(w.started()))
}

// DefaultListen is where `herdr web` serves when neither it nor the
// config names an address.
const DefaultListen = "127.0.0.1:7681"

func (w *Web) started() protocol.WebStarted {
	return protocol.WebStarted{Listen: w.addr, URL: "http://" + w.addr + "/?token=" + w.token}
}

// start checks the address, then binds and writes the token on a
// goroutine, which reports back with listening.
func (w *Web) start(ctx actor.Context, listen string, caller *actor.PID) {
	if err := checkListen(listen, w.opts.AllowRemote); err != nil {
		if caller != nil {
			ctx.Send(caller, kit.Fail(protocol.Errorf(protocol.CodeWebStartFailed, "%v", err)))
		}
		w.opts.Log.Error("web dashboard not started", "listen", listen, "err", err)
		return
	}
	if !isLoopback(listen) {
		w.opts.Log.Warn("web dashboard listens beyond loopback ([web] allow_remote = true); anyone who can reach it and has the token controls the panes", "listen", listen)
	}
	w.starting = true
	root, self, tokenPath, keep := ctx.ActorSystem().Root, ctx.Self(), w.opts.TokenPath, w.opts.KeepToken
	go func() {
		l := &listening{listen: listen, caller: caller}
		l.token, l.err = "", nil
		if keep {
			l.token = oldToken(tokenPath)
		}
		if l.token == "" {
			l.token, l.err = newToken(tokenPath)
		}
		if l.err == nil {
			l.ln, l.err = listenSoon(listen)
		}
		root.Send(self, l)
	}()
}

// adopt serves a dashboard handed over by a live handoff: its listener,
// its address and its token, unless the config no longer allows the
// address (then it is closed, saying why).
func (w *Web) adopt(ctx actor.Context, a *Adopted) {
	if err := checkListen(a.Listen, w.opts.AllowRemote); err != nil {
		a.Listener.Close()
		w.opts.Log.Error("web dashboard handed over but not served", "listen", a.Listen, "err", err)
		return
	}
	w.starting = true
	w.listening(ctx, &listening{listen: a.Listen, ln: a.Listener, token: a.Token})
}

func (w *Web) listening(ctx actor.Context, l *listening) {
	w.starting = false
	callers := append(w.waiting, l.caller)
	w.waiting = nil
	if l.err != nil {
		w.opts.Log.Error("web dashboard not started", "err", l.err)
		for _, c := range callers {
			if c != nil {
				ctx.Send(c, kit.Fail(protocol.Errorf(protocol.CodeWebStartFailed, "%v", l.err)))
			}
		}
		return
	}
	w.token, w.addr, w.ln = l.token, servedAddr(l.listen, l.ln.Addr()), l.ln
	w.quit = make(chan struct{})
	_, port, _ := net.SplitHostPort(w.addr)
	to := timeouts{header: headerTimeout, read: readTimeout, write: writeTimeout, idle: idleTimeout}
	if w.opts.timeouts != nil {
		to = *w.opts.timeouts
	}
	limits := kit.FDLimit
	if w.opts.fdLimit != nil {
		limits = w.opts.fdLimit
	}
	fresh, authed := connLimits(limits())
	w.srv = &http.Server{
		Handler:           w.handler(l.token, port, ctx),
		ReadHeaderTimeout: to.header,
		ReadTimeout:       to.read,
		WriteTimeout:      to.write,
		IdleTimeout:       to.idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnContext:       withConn,
		ConnState:         connState,
		ErrorLog:          slog.NewLogLogger(w.opts.Log.Handler(), slog.LevelWarn),
	}
	srv, ln, log := w.srv, newLimitListener(l.ln, fresh, authed), w.opts.Log
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web dashboard stopped serving", "err", err)
		}
	}()
	w.opts.Log.Info("web dashboard listening", "addr", w.addr, "token_file", w.opts.TokenPath, "max_unauthenticated", fresh, "max_authenticated", authed)
	for _, c := range callers {
		if c != nil {
			ctx.Send(c, kit.Done(w.started()))
		}
	}
}

// servedAddr is the address asked for with the port bound: ":0" becomes
// the port the system chose, and 0.0.0.0 stays 0.0.0.0 rather than the
// "[::]" a dual-stack listener reports.
func servedAddr(listen string, bound net.Addr) string {
	host, _, err := net.SplitHostPort(listen)
	_, port, perr := net.SplitHostPort(bound.String())
	if err != nil || perr != nil {
		return bound.String()
	}
	return net.JoinHostPort(host, port)
}

// listenSoon binds addr, waiting a few seconds while it is still in use:
// after a live handoff the old server holds it until it exits.
func listenSoon(addr string) (net.Listener, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		ln, err := net.Listen("tcp", addr)
		if err == nil || !errors.Is(err, syscall.EADDRINUSE) || time.Now().After(deadline) {
			if err != nil {
				err = fmt.Errorf("listen on %s: %w", addr, err)
			}
			return ln, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
