package fleet

import (
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// CallSubject is the subject a member answers calls for its ids on.
func CallSubject(name string) string { return "herdr." + name + ".call" }

// callRequest is a call sent to a member: the method and its params with
// the member's own ids (the qualification cut by protocol.DecodeRouted).
type callRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	From   string          `json:"from"`
}

// The bounds of a call: how long a member has to answer one (a wait gets
// its own time plus this), and how many calls of others a member answers
// at once (past it, a call is refused busy rather than queued).
const (
	callTimeout  = 30 * time.Second
	maxAnswering = 64
)

// answerer is the fleet actor's child that answers the calls other
// members send this one: its subscription's callback only sends it the
// message; each call is answered on a goroutine of its own through this
// server's socket, so it is answered exactly as a local call is.
type answerer struct {
	nc     *nats.Conn
	name   string
	socket string
	allow  []string // [fleet] allow: what others may call (nil: all)
	log    *slog.Logger

	sub     *nats.Subscription
	running int
}

type (
	incoming struct{ msg *nats.Msg }
	answered struct{}
)

func (a *answerer) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		self, root := ctx.Self(), ctx.ActorSystem().Root
		sub, err := a.nc.Subscribe(CallSubject(a.name), func(m *nats.Msg) { root.Send(self, &incoming{msg: m}) })
		if err != nil {
			a.log.Warn("fleet: cannot answer calls", "subject", CallSubject(a.name), "err", err)
			return
		}
		a.sub = sub
	case *actor.Stopping:
		if a.sub != nil {
			_ = a.sub.Unsubscribe()
		}
	case *incoming:
		if a.running >= maxAnswering {
			_ = msg.msg.Respond(errorLine(protocol.Errorf(protocol.CodeServerUnavailable, "member %q is answering %d calls already; try again", a.name, a.running)))
			return
		}
		a.running++
		self, root, socket, name, allow, log := ctx.Self(), ctx.ActorSystem().Root, a.socket, a.name, a.allow, a.log
		go func() {
			defer root.Send(self, &answered{})
			if err := msg.msg.Respond(answer(socket, name, allow, msg.msg.Data)); err != nil {
				log.Warn("fleet: a call's answer was not sent", "err", err)
			}
		}()
	case *answered:
		a.running--
	default:
		kit.Unhandled(ctx, msg, a.log)
	}
}

// answer runs one call of another member through this server's socket and
// returns the socket's answer line (or an error line saying why not: a
// method [fleet] allow leaves out is refused before the socket).
func answer(socket, name string, allow []string, data []byte) []byte {
	var req callRequest
	if err := protocol.Unmarshal(data, &req); err != nil {
		return errorLine(protocol.Errorf(protocol.CodeInvalidRequest, "member %q: the call is not JSON: %v", name, err))
	}
	m, ok := protocol.Lookup(req.Method)
	switch {
	case !ok:
		return errorLine(protocol.Errorf(protocol.CodeUnknownMethod, "unknown method %q", protocol.Printable(req.Method)))
	case m.Shape != protocol.ShapeAnswer && m.Shape != protocol.ShapeWait:
		return errorLine(protocol.Errorf(protocol.CodeNotSupported, "%s cannot be called on member %q over the fleet", req.Method, name))
	case !allowed(allow, req.Method):
		return errorLine(notAllowed(name, req.Method, allow))
	}
	if len(req.Params) == 0 {
		req.Params = json.RawMessage(`{}`)
	}
	c, err := protocol.Connect(socket)
	if err != nil {
		return errorLine(protocol.Errorf(protocol.CodeServerUnavailable, "member %q: its server's socket: %v", name, err))
	}
	defer c.Close()
	line, err := json.Marshal(protocol.Request{ID: "fleet", Method: req.Method, Params: req.Params})
	if err != nil {
		return errorLine(protocol.Errorf(protocol.CodeInvalidRequest, "member %q: %v", name, err))
	}
	out, err := c.RoundTrip(line)
	if err != nil {
		return errorLine(protocol.Errorf(protocol.CodeServerUnavailable, "member %q: its server's socket: %v", name, err))
	}
	return out
}

func errorLine(e *protocol.Error) []byte {
	b, _ := json.Marshal(protocol.Response{ID: "fleet", Error: &protocol.ErrorBody{Code: e.Code, Message: e.Message}})
	return b
}

// request sends a call to member name and turns its answer into the
// caller's reply: the result with every id qualified by the member's
// name, the member's errors as it gave them, no answer machine_offline
// (as a saved machine's lost link is). It runs on a goroutine.
func request(nc *nats.Conn, from, name string, fwd *protocol.Forwarded, method string) *kit.Reply {
	timeout := callTimeout
	if waits, d := fwd.Waits(); waits {
		timeout += d
	}
	return requestWithin(nc, from, name, fwd, method, timeout)
}

// requestWithin is request with its own bound on the answer.
func requestWithin(nc *nats.Conn, from, name string, fwd *protocol.Forwarded, method string, timeout time.Duration) *kit.Reply {
	data, err := json.Marshal(callRequest{Method: method, Params: fwd.Raw, From: from})
	if err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "member %q: %v", name, err))
	}
	msg, err := nc.Request(CallSubject(name), data, timeout)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "fleet member %q is not answering (its server is gone)", name))
	case errors.Is(err, nats.ErrTimeout):
		return kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "fleet member %q: no answer to %s within %v", name, method, timeout))
	case err != nil:
		return kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "fleet member %q: %v", name, err))
	}
	var resp protocol.Response
	if err := protocol.Unmarshal(msg.Data, &resp); err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "fleet member %q answered what is not JSON: %v", name, err))
	}
	if resp.Error != nil {
		return kit.Fail(&protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message})
	}
	res, err := protocol.QualifyResult(resp.Result, protocol.MachineRef{ID: name, Label: name})
	if err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "fleet member %q: %v", name, err))
	}
	return kit.Done(res)
}

// notMember is the error of a qualified id naming neither a saved machine
// nor a member: the machines' own, naming both places to look.
func notMember(name string) error {
	return protocol.Errorf(protocol.CodeMachineNotFound, "no saved machine or fleet member %q (herdr machine list and herdr fleet status show them)", protocol.Printable(name))
}
