package view

import (
	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Routing: every call of the session's reads, and of the actors the
// session's ids name (the agents actor, a workspace's, a tab's, a pane's),
// is resolved from one View, here: answered (its records, or the error the
// id earns), or made the message its owner's actor takes. A connection
// routes from the newest View (ReadSide.Route); the session routes the
// calls other actors send it from its own newest View the same way.

// Routes reports whether the View routes calls of m: a read (reads), an
// agent call a pane answers (toPanes), and every call the table gives the
// agents actor, a workspace's, a tab's or a pane's actor.
func Routes(m protocol.Method) bool {
	switch m.Owner {
	case protocol.OwnerAgents, protocol.OwnerWorkspace, protocol.OwnerTab, protocol.OwnerPane:
		return true
	case protocol.OwnerSession:
		_, read := reads[m.Name]
		_, fwd := toPanes[m.Name]
		return read || fwd
	}
	return false
}

// Methods are the session's methods the View routes (Routes).
func Methods() []string {
	out := make([]string, 0, len(reads)+len(toPanes))
	for name := range reads {
		out = append(out, name)
	}
	for name := range toPanes {
		out = append(out, name)
	}
	return out
}

// Route routes call, a call of m (Routes(m)), from v.
func (v *View) Route(call *kit.Call, m protocol.Method, o kit.Owners) kit.Routed {
	if h, ok := reads[m.Name]; ok {
		return kit.Routed{Reply: h(v, call)}
	}
	if h, ok := toPanes[m.Name]; ok {
		i, err := v.ResolveAgent(targetID(call))
		if err != nil {
			return failed(err)
		}
		return h(v, call, v.Rec(i))
	}
	id := targetID(call)
	switch m.Owner {
	case protocol.OwnerAgents:
		req := &agents.Request{Call: call}
		switch m.Target {
		case protocol.TargetPane:
			i, err := v.ResolvePane(id)
			if err != nil {
				return failed(err)
			}
			req.TermID = v.Rec(i).Info.TerminalID
		case protocol.TargetAgent:
			i, err := v.ResolveAgent(id)
			if err != nil {
				return failed(err)
			}
			req.TermID = v.Rec(i).Info.TerminalID
		}
		return kit.Routed{To: o.Agents, Msg: req}
	case protocol.OwnerWorkspace:
		i, err := v.ResolveWorkspace(id)
		if err != nil {
			return failed(err)
		}
		s := &v.Spaces[i]
		return kit.Routed{To: o.Entities, Msg: &entities.Deliver{ID: s.Info.WorkspaceID, Msg: &wsactor.Request{Call: call, Info: s.Info, Cwd: s.Cwd}}}
	case protocol.OwnerTab:
		i, err := v.ResolveTab(id)
		if err != nil {
			return failed(err)
		}
		info := v.Tabs[i].Info
		return kit.Routed{To: o.Entities, Msg: &entities.Deliver{ID: info.TabID, Msg: &tabactor.Request{Call: call, Info: info}}}
	case protocol.OwnerPane:
		var i int
		var err error
		if m.Target == protocol.TargetFocusedPane {
			i, err = v.focusedPane(id, call.Params)
		} else {
			i, err = v.ResolvePane(id)
		}
		if err != nil {
			return failed(err)
		}
		p := v.Rec(i)
		return kit.Routed{To: p.PID, Msg: p.request(call), PaneID: p.Info.PaneID}
	}
	return failed(protocol.Errorf(protocol.CodeInternal, "%s belongs to %s, which the session's read side does not route", m.Name, m.Owner))
}

func failed(err error) kit.Routed { return kit.Routed{Reply: kit.Fail(err)} }

// request is a call for p's actor, with the ids it answers under.
func (p *Pane) request(call *kit.Call) *pane.Request {
	return &pane.Request{Call: call, PaneID: p.Info.PaneID, WorkspaceID: p.Info.WorkspaceID, TabID: p.Info.TabID}
}

// ResolveAgent finds an agent by its pane's current public id (any form
// but one a pane had before a move) or by its name; a name whose agent
// did not start says why.
func (v *View) ResolveAgent(target string) (int, error) {
	if i, err := v.ResolvePane(target); err == nil && !v.formerOf(i, target) && v.Rec(i).Agent != nil {
		return i, nil
	}
	if target != "" {
		for i := range v.Panes {
			if v.Rec(i).Showing().Name == target {
				return i, nil
			}
		}
		for i := range v.Panes {
			if f := v.Rec(i).Showing().Failed; f != nil && f.Name == target {
				return -1, protocol.AgentDidNotStart(target, f.Reason)
			}
		}
	}
	return -1, protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", target)
}

// formerOf reports whether id is one Panes[i] had before it moved.
func (v *View) formerOf(i int, id string) bool {
	j, ok := v.Former[id]
	return ok && j == i && v.Rec(i).Info.PaneID != id
}

// OrFocused is the pane an optional id names, else the focused pane.
func (v *View) OrFocused(id *string) (int, error) {
	if id != nil && *id != "" {
		return v.ResolvePane(*id)
	}
	if v.FocusedPane >= 0 {
		return v.FocusedPane, nil
	}
	return -1, protocol.Errorf(protocol.CodeNoActivePane, "no active pane")
}

// focusedPane is the pane id names, else the focused pane of the
// workspace the params name (protocol.InWorkspace), else the focused pane.
func (v *View) focusedPane(id string, params protocol.Params) (int, error) {
	if in, ok := params.(protocol.InWorkspace); ok && id == "" && in.InWorkspaceID() != "" {
		w, err := v.ResolveWorkspace(in.InWorkspaceID())
		if err != nil {
			return -1, err
		}
		if t, ok := v.TabByID[v.Spaces[w].Info.ActiveTabID]; ok {
			if i := v.tabFocused(t); i >= 0 {
				return i, nil
			}
		}
		return -1, protocol.Errorf(protocol.CodeNoActivePane, "workspace %s has no active pane", in.InWorkspaceID())
	}
	return v.OrFocused(&id)
}

// toPanes are the session's agent methods its pane's actor answers,
// given what the agents actor shows of the agent.
var toPanes = map[string]func(v *View, call *kit.Call, p *Pane) kit.Routed{
	"agent.read":      (*View).agentRead,
	"agent.explain":   (*View).agentExplain,
	"agent.send_keys": (*View).agentSendKeys,
}

func (v *View) agentRead(call *kit.Call, p *Pane) kit.Routed {
	return kit.Routed{To: p.PID, Msg: &pane.AgentRequest{Op: pane.AgentRead, Req: *p.request(call), Agent: p.Showing().Agent, State: p.Showing().State}}
}

func (v *View) agentExplain(call *kit.Call, p *Pane) kit.Routed {
	sh := p.Showing()
	if sh.Agent == "" {
		return failed(protocol.Errorf(protocol.CodeAgentExplainUnavail, "the agent of %s has not started yet", p.Info.PaneID))
	}
	return kit.Routed{To: p.PID, Msg: &pane.AgentRequest{Op: pane.AgentExplain, Req: *p.request(call), Agent: sh.Agent, State: sh.State, Skipped: sh.Skipped, Authority: sh.Authority}}
}

func (v *View) agentSendKeys(call *kit.Call, p *Pane) kit.Routed {
	keys := call.Params.(*protocol.AgentSendKeysParams).Keys
	return kit.Routed{To: p.PID, Msg: &pane.AgentRequest{Op: pane.AgentSendKeys, Req: *p.request(call), Keys: keys}}
}

// ResolveTarget is the pane a call with target kind t names: a pane by
// any id form (TargetPane), an agent (TargetAgent), a pane or the focused
// one (TargetFocusedPane).
func (v *View) ResolveTarget(t protocol.Target, id string, params protocol.Params) (int, error) {
	switch t {
	case protocol.TargetAgent:
		return v.ResolveAgent(id)
	case protocol.TargetFocusedPane:
		return v.focusedPane(id, params)
	}
	return v.ResolvePane(id)
}
