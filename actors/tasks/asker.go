package tasks

import (
	"encoding/json"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// An asker is the child of one attach or dispatch: it asks the session
// for the agent (agent.get) and, for a dispatch, sends the prompt
// (agent.prompt) once the tasks actor has applied it, so the tasks
// actor's mailbox never waits on the session. Its parent stops it once
// it has reported.

type asker struct {
	session  *actor.PID
	routes   *kit.SessionRoutes // nil: every call goes to the session
	call     *kit.Call
	caller   *actor.PID
	taskID   string
	target   string
	dispatch bool
	prompt   string

	prompting bool
	// pending: a request to the session is unanswered (the deadline
	// reports only then, so the parent hears of each step once).
	pending bool
	before  protocol.TaskInfo
	timers  kit.Timers
}

// agentFound is the asker's report of the agent (or why there is none).
type agentFound struct {
	asker *asker
	who   protocol.TaskAssignee
	err   error
}

// sendPrompt tells the asker the dispatch is applied: send the prompt.
type sendPrompt struct {
	target string
	text   string
	before protocol.TaskInfo
}

// prompted is the asker's report of the prompt.
type prompted struct {
	asker  *asker
	err    error
	before protocol.TaskInfo
}

// askerExpired gives up on a session that never answers.
type askerExpired struct{}

// Receive implements actor.Actor.
func (a *asker) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = a.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		a.pending = true
		a.routes.Send(ctx, a.session, &kit.Call{ID: a.call.ID, Method: "agent.get", Params: &protocol.AgentTarget{Target: a.target}}, ctx.Self())
		a.timers.After(ctx, kit.DefaultCallDeadline, &askerExpired{})
	case *actor.Stopping:
		a.timers.StopAll()
	case *askerExpired:
		if !a.pending {
			return
		}
		a.pending = false
		a.report(ctx, protocol.Errorf(protocol.CodeInternal, "%s: no answer from the session", a.call.Method))
	case *kit.Reply:
		if !a.pending {
			return // after the deadline: reported already
		}
		a.pending = false
		if a.prompting {
			ctx.Request(ctx.Parent(), &prompted{asker: a, err: msg.Err, before: a.before})
			return
		}
		if msg.Err != nil {
			ctx.Request(ctx.Parent(), &agentFound{asker: a, err: msg.Err})
			return
		}
		info, err := agentOf(msg.Result)
		if err != nil {
			ctx.Request(ctx.Parent(), &agentFound{asker: a, err: protocol.Errorf(protocol.CodeInternal, "agent.get: %v", err)})
			return
		}
		ctx.Request(ctx.Parent(), &agentFound{asker: a, who: protocol.TaskAssignee{Target: a.target, PaneID: info.PaneID, TerminalID: info.TerminalID}})
	case *sendPrompt:
		a.prompting, a.before, a.pending = true, msg.before, true
		// By pane id: the name may have moved since it was resolved, the
		// pane the task was given to has not.
		a.routes.Send(ctx, a.session, &kit.Call{ID: a.call.ID, Method: "agent.prompt", Params: &protocol.AgentPromptParams{Target: msg.target, Text: msg.text}}, ctx.Self())
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// report ends the asker with an error for whichever step it is in.
func (a *asker) report(ctx actor.Context, err error) {
	if a.prompting {
		ctx.Request(ctx.Parent(), &prompted{asker: a, err: err, before: a.before})
	} else {
		ctx.Request(ctx.Parent(), &agentFound{asker: a, err: err})
	}
}

// agentOf reads agent.get's answer, whichever way the session encoded it.
func agentOf(r protocol.Result) (protocol.AgentInfo, error) {
	if info, ok := r.(protocol.AgentInfoResult); ok {
		return info.Agent, nil
	}
	if info, ok := r.(*protocol.AgentInfoResult); ok {
		return info.Agent, nil
	}
	body, err := json.Marshal(r)
	if err != nil {
		return protocol.AgentInfo{}, err
	}
	var out protocol.AgentInfoResult
	err = protocol.Unmarshal(body, &out)
	return out.Agent, err
}
