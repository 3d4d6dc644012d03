package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Agents in the session: the agents actor is the authority for agent
// state (hooks, names, waits, status); the session keeps what it shows of
// each pane's agent (a Shown per pane) in its read model, answers the
// reads from there, resolves agent and hook targets, and forwards the
// writes to the agents actor.

var agentHandlers = map[string]handler{
	"agent.list":                    (*Session).agentList,
	"server.agent_manifests":        (*Session).agentManifests,
	"server.reload_agent_manifests": (*Session).reloadAgentManifests,
}

// agentRoutes are the agent-targeted methods the session answers from its
// read model or hands to the pane; the rest go to the agents actor.
var agentRoutes = map[string]paneHandler{
	"agent.get":       (*Session).agentGet,
	"agent.read":      (*Session).agentRead,
	"agent.explain":   (*Session).agentExplain,
	"agent.send_keys": (*Session).agentSendKeys,
	"agent.focus":     (*Session).agentFocus,
}

func (s *Session) agentInfo(p *paneRec) protocol.AgentInfo {
	return p.shown.Info(s.paneInfo(p))
}

// agents lists the panes hosting an agent, in workspace, tab and layout order.
func (s *Session) agents() []protocol.AgentInfo {
	out := []protocol.AgentInfo{}
	for _, w := range s.m.Workspaces() {
		for _, p := range s.workspacePanes(w) {
			if p.shown.HostsAgent() {
				out = append(out, s.agentInfo(p))
			}
		}
	}
	return out
}

// resolveAgent finds an agent by its pane's current public id (tried
// first; not a moved pane's old id) or by its name.
func (s *Session) resolveAgent(target string) (*paneRec, error) {
	// Any form of a pane's id but the ones it had before a move.
	if mp, err := s.m.ResolvePane(target); err == nil && !slices.Contains(mp.Aliases(), target) {
		if p := s.rec(mp); p != nil && p.shown.HostsAgent() {
			return p, nil
		}
	}
	if target != "" {
		for _, p := range s.terms {
			if p.shown.Name == target {
				return p, nil
			}
		}
		for _, p := range s.terms {
			if p.shown.FailedName == target {
				return nil, protocol.AgentDidNotStart(target, p.shown.FailedReason)
			}
		}
	}
	return nil, protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", target)
}

// forwardToAgents hands a call whose target is resolved to the agents
// actor, which answers the caller.
func (s *Session) forwardToAgents(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	req := &agents.Request{Call: call}
	if p != nil {
		req.TermID = p.TermID()
	}
	ctx.RequestWithCustomSender(s.opts.Agents, req, ctx.Sender())
	return nil
}

// shownChanged stores what the agents actor shows of a pane; a new
// presentation is announced as pane_updated.
func (s *Session) shownChanged(sh *agents.Shown) {
	p := s.terms[sh.TermID]
	if p == nil {
		return
	}
	old := p.shown
	p.shown = *sh
	p.shownRev++
	s.viewDirty = true // the workspaces' and tabs' roll-ups
	if sh.PresentationChanged(&old) {
		s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	}
}

// answer sends what the agents actor decided, rendering an agent record
// from the read model when it asks for one.
func (s *Session) answer(ctx actor.Context, a *agents.Answer) {
	if a.Render == agents.RenderReply {
		ctx.Send(a.To, a.Reply)
		return
	}
	p := s.terms[a.TermID]
	if p == nil {
		ctx.Send(a.To, kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane closed")))
		return
	}
	info := s.agentInfo(p)
	switch a.Render {
	case agents.RenderPrompted:
		ctx.Send(a.To, kit.Done(protocol.AgentPrompted{Agent: info}))
	case agents.RenderStarted:
		ctx.Send(a.To, kit.Done(protocol.AgentStarted{Agent: info, Argv: a.Argv}))
	default:
		ctx.Send(a.To, kit.Done(protocol.AgentInfoResult{Agent: info}))
	}
}

func (s *Session) agentList(_ actor.Context, _ *kit.Call) *kit.Reply {
	return kit.Done(protocol.AgentList{Agents: s.agents()})
}

func (s *Session) agentGet(_ actor.Context, _ *kit.Call, p *paneRec) *kit.Reply {
	return kit.Done(protocol.AgentInfoResult{Agent: s.agentInfo(p)})
}

func (s *Session) paneRequest(p *paneRec, call *kit.Call) pane.Request {
	return pane.Request{Call: call, PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID()}
}

func (s *Session) agentRead(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	r := &pane.AgentRequest{Op: pane.AgentRead, Req: s.paneRequest(p, call), Agent: p.shown.Agent, State: p.shown.State}
	ctx.RequestWithCustomSender(p.pid, r, ctx.Sender())
	return nil
}

func (s *Session) agentExplain(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	sh := p.shown
	if sh.Agent == "" {
		return kit.Fail(protocol.Errorf(protocol.CodeAgentExplainUnavail, "the agent of %s has not started yet", p.ID()))
	}
	r := &pane.AgentRequest{Op: pane.AgentExplain, Req: s.paneRequest(p, call), Agent: sh.Agent, State: sh.State, Skipped: sh.Skipped, Authority: sh.Authority}
	ctx.RequestWithCustomSender(p.pid, r, ctx.Sender())
	return nil
}

func (s *Session) agentSendKeys(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	keys := call.Params.(*protocol.AgentSendKeysParams).Keys
	ctx.RequestWithCustomSender(p.pid, &pane.AgentRequest{Op: pane.AgentSendKeys, Req: s.paneRequest(p, call), Keys: keys}, ctx.Sender())
	return nil
}

// agentFocus focuses the agent's pane; the agents actor answers once it
// has the new placement (and has marked the tab's agents seen).
func (s *Session) agentFocus(ctx actor.Context, _ *kit.Call, p *paneRec) *kit.Reply {
	s.tx.FocusPane(p.Pane)
	s.tx.deferred = &agents.Answer{To: ctx.Sender(), Render: agents.RenderInfo, TermID: p.TermID()}
	return nil
}

func manifestInfos(c *rules.Catalog) []protocol.AgentManifestInfo {
	out := []protocol.AgentManifestInfo{}
	for _, m := range c.Infos() {
		info := protocol.AgentManifestInfo{Agent: m.Agent, Source: m.Source, SourceKind: m.SourceKind}
		if m.ActiveVersion != "" {
			info.ActiveVersion = protocol.Ptr(m.ActiveVersion)
		}
		if m.Warning != "" {
			info.Warning = protocol.Ptr(m.Warning)
		}
		out = append(out, info)
	}
	return out
}

func (s *Session) agentManifests(_ actor.Context, _ *kit.Call) *kit.Reply {
	if s.catalog == nil {
		return kit.Done(protocol.AgentManifestStatus{Manifests: []protocol.AgentManifestInfo{}})
	}
	return kit.Done(protocol.AgentManifestStatus{Manifests: manifestInfos(s.catalog)})
}

// reloadAgentManifests re-reads the bundled manifests and local overrides
// and hands the new catalog to every pane.
func (s *Session) reloadAgentManifests(ctx actor.Context, _ *kit.Call) *kit.Reply {
	catalog, warnings := rules.LoadCatalog(s.opts.CatalogDir)
	for _, w := range warnings {
		s.opts.Log.Warn("agent manifest override ignored", "err", w.Error())
	}
	s.catalog = catalog
	s.spawner.Catalog = catalog // new panes detect with it
	for _, p := range s.terms {
		ctx.Send(p.pid, &pane.SetCatalog{Catalog: catalog})
	}
	return kit.Done(protocol.AgentManifestReload{Manifests: manifestInfos(catalog)})
}

// rollup is the most urgent status among panes.
func rollup(panes []*paneRec) protocol.AgentStatus {
	best := protocol.StatusUnknown
	for _, p := range panes {
		if st := p.shown.PublicStatus(); agents.Rank[st] > agents.Rank[best] {
			best = st
		}
	}
	return best
}

func (s *Session) workspacePanes(w *workspace) []*paneRec {
	var out []*paneRec
	for _, t := range w.Tabs() {
		out = append(out, s.tabPanes(t)...)
	}
	return out
}
