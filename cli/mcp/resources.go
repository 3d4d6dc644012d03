package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// The resources' addresses.
const (
	sessionURI = "herdr://session"
	panePrefix = "herdr://pane/"
)

// paneResourceLines is how much of a pane's recent text its resource holds.
const paneResourceLines = 200

func (h *herdr) addResources() {
	h.server.AddResource(&sdk.Resource{URI: sessionURI, Name: "session", Title: "herdr session",
		Description: "The whole session: workspaces, tabs, panes with their layouts, and agents.", MIMEType: "application/json"}, h.readSession)
	h.server.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: panePrefix + "{+pane_id}", Name: "pane", Title: "herdr pane",
		Description: "A pane's recent output as text (its last 200 lines, ANSI stripped); subscribe for a notification when it changes.",
		MIMEType:    "text/plain"}, h.readPaneResource)
}

func (h *herdr) readSession(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	var r protocol.SessionSnapshotResult
	if err := h.call(ctx, "session.snapshot", nil, &r); err != nil {
		return nil, err
	}
	b, err := json.Marshal(r.Snapshot)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

// paneOf is the pane id a pane resource's URI names.
func paneOf(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, panePrefix)
	if !ok || rest == "" {
		return "", false
	}
	id, err := url.PathUnescape(rest)
	return id, err == nil && id != ""
}

func (h *herdr) readPaneResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	id, ok := paneOf(req.Params.URI)
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	var r protocol.PaneRead
	err := h.call(ctx, "pane.read", protocol.PaneReadParams{PaneID: id, Source: protocol.SourceRecent, Format: protocol.FormatText,
		Lines: protocol.Ptr(uint32(paneResourceLines)), StripANSI: protocol.Ptr(true)}, &r)
	var te *toolError
	if errors.As(err, &te) && te.code == protocol.CodePaneNotFound {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: r.Read.Text}}}, nil
}

// subscribe starts watching a pane resource: one watcher per URI, shared
// by every session (stdio has one).
func (h *herdr) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	uri := req.Params.URI
	var start func(context.Context)
	if uri == sessionURI {
		c, err := h.openSessionEvents() // subscribed before the answer: no change after it is missed
		if err != nil {
			return err
		}
		start = func(ctx context.Context) { h.watchSession(ctx, c) }
	} else {
		id, ok := paneOf(uri)
		if !ok {
			return errors.New("no such resource: " + uri)
		}
		var r protocol.PaneInfoResult
		if err := h.call(ctx, "pane.get", protocol.PaneTarget{PaneID: id}, &r); err != nil {
			return err
		}
		start = func(ctx context.Context) { h.watch(ctx, uri, id, r.Pane.Revision) }
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, on := h.subs[uri]; on {
		return nil
	}
	wctx, cancel := context.WithCancel(h.base)
	h.subs[uri] = cancel
	go start(wctx)
	return nil
}

func (h *herdr) unsubscribe(_ context.Context, req *sdk.UnsubscribeRequest) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cancel, on := h.subs[req.Params.URI]; on {
		cancel()
		delete(h.subs, req.Params.URI)
	}
	return nil
}

// watchWaitMS bounds each wait of a watcher, so a watcher whose
// connection died unnoticed finds out.
const watchWaitMS = 30000

// watch tells subscribers of uri each time the pane's output moves past
// the revision last seen; it ends with its context or when the pane goes.
func (h *herdr) watch(ctx context.Context, uri, id string, seen uint64) {
	for ctx.Err() == nil {
		var w protocol.WaitMatched
		err := h.watchCall(ctx, "events.wait", protocol.EventsWaitParams{
			MatchEvent: &protocol.EventMatch{Event: "pane_output_changed", PaneID: &id, SeenRevision: &seen},
			TimeoutMS:  protocol.Ptr(uint64(watchWaitMS)), AllowExtensions: true}, &w)
		var te *toolError
		switch {
		case ctx.Err() != nil:
			return
		case errors.As(err, &te) && te.code == protocol.CodeTimeout:
			continue
		case errors.As(err, &te) && te.code == protocol.CodePaneNotFound:
			_ = h.server.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri}) // it is gone: reading says so
			return
		case err != nil:
			select { // the server restarting, say: look again shortly
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			continue
		}
		var ev protocol.PaneOutputChangedEvent
		if decodeEvent(w, &ev) == nil && ev.Revision > seen {
			seen = ev.Revision
		} else {
			seen++
		}
		_ = h.server.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri})
	}
}

// sessionKinds are the events.subscribe types of every change the
// session snapshot shows (output is not one of them), by kind name: the
// dotted pane.agent_status_changed is a per-pane subscription, the kind
// pane_agent_status_changed every pane's.
func sessionKinds() []protocol.Subscription {
	var subs []protocol.Subscription
	for _, kind := range protocol.LifecycleKinds {
		if _, ok := protocol.SubscriptionKind(kind); ok {
			subs = append(subs, protocol.Subscription{Type: kind})
		}
	}
	return subs
}

// openSessionEvents dials a connection subscribed to the lifecycle events.
func (h *herdr) openSessionEvents() (*protocol.Client, error) {
	c, err := h.opts.Dial()
	if err != nil {
		return nil, &toolError{protocol.CodeServerNotRunning, "cannot reach the herdr server: " + err.Error()}
	}
	var ack protocol.Response
	req, _ := json.Marshal(protocol.Request{ID: "mcp:session", Method: "events.subscribe",
		Params: mustJSON(protocol.EventsSubscribeParams{Subscriptions: sessionKinds()})})
	line, err := c.RoundTrip(req)
	if err == nil {
		err = protocol.Unmarshal(line, &ack)
	}
	if err == nil && ack.Error != nil {
		err = &toolError{ack.Error.Code, ack.Error.Message}
	}
	if err != nil {
		c.Close()
		return nil, asToolError(err)
	}
	return c, nil
}

// watchSession tells subscribers of herdr://session at each lifecycle
// event read from c; a lost connection is dialled again a second later.
func (h *herdr) watchSession(ctx context.Context, c *protocol.Client) {
	for {
		stop := context.AfterFunc(ctx, func() { c.Close() })
		for {
			if _, err := c.ReadLine(); err != nil {
				break
			}
			_ = h.server.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: sessionURI})
		}
		stop()
		c.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			var err error
			if c, err = h.openSessionEvents(); err == nil {
				break
			}
		}
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
