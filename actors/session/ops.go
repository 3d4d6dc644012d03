package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The session's side of the model's operations (model/op.go): a handler
// table entry runs one in the message's transaction (op, onWorkspace,
// onTab, onPane), which queues what it returned (apply) for the commit;
// env is what an operation sees of the session beside the topology.

// op makes the handler of a model operation (model/op.go): it runs the
// operation on the call's params in the message's transaction, which
// applies what it did on commit.
func op[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P) (R, model.Out, error)) handler {
	return handler{target: protocol.TargetNone, run: func(s *Session, _ actor.Context, call *kit.Call) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm))
	}}
}

// onWorkspace, onTab and onPane make the handler of a model operation on
// the call's target: a workspace or tab by any id form the model
// resolves, a pane (or an agent's) as a connection resolves it, from the
// newest View (view.Records.Target).
func onWorkspace[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *workspace) (R, model.Out, error)) handler {
	return on(o, protocol.TargetWorkspace, func(s *Session, call *kit.Call) (*workspace, error) { return s.m.ResolveWorkspace(targetID(call)) })
}

func onTab[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *tab) (R, model.Out, error)) handler {
	return on(o, protocol.TargetTab, func(s *Session, call *kit.Call) (*tab, error) { return s.m.ResolveTab(targetID(call)) })
}

func onPane[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *model.Pane) (R, model.Out, error)) handler {
	return on(o, protocol.TargetPane, func(s *Session, call *kit.Call) (*model.Pane, error) {
		p, err := s.paneTarget(call)
		if err != nil {
			return nil, err
		}
		return p.Pane, nil
	})
}

// on runs operation o on the target resolve finds.
func on[P protocol.Params, R protocol.Result, T any](o func(*model.Tx, model.Env, P, T) (R, model.Out, error), target protocol.Target, resolve func(*Session, *kit.Call) (T, error)) handler {
	return handler{target: target, run: func(s *Session, _ actor.Context, call *kit.Call) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		x, err := resolve(s, call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm, x))
	}}
}

// atPane makes the handler of a pane-targeted write the session runs
// itself (it starts a pane, or answers through the agents actor).
func atPane(h func(s *Session, ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply) handler {
	return handler{target: protocol.TargetPane, run: func(s *Session, ctx actor.Context, call *kit.Call) *kit.Reply {
		p, err := s.paneTarget(call)
		if err != nil {
			return kit.Fail(err)
		}
		return h(s, ctx, call, p)
	}}
}

// paneTarget resolves a pane-targeted write's pane as its table entry's
// Target declares (a pane by any id form, an agent by its pane or name,
// an optional pane by the focus).
func (s *Session) paneTarget(call *kit.Call) (*paneRec, error) {
	m, _ := protocol.Lookup(call.Method)
	return s.recs.Target(m.Target, targetID(call), call.Params)
}

// targetID is the id a call's params name its target by ("" for none).
func targetID(call *kit.Call) string {
	if t, ok := call.Params.(protocol.Targeted); ok {
		return t.TargetID()
	}
	return ""
}

// paramsOf is the call's params as an operation takes them; a table
// entry whose params are another type is a programming error, answered
// internal_error rather than a panic.
func paramsOf[P protocol.Params](call *kit.Call) (P, error) {
	prm, ok := call.Params.(P)
	if !ok {
		return prm, protocol.Errorf(protocol.CodeInternal, "%s: its operation takes %T params, not %T", call.Method, prm, call.Params)
	}
	return prm, nil
}

// did hands what a model operation did to the transaction and answers
// with its result; a failed operation changed nothing and fails the call.
func (s *Session) did(res protocol.Result, out model.Out, err error) *kit.Reply {
	if err != nil {
		return kit.Fail(err)
	}
	s.apply(out)
	return kit.Done(res)
}

// apply queues what a model operation did in the transaction: its events
// and effects happen when it commits, or never. A stopped pane's records
// go now, with the transaction (its actor stops at commit).
func (s *Session) apply(out model.Out) {
	for _, e := range out.Effects {
		if e, ok := e.(model.Stop); ok {
			if r := s.recs.Of(e.Pane); r != nil {
				s.dropTerm(r)
			}
		}
	}
	s.tx.add(out)
}

// env is the session as the model's operations see it (model.Env): the
// records of its terminals (view.Records).
func (s *Session) env() model.Env { return s.recs }
