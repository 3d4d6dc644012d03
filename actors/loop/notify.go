package loop

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// DefaultPerMinute bounds the notifications when [notify] per_minute is unset.
const DefaultPerMinute = 10

// notifyTimeout bounds one POST.
const notifyTimeout = 10 * time.Second

// notifier sends [notify]'s webhook: a POST per agent that blocks or
// finishes, ntfy's way (Title header, text body), at most perMinute in
// any minute.
type notifier struct {
	cfg     Notify
	log     *slog.Logger
	now     func() time.Time
	sent    []time.Time // the sends of the last minute
	dropped int
}

// notifyRead tags the screen read a notification quotes.
type notifyRead struct {
	title  string
	status protocol.AgentStatus
}

// notified is a POST's outcome.
type notified struct {
	title string
	err   error
}

// Reconfigure applies a reloaded [notify] (server.reload_config); the
// sends of the last minute still count against the new bound.
type Reconfigure struct {
	Notify Notify
}

func (n *notifier) init(cfg Notify, log *slog.Logger, now func() time.Time) {
	if cfg.PerMinute <= 0 {
		cfg.PerMinute = DefaultPerMinute
	}
	if len(cfg.On) == 0 {
		cfg.On = []string{string(protocol.StatusBlocked), string(protocol.StatusDone)}
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: notifyTimeout}
	}
	n.cfg, n.log, n.now = cfg, log, now
}

// allow takes a place in the minute's bound, or counts a drop.
func (n *notifier) allow(title string) bool {
	now := n.now()
	n.sent = slices.DeleteFunc(n.sent, func(t time.Time) bool { return now.Sub(t) >= time.Minute })
	if len(n.sent) >= n.cfg.PerMinute {
		n.dropped++
		n.log.Warn("notify: notification dropped, over [notify] per_minute", "title", title, "per_minute", n.cfg.PerMinute, "dropped_total", n.dropped)
		return false
	}
	n.sent = append(n.sent, now)
	return true
}

func (n *notifier) done(m *notified) {
	if m.err != nil {
		n.log.Warn("notify: webhook failed", "title", m.title, "err", m.err)
	}
}

// notifyStatus notifies an agent that became blocked or done.
func (l *Loop) notifyStatus(ctx actor.Context, e events.Event, ev protocol.PaneAgentStatusChangedEvent) {
	n := &l.notify
	if n.cfg.Webhook == "" || !slices.Contains(n.cfg.On, string(ev.AgentStatus)) {
		return
	}
	who := e.Fields.Agent
	if ev.DisplayAgent != nil && *ev.DisplayAgent != "" {
		who = *ev.DisplayAgent
	}
	if who == "" {
		who = "agent"
	}
	where := ev.PaneID
	if e.Fields.Label != "" {
		where = e.Fields.Label + " (" + ev.PaneID + ")"
	}
	title := fmt.Sprintf("%s in %s finished", who, where)
	if ev.AgentStatus == protocol.StatusBlocked {
		title = fmt.Sprintf("%s in %s is waiting for an answer", who, where)
	}
	if !n.allow(title) {
		return
	}
	l.send(ctx, &notifyRead{title: title, status: ev.AgentStatus}, "pane.read", readParams(ev.PaneID))
}

// notifyRead posts the notification with what the screen says.
func (l *Loop) notifyRead(ctx actor.Context, nr *notifyRead, r *kit.Reply) {
	body := nr.title
	if text, ok := screenText(r); ok {
		if nr.status == protocol.StatusBlocked {
			body, _ = Question(text)
		} else {
			body = lastLines(text, 3)
		}
	}
	if body == "" {
		body = nr.title
	}
	cfg, root, self := l.notify.cfg, ctx.ActorSystem().Root, ctx.Self()
	go func() {
		root.Send(self, &notified{title: nr.title, err: post(cfg, nr.title, body)})
	}()
}

// post sends one notification: ntfy takes the title from a header (no
// line breaks there) and the body as the message.
func post(cfg Notify, title, body string) error {
	c, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(c, http.MethodPost, cfg.Webhook, bytes.NewReader([]byte(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Title", strings.NewReplacer("\r", " ", "\n", " ").Replace(title))
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Tags", "herdr")
	resp, err := cfg.Client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", cfg.Webhook, resp.Status)
	}
	return nil
}

// lastLines is the last n non-blank lines of text.
func lastLines(text string, n int) string {
	var keep []string
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimRight(lines[i], " \t\r"); strings.TrimSpace(l) != "" {
			keep = append([]string{l}, keep...)
		}
	}
	return strings.Join(keep, "\n")
}
