package session

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/detect"
	"github.com/herdr-go/herdr/actors/meta"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Hook authority and metadata. Integrations report what an agent is doing
// (pane.report_agent) and how a pane should be presented
// (pane.report_metadata). A report from a full-lifecycle source replaces
// the screen's state while it lasts; an identity-only source only names the
// agent session; any other source's state is used too, except that a
// blocker the screen shows for the same agent wins. Metadata is
// presentation only: it never changes a status.

var hookHandlers = map[string]handler{
	"pane.report_agent":          (*Session).reportAgent,
	"pane.report_agent_session":  (*Session).reportAgentSession,
	"pane.report_metadata":       (*Session).reportMetadata,
	"pane.clear_agent_authority": (*Session).clearAgentAuthority,
	"pane.release_agent":         (*Session).releaseAgent,
}

var (
	// fullLifecycleSources own their agent's whole state.
	fullLifecycleSources = map[string]bool{"herdr:pi": true, "pi": true, "herdr:omp": true, "herdr:mastracode": true,
		"herdr:opencode": true, "herdr:kilo": true, "herdr:kimi": true}
	// identityOnlySources name the agent session; state stays the screen's.
	identityOnlySources = map[string]bool{"herdr:claude": true, "herdr:codex": true, "herdr:copilot": true, "herdr:devin": true,
		"herdr:droid": true, "herdr:qodercli": true, "herdr:cursor": true, "herdr:grok": true}
	// sessionOnlySources report through pane.report_agent_session only.
	sessionOnlySources = map[string]bool{"herdr:hermes": true, "herdr:antigravity_cli": true}
)

// hookState is what hooks and the agent API keep for one pane. It is made
// on first use; before that the pane's agent and state are its facts'.
type hookState struct {
	// The effective agent and internal state as of the last reconcile.
	effAgent, effState string
	skipped            bool // hook authority replaces screen detection

	auth    *authority
	exited  string // the last agent whose process exited in the pane
	session *protocol.AgentSessionInfo
	seqs    meta.SeqBook

	meta   map[string]*presentation // by source
	order  uint64
	tokens meta.Tokens

	// The agent's name, the agent kind it belongs to, and whether
	// agent.start is still waiting for that agent to appear.
	name, nameKind string
	launchPending  bool
	launchGen      uint64
	released       *protocol.AgentStatus // set while a release is reconciled
}

type authority struct {
	source, agent, state, message string
	full                          bool
}

// presentation is one source's metadata for a pane.
type presentation struct {
	order        uint64
	agent        string // shown only while this agent runs ("" = any)
	appliesTo    string // shown only while this source has authority
	title        *string
	displayAgent *string
	labels       map[string]string
	gen          uint64 // TTL generation; 0 = no expiry
}

// metaExpired is a TTL timer firing for generation gen of a pane's metadata.
type metaExpired struct {
	termID string
	gen    uint64
}

// hookOf returns the pane's hook state, making it from the pane's facts.
func (s *Session) hookOf(p *paneRec, base pane.Facts) *hookState {
	if p.hook == nil {
		p.hook = &hookState{effAgent: base.Agent, effState: base.AgentState}
	}
	return p.hook
}

// effective is the pane's agent and internal state with hook authority
// applied, and whether that authority replaces screen detection.
func effective(p *paneRec) (agent, state string, skipped bool) {
	agent, state = p.facts.Agent, p.facts.AgentState
	if p.hook == nil || p.hook.auth == nil {
		return agent, state, false
	}
	a := p.hook.auth
	if agent != "" && agent != a.agent {
		return agent, state, false // another agent runs now
	}
	if a.full {
		return a.agent, a.state, true
	}
	if agent == a.agent && state == string(protocol.StatusBlocked) && a.state != string(protocol.StatusBlocked) {
		return agent, state, false // the screen shows a blocker the hook has not seen
	}
	return a.agent, a.state, false
}

// effAgent is the agent the pane hosts as far as the public API is concerned.
func effAgent(p *paneRec) string {
	a, _, _ := effective(p)
	return a
}

// hostsAgent reports whether agent.* targets may name the pane: it runs an
// agent, or one is being started there under a name.
func hostsAgent(p *paneRec) bool {
	return effAgent(p) != "" || (p.hook != nil && p.hook.name != "")
}

// ttl arms a metadata expiry timer and returns its generation (0 for none).
func (s *Session) ttl(ctx actor.Context, ms *uint64, termID string) uint64 {
	if ms == nil {
		return 0
	}
	s.ag.nextGen++
	gen := s.ag.nextGen
	s.timers.After(ctx, time.Duration(*ms)*time.Millisecond, &metaExpired{termID: termID, gen: gen})
	return gen
}

func (s *Session) reportAgent(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneReportAgentParams)
	p, h, done := s.hookCall(prm.PaneID, "agent", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	agent := detect.Canonical(prm.Agent)
	full := fullLifecycleSources[prm.Source]
	switch {
	case sessionOnlySources[prm.Source]:
		return api.OK()
	case p.facts.Agent != "" && agent != p.facts.Agent:
		return api.OK() // names another agent than the one running
	case !full && h.exited == agent && p.facts.Agent == "":
		return api.OK() // its process has already exited
	}
	before := s.presentationKey(p)
	if ref := sessionRef(prm.Source, agent, prm.AgentSessionID, prm.AgentSessionPath); ref != nil {
		h.session = ref
	}
	if !identityOnlySources[prm.Source] {
		msg := ""
		if prm.Message != nil {
			msg = *prm.Message
		}
		h.auth = &authority{source: prm.Source, agent: agent, state: prm.State, message: msg, full: full}
	}
	s.reconcile(p)
	s.presentationChanged(p, before)
	return api.OK()
}

func sessionRef(source, agent string, id, path *string) *protocol.AgentSessionInfo {
	switch {
	case id != nil && *id != "":
		return &protocol.AgentSessionInfo{Source: source, Agent: agent, Kind: "id", Value: *id}
	case path != nil && *path != "":
		return &protocol.AgentSessionInfo{Source: source, Agent: agent, Kind: "path", Value: *path}
	}
	return nil
}

// hookCall is the preamble of the pane hook methods: resolve the pane, take
// its hook state and check the report's sequence number for its source.
// A non-nil reply ends the call (an error, or an out-of-order report that
// is accepted and ignored).
func (s *Session) hookCall(paneID, kind, source string, seq *uint64) (*paneRec, *hookState, *api.Reply) {
	p, err := s.resolvePane(paneID)
	if err != nil {
		return nil, nil, api.Fail(err)
	}
	h := s.hookOf(p, p.facts)
	if ok, err := h.seqs.Accept(kind, source, seq); err != nil || !ok {
		return nil, nil, api.OkOrFail(err)
	}
	return p, h, nil
}

func (s *Session) reportAgentSession(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneReportAgentSessionParams)
	p, h, done := s.hookCall(prm.PaneID, "session", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	agent := detect.Canonical(prm.Agent)
	if p.facts.Agent != "" && agent != p.facts.Agent {
		return api.OK()
	}
	before := s.presentationKey(p)
	h.session = sessionRef(prm.Source, agent, prm.AgentSessionID, prm.AgentSessionPath)
	s.presentationChanged(p, before)
	return api.OK()
}

func (s *Session) clearAgentAuthority(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneClearAgentAuthorityParams)
	p, err := s.resolvePane(prm.PaneID)
	if err != nil {
		return api.Fail(err)
	}
	h := s.hookOf(p, p.facts)
	if prm.Source != nil {
		if ok, err := h.seqs.Accept("agent", *prm.Source, prm.Seq); err != nil || !ok {
			return api.OkOrFail(err)
		}
	}
	if h.auth != nil && (prm.Source == nil || *prm.Source == h.auth.source) {
		h.auth = nil
		s.reconcile(p)
	}
	return api.OK()
}

func (s *Session) releaseAgent(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneReleaseAgentParams)
	p, h, done := s.hookCall(prm.PaneID, "agent", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	if h.auth == nil || h.auth.source != prm.Source || h.auth.agent != detect.Canonical(prm.Agent) {
		return api.OK()
	}
	final := s.agentStatus(p)
	h.auth = nil
	h.released = &final
	s.reconcile(p)
	h.released = nil
	return api.OK()
}

func (s *Session) reportMetadata(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneReportMetadataParams)
	p, h, done := s.hookCall(prm.PaneID, "meta", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	before := s.presentationKey(p)
	gen := s.ttl(ctx, prm.TTLMS, p.TermID)
	if err := h.tokens.Apply(prm.Tokens, gen); err != nil {
		return api.Fail(err)
	}
	e := h.meta[prm.Source]
	if e == nil {
		e = &presentation{}
	}
	h.order++
	e.order, e.gen, e.agent, e.appliesTo = h.order, gen, "", ""
	if prm.Agent != nil {
		e.agent = detect.Canonical(*prm.Agent)
	}
	if prm.AppliesToSource != nil {
		e.appliesTo = *prm.AppliesToSource
	}
	setText := func(dst **string, v *string, clear bool) {
		switch {
		case clear:
			*dst = nil
		case v != nil:
			if t := protocol.SanitizeText(*v, protocol.MaxMetadataText); t != "" {
				*dst = &t
			} else {
				*dst = nil
			}
		}
	}
	setText(&e.title, prm.Title, prm.ClearTitle)
	setText(&e.displayAgent, prm.DisplayAgent, prm.ClearDisplayAgent)
	if prm.ClearStateLabels {
		e.labels = nil
	}
	for k, v := range prm.StateLabels {
		if t := protocol.SanitizeText(v, protocol.MaxMetadataText); t != "" {
			if e.labels == nil {
				e.labels = map[string]string{}
			}
			e.labels[k] = t
		} else {
			delete(e.labels, k)
		}
	}
	if h.meta == nil {
		h.meta = map[string]*presentation{}
	}
	if e.title == nil && e.displayAgent == nil && len(e.labels) == 0 {
		delete(h.meta, prm.Source)
	} else {
		h.meta[prm.Source] = e
	}
	s.presentationChanged(p, before)
	return api.OK()
}

// expireMeta drops the metadata of one TTL generation.
func (s *Session) expireMeta(m *metaExpired) {
	p := s.terms[m.termID]
	if p == nil || p.hook == nil {
		return
	}
	before := s.presentationKey(p)
	p.hook.tokens.Expire(m.gen)
	for src, e := range p.hook.meta {
		if e.gen == m.gen {
			delete(p.hook.meta, src)
		}
	}
	s.presentationChanged(p, before)
}

// presentationOf resolves a pane's title, display name and state labels:
// the sources whose guards hold, later reports over earlier ones.
func presentationOf(p *paneRec) (title, display *string, labels map[string]string) {
	h := p.hook
	if h == nil || len(h.meta) == 0 {
		return nil, nil, nil
	}
	entries := slices.SortedFunc(maps.Values(h.meta), func(a, b *presentation) int { return int(a.order) - int(b.order) })
	agent := effAgent(p)
	for _, e := range entries {
		if e.agent != "" && e.agent != agent {
			continue
		}
		if e.appliesTo != "" && (h.auth == nil || h.auth.source != e.appliesTo) {
			continue
		}
		if e.title != nil {
			title = e.title
		}
		if e.displayAgent != nil {
			display = e.displayAgent
		}
		for k, v := range e.labels {
			if labels == nil {
				labels = map[string]string{}
			}
			labels[k] = v
		}
	}
	return title, display, labels
}

// decoratePane adds what hooks reported to a pane record.
func (s *Session) decoratePane(info *protocol.PaneInfo, p *paneRec) {
	info.Agent = nil
	if a := effAgent(p); a != "" {
		info.Agent = protocol.Ptr(a)
	}
	if p.hook == nil {
		return
	}
	info.Title, info.DisplayAgent, info.StateLabels = presentationOf(p)
	info.Tokens = p.hook.tokens.Wire()
	info.AgentSession = p.hook.session
}

// workspaceTokens are the tokens reported for a workspace.
func (s *Session) workspaceTokens(w *workspace) map[string]string {
	return w.Tokens
}

// presentationKey fingerprints what metadata shows of a pane.
func (s *Session) presentationKey(p *paneRec) string {
	var info protocol.PaneInfo
	s.decoratePane(&info, p)
	info.Agent = nil // announced by pane_agent_detected
	b, _ := json.Marshal(info)
	return string(b)
}

// presentationChanged publishes pane_updated (and the presentation on the
// status stream) when what metadata shows of a pane changed.
func (s *Session) presentationChanged(p *paneRec, before string) {
	if s.presentationKey(p) == before {
		return
	}
	s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	f := s.paneFields(p)
	f.Agent, f.AgentStatus = effAgent(p), string(s.agentStatus(p))
	s.emit(s.statusEventFull(p), f)
}

// statusEventFull is the status event with the pane's presentation.
func (s *Session) statusEventFull(p *paneRec) protocol.PaneAgentStatusChangedEvent {
	ev := s.statusEvent(p)
	ev.Agent = nil
	if a := effAgent(p); a != "" {
		ev.Agent = protocol.Ptr(a)
	}
	ev.Title, ev.DisplayAgent, ev.StateLabels = presentationOf(p)
	return ev
}
