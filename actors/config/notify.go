package config

import (
	"fmt"
	"net/url"
)

// Notify is [notify]: a webhook told when an agent blocks or finishes
// (ntfy-compatible: a POST with a Title header and the text as body).
type Notify struct {
	// Webhook (webhook, default none) is the URL POSTed to.
	Webhook string
	// PerMinute (per_minute, default 10) bounds the notifications in any
	// minute; the rest are dropped, each said in the log at warn.
	PerMinute int
	// On (on, default blocked and done) lists the statuses notified.
	On []string
}

func defaultNotify() Notify {
	return Notify{PerMinute: 10, On: []string{"blocked", "done"}}
}

var notifyFields = []field{
	{key: "webhook", doc: "POST here when an agent blocks or finishes (ntfy-compatible: a Title header, the question or last lines as body), e.g. https://ntfy.sh/my-topic.",
		ptr: func(c *Config) any { return &c.Notify.Webhook }, check: webhookURL, example: "https://ntfy.sh/my-herdr-topic"},
	{key: "per_minute", doc: "At most this many notifications a minute; the rest are dropped (said in the log).",
		ptr: func(c *Config) any { return &c.Notify.PerMinute }, lo: 1, hi: 600},
	{key: "on", doc: "The statuses that notify: blocked, done.",
		ptr: func(c *Config) any { return &c.Notify.On }, enum: []string{"blocked", "done"}},
}

// webhookURL accepts an http or https URL with a host.
func webhookURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", s)
	}
	return s, nil
}

func (d *decoder) notify(t map[string]any) { d.fields("notify", t, notifyFields) }
