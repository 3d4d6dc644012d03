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
	return func(s *Session, _ actor.Context, call *kit.Call) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm))
	}
}

// onWorkspace, onTab and onPane make the handler of a model operation on
// the call's target, which route resolved.
func onWorkspace[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *workspace) (R, model.Out, error)) workspaceHandler {
	return func(s *Session, _ actor.Context, call *kit.Call, w *workspace) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm, w))
	}
}

func onTab[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *tab) (R, model.Out, error)) tabHandler {
	return func(s *Session, _ actor.Context, call *kit.Call, t *tab) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm, t))
	}
}

func onPane[P protocol.Params, R protocol.Result](o func(*model.Tx, model.Env, P, *model.Pane) (R, model.Out, error)) paneHandler {
	return func(s *Session, _ actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(o(s.tx.Tx, s.env(), prm, p.Pane))
	}
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
