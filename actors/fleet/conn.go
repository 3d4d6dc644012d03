package fleet

import (
	"bufio"
	"bytes"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/herdr-go/herdr/actors/config"
)

// Messages of the NATS connection's callbacks to the fleet actor: they
// run on nats.go's goroutines and only send these.
type (
	linkUp struct {
		url    string
		server string
	}
	linkDown struct{ err error }
	linkErr  struct{ err error }
)

// reconnectDelay is the backoff between attempts to reach the NATS
// servers: 1 s doubling to 30 s.
func reconnectDelay(attempts int) time.Duration {
	d := time.Second
	for i := 1; i < attempts && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}

// natsOptions are the connection's options: the member's credentials and
// TLS authority, retried forever with backoff (an authorization error
// too: the hub may be told the member later), each state change sent to
// the actor by send.
func natsOptions(cfg config.Fleet, send func(any)) ([]nats.Option, error) {
	opts := []nats.Option{
		nats.Name("herdr " + cfg.Name),
		nats.CustomInboxPrefix(InboxPrefix(cfg.Name)),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.IgnoreAuthErrorAbort(),
		nats.CustomReconnectDelay(reconnectDelay),
		nats.PingInterval(5 * time.Second),
		nats.MaxPingsOutstanding(3),
		nats.ConnectHandler(func(c *nats.Conn) { send(&linkUp{url: c.ConnectedUrlRedacted(), server: c.ConnectedServerName()}) }),
		nats.ReconnectHandler(func(c *nats.Conn) { send(&linkUp{url: c.ConnectedUrlRedacted(), server: c.ConnectedServerName()}) }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { send(&linkDown{err: err}) }),
		nats.ReconnectErrHandler(func(_ *nats.Conn, err error) { send(&linkErr{err: err}) }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { send(&linkErr{err: err}) }),
	}
	switch {
	case cfg.User != "":
		opts = append(opts, nats.UserInfo(cfg.User, cfg.Password))
	case cfg.Creds != "" && isSeedFile(cfg.Creds):
		o, err := nats.NkeyOptionFromSeed(cfg.Creds)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	case cfg.Creds != "":
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	if cfg.CA != "" {
		opts = append(opts, nats.RootCAs(cfg.CA))
	}
	return opts, nil
}

// isSeedFile tells an nkey seed file (a line starting "SU") from a
// .creds file (a JWT and a seed between markers).
func isSeedFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false // the creds option then says why
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		return bytes.HasPrefix(line, []byte("SU"))
	}
	return false
}
