package fleet

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
)

// hubMaxPayload bounds one NATS message on the embedded hub: a call's
// answer (a pane's read, a snapshot) fits as it fits a socket line.
const hubMaxPayload = 8 << 20

// hubReady bounds how long the embedded hub has to accept connections.
const hubReady = 10 * time.Second

// startHub runs the NATS server, JetStream on, in this process: the
// configured user and password required of every client, JetStream's
// store under dir, and, when routes are set, a node of the clustered hub
// named "herdr" (its routes authenticated with the same user). It returns
// once the server accepts connections; it runs on a goroutine of the
// fleet actor's, never in its Receive. With [[fleet.member]] users each
// member, and the hub's own user (as member cfg.Name), gets only what
// memberPermissions allows; the server's refusals go to log at warn.
func startHub(cfg config.Fleet, dir string, log *slog.Logger) (*server.Server, error) {
	resumeProcessSampler() // herdr-full quiets it; a hub reports what it samples
	if cfg.User == "" || cfg.Password == "" {
		return nil, fmt.Errorf("a hub requires [fleet] user and password (auth is always on)")
	}
	host, port, err := splitHostPort(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("fleet.listen: %w", err)
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		Host:       host,
		Port:       port,
		Username:   cfg.User,
		Password:   cfg.Password,
		JetStream:  true,
		StoreDir:   filepath.Join(dir, "jetstream"),
		MaxPayload: hubMaxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if len(cfg.Members) > 0 {
		opts.Username, opts.Password = "", ""
		opts.Users = []*server.User{{Username: cfg.User, Password: cfg.Password, Permissions: memberPermissions(cfg.Name)}}
		for _, m := range cfg.Members {
			if m.Nkey != "" {
				opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: m.Nkey, Permissions: memberPermissions(m.Name)})
				continue
			}
			opts.Users = append(opts.Users, &server.User{Username: m.User, Password: m.Password, Permissions: memberPermissions(m.Name)})
		}
	}
	if cfg.ClusterListen != "" {
		ch, cp, err := splitHostPort(cfg.ClusterListen)
		if err != nil {
			return nil, fmt.Errorf("fleet.cluster_listen: %w", err)
		}
		opts.Cluster = server.ClusterOpts{Name: "herdr", Host: ch, Port: cp, Username: cfg.User, Password: cfg.Password}
		for i, r := range cfg.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, fmt.Errorf("fleet.routes[%d]: %w", i, err)
			}
			u.User = url.UserPassword(cfg.User, cfg.Password)
			opts.Routes = append(opts.Routes, u)
		}
	}
	// The server does not fail on a port in use, it waits: asked first,
	// the reason comes at once.
	for _, addr := range []string{cfg.Listen, cfg.ClusterListen} {
		if addr == "" {
			continue
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
		}
		l.Close()
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("the embedded NATS server: %w", err)
	}
	if log != nil {
		srv.SetLoggerV2(hubLog{log}, false, false, false)
	}
	srv.Start()
	if !srv.ReadyForConnections(hubReady) {
		srv.Shutdown()
		return nil, fmt.Errorf("the embedded NATS server is not accepting connections on %s after %v (address in use?)", cfg.Listen, hubReady)
	}
	return srv, nil
}

// hubURL is the client URL a hub member joins itself by.
func hubURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "nats://" + listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "nats://" + net.JoinHostPort(host, port)
}

func splitHostPort(s string) (string, int, error) {
	host, p, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("%q: bad port", s)
	}
	return host, port, nil
}

// InboxPrefix is the prefix of member name's reply subjects (its calls'
// answers, its JetStream replies and deliveries): its own, so a hub's
// permissions can keep the others from reading them.
func InboxPrefix(name string) string { return "_INBOX." + name }

// memberPermissions are what member name's user may do on the embedded
// hub: answer only its own calls (subscribe herdr.NAME.call), receive
// only its own replies (_INBOX.NAME.>), publish only its own events; call
// the others, answer callers, and use JetStream (its API, the buckets,
// acks and flow control).
func memberPermissions(name string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			CallSubject("*"), "_INBOX.>", "$JS.API.>", "$KV.>", "$JS.ACK.>", "$JS.FC.>",
			evstream.DefaultPrefix + "." + name + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{CallSubject(name), InboxPrefix(name) + ".>"}},
	}
}

// hubLog is the embedded NATS server's logger: what it refuses (a
// member's credentials, a subject its permissions leave out) at warn,
// naming the client; the rest at debug.
type hubLog struct{ log *slog.Logger }

func (h hubLog) refusal(format string, v []any) bool {
	msg := fmt.Sprintf(format, v...)
	if strings.Contains(msg, "Violation") || strings.Contains(msg, "authentication error") {
		h.log.Warn("fleet: the hub refused a client", "why", msg)
		return true
	}
	return false
}

func (h hubLog) Noticef(format string, v ...any) {
	h.log.Debug("fleet hub: " + fmt.Sprintf(format, v...))
}
func (h hubLog) Tracef(format string, v ...any) {}
func (h hubLog) Debugf(format string, v ...any) {}
func (h hubLog) Warnf(format string, v ...any) {
	if !h.refusal(format, v) {
		h.log.Debug("fleet hub: " + fmt.Sprintf(format, v...))
	}
}
func (h hubLog) Errorf(format string, v ...any) {
	if !h.refusal(format, v) {
		h.log.Debug("fleet hub: " + fmt.Sprintf(format, v...))
	}
}
func (h hubLog) Fatalf(format string, v ...any) {
	h.log.Error("fleet hub: " + fmt.Sprintf(format, v...))
}
