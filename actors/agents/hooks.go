package agents

import (
	"maps"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
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

var (
	// fullLifecycleSources own their agent's whole state.
	fullLifecycleSources = map[string]bool{"herdr:pi": true, "pi": true, "herdr:omp": true, "herdr:mastracode": true,
		"herdr:opencode": true, "herdr:kilo": true, "herdr:kimi": true}
	// identityOnlySources name the agent session; state stays the screen's.
	identityOnlySources = map[string]bool{"herdr:claude": true, "herdr:codex": true, "herdr:copilot": true, "herdr:devin": true,
		"herdr:droid": true, "herdr:qodercli": true, "herdr:cursor": true, "herdr:grok": true, "herdr:qwen": true}
	// sessionOnlySources report through pane.report_agent_session only.
	sessionOnlySources = map[string]bool{"herdr:hermes": true, "herdr:antigravity_cli": true}
)

// hookState is what hooks and the agent API keep for one pane. It is made
// on first use; before that the pane's agent and state are the screen's.
type hookState struct {
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
	launchToken    uint64 // the launch's AgentRequest.Token, which a LaunchFailed names
	// The name of the last launch here that failed, and the shell's words:
	// agent.get of that name says why (kept until the next launch here).
	failedName, failedReason string
	released                 *protocol.AgentStatus // set while a release is reconciled
	// A restore's resume: the agent it typed, until it fails, and why it
	// was not resumed.
	resuming, restoreError string
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

// hookOf returns the pane's hook state, made on first use: most panes
// never have any.
func (a *Agents) hookOf(r *rec) *hookState {
	if r.hook == nil {
		r.hook = &hookState{}
	}
	return r.hook
}

// restoreError is why the pane's agent was not resumed, if it was not.
func restoreError(r *rec) string {
	if r.hook == nil {
		return ""
	}
	return r.hook.restoreError
}

// effective is the pane's agent and internal state with hook authority
// applied, and whether that authority replaces screen detection.
func effective(r *rec) (agent, state string, skipped bool) {
	agent, state = r.agent, r.state
	if r.hook == nil || r.hook.auth == nil {
		return agent, state, false
	}
	au := r.hook.auth
	if agent != "" && agent != au.agent {
		return agent, state, false // another agent runs now
	}
	if au.full {
		return au.agent, au.state, true
	}
	if agent == au.agent && state == string(protocol.StatusBlocked) && au.state != string(protocol.StatusBlocked) {
		return agent, state, false // the screen shows a blocker the hook has not seen
	}
	return au.agent, au.state, false
}

// effAgent is the agent the pane hosts as far as the public API is concerned.
func effAgent(r *rec) string {
	ag, _, _ := effective(r)
	return ag
}

// hostsAgent reports whether agent.* targets may name the pane: it runs an
// agent, or one is being started there under a name.
func hostsAgent(r *rec) bool {
	return effAgent(r) != "" || (r.hook != nil && r.hook.name != "")
}

// ttl arms a metadata expiry timer and returns its generation (0 for none).
func (a *Agents) ttl(ctx actor.Context, ms *uint64, termID string) uint64 {
	if ms == nil {
		return 0
	}
	a.nextGen++
	gen := a.nextGen
	a.timers.After(ctx, time.Duration(*ms)*time.Millisecond, &metaExpired{termID: termID, gen: gen})
	return gen
}

// hookCall is the preamble of the pane hook methods: take the pane's hook
// state and check the report's sequence number for its source. A non-nil
// reply ends the call (an error, or an out-of-order report that is
// accepted and ignored).
func (a *Agents) hookCall(r *rec, kind, source string, seq *uint64) (*hookState, *kit.Reply) {
	h := a.hookOf(r)
	if ok, err := h.seqs.Accept(kind, source, seq); err != nil || !ok {
		return nil, kit.OkOrFail(err)
	}
	return h, nil
}

func (a *Agents) reportAgent(_ actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.PaneReportAgentParams)
	h, done := a.hookCall(r, "agent", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	agent := rules.Canonical(prm.Agent)
	full := fullLifecycleSources[prm.Source]
	switch {
	case sessionOnlySources[prm.Source]:
		return kit.OK()
	case r.agent != "" && agent != r.agent:
		return kit.OK() // names another agent than the one running
	case !full && h.exited == agent && r.agent == "":
		return kit.OK() // its process has already exited
	}
	before := presentationKey(r)
	if ref := sessionRef(prm.Source, agent, prm.AgentSessionID, prm.AgentSessionPath, prm.ResumeArgv); ref != nil {
		h.session = ref
	}
	if !identityOnlySources[prm.Source] {
		msg := ""
		if prm.Message != nil {
			msg = *prm.Message
		}
		h.auth = &authority{source: prm.Source, agent: agent, state: prm.State, message: msg, full: full}
		if r.agent == "" && r.job != pane.JobOther && r.PID != nil {
			a.ctx.Send(r.PID, &pane.RefreshJob{}) // a silent program: see that it runs (jobChanged)
		}
	}
	a.reconcile(r)
	a.presentationChanged(r, before)
	return kit.OK()
}

// sessionRef is the agent session a hook reported: by id or path, with
// the command that resumes it when the hook gave one (resume_argv alone
// is a reference too: restore runs it, records do not show it).
func sessionRef(source, agent string, id, path *string, resume []string) *protocol.AgentSessionInfo {
	ref := &protocol.AgentSessionInfo{Source: source, Agent: agent, ResumeArgv: slices.Clone(resume)}
	switch {
	case id != nil && *id != "":
		ref.Kind, ref.Value = "id", *id
	case path != nil && *path != "":
		ref.Kind, ref.Value = "path", *path
	case len(resume) == 0:
		return nil
	}
	return ref
}

func (a *Agents) reportAgentSession(_ actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.PaneReportAgentSessionParams)
	h, done := a.hookCall(r, "session", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	agent := rules.Canonical(prm.Agent)
	if r.agent != "" && agent != r.agent {
		return kit.OK()
	}
	before := presentationKey(r)
	h.session = sessionRef(prm.Source, agent, prm.AgentSessionID, prm.AgentSessionPath, prm.ResumeArgv)
	a.presentationChanged(r, before)
	return kit.OK()
}

func (a *Agents) clearAgentAuthority(_ actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.PaneClearAgentAuthorityParams)
	h := a.hookOf(r)
	if prm.Source != nil {
		if ok, err := h.seqs.Accept("agent", *prm.Source, prm.Seq); err != nil || !ok {
			return kit.OkOrFail(err)
		}
	}
	if h.auth != nil && (prm.Source == nil || *prm.Source == h.auth.source) {
		h.auth = nil
		a.reconcile(r)
	}
	return kit.OK()
}

func (a *Agents) releaseAgent(_ actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.PaneReleaseAgentParams)
	h, done := a.hookCall(r, "agent", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	if h.auth == nil || h.auth.source != prm.Source || h.auth.agent != rules.Canonical(prm.Agent) {
		return kit.OK()
	}
	final := r.status
	h.auth = nil
	h.released = &final
	a.reconcile(r)
	h.released = nil
	return kit.OK()
}

func (a *Agents) reportMetadata(ctx actor.Context, call *kit.Call, r *rec) *kit.Reply {
	prm := call.Params.(*protocol.PaneReportMetadataParams)
	h, done := a.hookCall(r, "meta", prm.Source, prm.Seq)
	if done != nil {
		return done
	}
	before := presentationKey(r)
	gen := a.ttl(ctx, prm.TTLMS, r.TermID)
	if err := h.tokens.Apply(prm.Tokens, gen); err != nil {
		return kit.Fail(err)
	}
	e := h.meta[prm.Source]
	if e == nil {
		e = &presentation{}
	}
	h.order++
	e.order, e.gen, e.agent, e.appliesTo = h.order, gen, "", ""
	if prm.Agent != nil {
		e.agent = rules.Canonical(*prm.Agent)
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
	a.presentationChanged(r, before)
	return kit.OK()
}

// expireMeta drops the metadata of one TTL generation.
func (a *Agents) expireMeta(m *metaExpired) {
	r := a.recs[m.termID]
	if r == nil || r.hook == nil {
		return
	}
	before := presentationKey(r)
	r.hook.tokens.Expire(m.gen)
	for src, e := range r.hook.meta {
		if e.gen == m.gen {
			delete(r.hook.meta, src)
		}
	}
	a.presentationChanged(r, before)
}

// presentationOf resolves a pane's title, display name and state labels:
// the sources whose guards hold, later reports over earlier ones.
func presentationOf(r *rec) (title, display *string, labels map[string]string) {
	h := r.hook
	if h == nil || len(h.meta) == 0 {
		return nil, nil, nil
	}
	entries := slices.SortedFunc(maps.Values(h.meta), func(x, y *presentation) int { return int(x.order) - int(y.order) })
	agent := effAgent(r)
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

// presentationKey fingerprints what metadata shows of a pane.
func presentationKey(r *rec) string {
	sh := Shown{}
	fillPresentation(&sh, r)
	return sh.presentationKey()
}

// presentationChanged sends the session the pane's new presentation and
// repeats the status on the status stream with it, when what metadata
// shows of the pane changed.
func (a *Agents) presentationChanged(r *rec, before string) {
	a.touch(r)
	if presentationKey(r) == before {
		return
	}
	a.emit(a.statusEvent(r), r)
}
