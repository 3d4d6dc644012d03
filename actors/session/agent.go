package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/detect"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

var agentHandlers = map[string]handler{
	"agent.list":                    (*Session).agentList,
	"agent.get":                     (*Session).agentGet,
	"server.agent_manifests":        (*Session).agentManifests,
	"server.reload_agent_manifests": (*Session).reloadAgentManifests,
}

func (s *Session) agentInfo(p *paneRec) protocol.AgentInfo {
	pi := s.paneInfo(p)
	_, state, skipped := effective(p)
	info := protocol.AgentInfo{
		TerminalID:             p.TermID,
		Agent:                  pi.Agent,
		Title:                  pi.Title,
		TerminalTitle:          pi.TerminalTitle,
		TerminalTitleStripped:  pi.TerminalTitleStripped,
		DisplayAgent:           pi.DisplayAgent,
		AgentStatus:            pi.AgentStatus,
		ScreenDetectionSkipped: skipped,
		StateLabels:            pi.StateLabels,
		Tokens:                 pi.Tokens,
		AgentSession:           pi.AgentSession,
		WorkspaceID:            p.WS.ID,
		TabID:                  p.Tab.ID,
		PaneID:                 p.ID,
		Focused:                pi.Focused,
		InteractiveReady:       pi.Agent != nil && state == string(protocol.StatusIdle),
		StateChangeSeq:         p.stateSeq,
		Cwd:                    pi.Cwd,
		ForegroundCwd:          pi.ForegroundCwd,
		Revision:               p.facts.Revision,
	}
	if h := p.hook; h != nil && h.name != "" {
		info.Name = protocol.Ptr(h.name)
		info.LaunchPending = h.launchPending
		info.InteractiveReady = info.InteractiveReady && !h.launchPending
	}
	return info
}

// agents lists the panes hosting an agent, in workspace, tab and layout order.
func (s *Session) agents() []protocol.AgentInfo {
	out := []protocol.AgentInfo{}
	for _, w := range s.m.Workspaces {
		for _, p := range s.workspacePanes(w) {
			if hostsAgent(p) {
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
	if mp, err := s.m.ResolvePane(target); err == nil && !slices.Contains(mp.Aliases, target) {
		if p := s.rec(mp); p != nil && hostsAgent(p) {
			return p, nil
		}
	}
	if p := s.agentNamed(target); p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", target)
}

// agentNamed is the pane whose agent has name, or nil.
func (s *Session) agentNamed(name string) *paneRec {
	if name == "" {
		return nil
	}
	for _, p := range s.terms {
		if p.hook != nil && p.hook.name == name {
			return p
		}
	}
	return nil
}

func (s *Session) agentList(_ actor.Context, _ *api.Call) *api.Reply {
	return api.Done(protocol.AgentList{Agents: s.agents()})
}

func (s *Session) agentGet(_ actor.Context, call *api.Call) *api.Reply {
	p, err := s.resolveAgent(call.Params.(*protocol.AgentTarget).Target)
	if err != nil {
		return api.Fail(err)
	}
	return api.Done(protocol.AgentInfoResult{Agent: s.agentInfo(p)})
}

func manifestInfos(c *detect.Catalog) []protocol.AgentManifestInfo {
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

func (s *Session) agentManifests(_ actor.Context, _ *api.Call) *api.Reply {
	if s.catalog == nil {
		return api.Done(protocol.AgentManifestStatus{Manifests: []protocol.AgentManifestInfo{}})
	}
	return api.Done(protocol.AgentManifestStatus{Manifests: manifestInfos(s.catalog)})
}

// reloadAgentManifests re-reads the bundled manifests and local overrides
// and hands the new catalog to every pane.
func (s *Session) reloadAgentManifests(ctx actor.Context, _ *api.Call) *api.Reply {
	catalog, warnings := detect.LoadCatalog(s.opts.CatalogDir)
	for _, w := range warnings {
		s.opts.Log.Warn("agent manifest override ignored", "err", w.Error())
	}
	s.catalog = catalog
	for _, p := range s.terms {
		ctx.Send(p.pid, &pane.SetCatalog{Catalog: catalog})
	}
	return api.Done(protocol.AgentManifestReload{Manifests: manifestInfos(catalog)})
}
