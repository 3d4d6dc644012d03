package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// Options configure one MCP server.
type Options struct {
	// Dial opens a new connection to the session's server.
	Dial func() (*protocol.Client, error)
	// Allow names the tools offered; nil offers every tool.
	Allow []string
	// AllowStart offers the tools that start agents.
	AllowStart bool
	// AllowClose offers the tools that close panes and workspaces.
	AllowClose bool
	// AllowCloseCaller lets those tools close the caller's own pane.
	AllowCloseCaller bool
	// CallerPane is the pane the MCP client runs in (HERDR_PANE_ID), "" when none.
	CallerPane string
	// Version is herdr's, reported to the client.
	Version string
}

// herdr is one MCP server's link to the herdr server.
type herdr struct {
	opts   Options
	server *sdk.Server
	// callerTerminal is the caller pane's terminal id, resolved once at
	// start: pane ids change when panes move, terminal ids do not.
	callerTerminal string

	// base outlives requests: resource subscriptions run under it.
	base context.Context
	mu   sync.Mutex
	subs map[string]context.CancelFunc // watched resource URI → stop

	// Connections to the herdr server at once (slots), and the shares of
	// them the waits of tool calls and of resource watchers may hold: an
	// agent's thousand waits must not take the server's connection
	// budget from the person, nor this process's short calls.
	slots, waits, watches chan struct{}
}

// envelopeBytes bounds a request line's bytes beside its method and
// params: {"id":"c1","method":"","params":}.
const envelopeBytes = 64

const (
	maxCalls   = 16 // connections to the server at once; the rest queue
	maxWaits   = 8  // of them, tool calls that wait; the rest are refused
	maxWatches = 4  // of them, resource watchers' waits; the rest queue
)

// New builds the MCP server: its tools (those opts allow) and resources.
// ctx bounds the resource subscriptions' watchers.
func New(ctx context.Context, opts Options) *sdk.Server {
	h := &herdr{opts: opts, base: ctx, subs: map[string]context.CancelFunc{},
		slots: make(chan struct{}, maxCalls), waits: make(chan struct{}, maxWaits), watches: make(chan struct{}, maxWatches)}
	if opts.CallerPane != "" {
		var r protocol.PaneInfoResult
		if h.call(ctx, "pane.get", protocol.PaneTarget{PaneID: opts.CallerPane}, &r) == nil {
			h.callerTerminal = r.Pane.TerminalID
		}
	}
	h.server = sdk.NewServer(&sdk.Implementation{Name: "herdr", Title: "herdr", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:       instructions,
		SubscribeHandler:   h.subscribe,
		UnsubscribeHandler: h.unsubscribe,
	})
	for _, t := range h.tools() {
		if h.offered(t) {
			t.add(h.server)
		}
	}
	h.addResources()
	return h.server
}

const instructions = `herdr is the terminal multiplexer these tools drive. Ids: workspaces w1, panes w1:p2 (workspace:pane), ` +
	`agents by pane id or by name; on a fleet, machine-qualified ids (build/w1:p2) work as they are. ` +
	`Start helpers with start_agent or start_agent_in_worktree, give them work with prompt_agent, ` +
	`wait with wait_agent (until done or idle) and read what they did with read_pane.`

// Serve runs the MCP server on in and out (stdio) until the client
// closes in or ctx ends.
func Serve(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := New(ctx, opts)
	w := newLockedWriter(out)
	guarded := &guardedInput{in: bufio.NewReaderSize(in, 64<<10), out: w}
	err := s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(guarded), Writer: w})
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// offered reports whether t is listed and callable under the options.
func (h *herdr) offered(t tool) bool {
	switch {
	case t.starts && !h.opts.AllowStart, t.closes && !h.opts.AllowClose:
		return false
	case h.opts.Allow == nil:
		return true
	}
	return slices.Contains(h.opts.Allow, t.name)
}

// ToolNames are the names of every tool, for checking [mcp] allow.
func ToolNames() []string {
	var names []string
	for _, t := range (&herdr{}).tools() {
		names = append(names, t.name)
	}
	return names
}

// toolError is herdr's error as a tool's: its code and message.
type toolError struct{ code, message string }

func (e *toolError) Error() string { return e.code + ": " + e.message }

// asToolError turns a call's failure into herdr's code and message.
func asToolError(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return &toolError{pe.Code, pe.Message}
	}
	var te *toolError
	if errors.As(err, &te) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &toolError{protocol.CodeServerUnavailable, "lost the herdr server: " + err.Error()}
}

// call sends one request on a connection of its own and decodes the
// result into out; ctx ending closes the connection, which ends a wait.
// A call that waits is refused (a JSON-RPC error) while maxWaits others
// do; any call queues for one of the maxCalls connections.
func (h *herdr) call(ctx context.Context, method string, params, out any) error {
	if waits(params) {
		select {
		case h.waits <- struct{}{}:
			defer func() { <-h.waits }()
		default:
			return &jsonrpc.Error{Code: codeBusy, Message: fmt.Sprintf("busy: %d waits are already in flight in this herdr mcp, the most it runs at once; wait for one to end (%s refused)", maxWaits, method)}
		}
	}
	return h.send(ctx, method, params, out)
}

// watchCall is call for a resource watcher's wait: it queues for its share.
func (h *herdr) watchCall(ctx context.Context, method string, params, out any) error {
	select {
	case h.watches <- struct{}{}:
		defer func() { <-h.watches }()
	case <-ctx.Done():
		return ctx.Err()
	}
	return h.send(ctx, method, params, out)
}

// waits reports whether a call with params may wait (protocol.Waiting,
// implemented on the params' pointer type).
func waits(params any) bool {
	if params == nil {
		return false
	}
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer {
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		v = p
	}
	w, ok := v.Interface().(protocol.Waiting)
	if !ok {
		return false
	}
	yes, _ := w.Waits()
	return yes
}

// send holds one of the connections to the server for one request. A
// request longer than the server reads in one line is refused here: the
// server would drop the connection, a loss that says nothing of why.
func (h *herdr) send(ctx context.Context, method string, params, out any) error {
	if params == nil {
		params = struct{}{}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return &toolError{protocol.CodeInvalidParams, "cannot encode the request: " + err.Error()}
	}
	if n := len(raw) + len(method) + envelopeBytes; n > protocol.MaxLineBytes {
		return &toolError{protocol.CodeInvalidParams, fmt.Sprintf("%s request is %d bytes, more than the %d the herdr server reads in one request", method, n, protocol.MaxLineBytes)}
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	c, err := h.opts.Dial()
	var refused *protocol.Error
	if errors.As(err, &refused) {
		return asToolError(err) // the server refused the connection's policy
	}
	if err != nil {
		return &toolError{protocol.CodeServerNotRunning, "cannot reach the herdr server: " + err.Error()}
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	err = c.Call(method, json.RawMessage(raw), out)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return asToolError(err)
	}
	return nil
}
