package agents

import (
	"github.com/herdr-go/herdr/protocol"
)

// A live handoff carries every pane's agent record to the new server's
// agents actor: the screen's agent and state, hook authority, the seen
// bit, status and its sequence number, the agent session, name and the
// metadata that does not expire (metadata with a TTL, and waits, do not
// cross: waits are answered with an error by the old server's
// connections as it goes).

// Export asks for the carried records; the answer is a *Carried.
type Export struct{}

// Carried is every pane's agent record, by terminal id, and the status
// sequence counter.
type Carried struct {
	Panes    map[string]CarriedPane
	StateSeq uint64
}

// CarriedPane is one pane's agent record.
type CarriedPane struct {
	Agent, State   string
	Seen           bool
	Status         protocol.AgentStatus
	StateSeq       uint64
	Completions    uint64
	Auth           *CarriedAuthority
	Exited         string
	Session        *protocol.AgentSessionInfo
	Name, NameKind string
	Meta           map[string]CarriedMeta // by source
	Tokens         map[string]*string
}

// CarriedAuthority is a hook's authority over a pane's agent.
type CarriedAuthority struct {
	Source, Agent, State, Message string
	Full                          bool
}

// CarriedMeta is one source's lasting presentation of a pane.
type CarriedMeta struct {
	Order               uint64
	Agent, AppliesTo    string
	Title, DisplayAgent *string
	Labels              map[string]string
}

func (a *Agents) export() *Carried {
	out := &Carried{Panes: make(map[string]CarriedPane, len(a.recs)), StateSeq: a.stateSeq}
	for id, r := range a.recs {
		c := CarriedPane{Agent: r.agent, State: r.state, Seen: r.seen, Status: r.status, StateSeq: r.stateSeq, Completions: r.completions}
		if h := r.hook; h != nil {
			c.Exited, c.Session, c.Name, c.NameKind = h.exited, h.session, h.name, h.nameKind
			if h.launchPending { // its launch's caller is not carried over
				c.Name, c.NameKind = "", ""
			}
			if au := h.auth; au != nil {
				c.Auth = &CarriedAuthority{Source: au.source, Agent: au.agent, State: au.state, Message: au.message, Full: au.full}
			}
			for src, e := range h.meta {
				if e.gen != 0 {
					continue
				}
				if c.Meta == nil {
					c.Meta = map[string]CarriedMeta{}
				}
				c.Meta[src] = CarriedMeta{Order: e.order, Agent: e.agent, AppliesTo: e.appliesTo, Title: e.title, DisplayAgent: e.displayAgent, Labels: e.labels}
			}
			c.Tokens = h.tokens.Lasting()
		}
		out.Panes[id] = c
	}
	return out
}

// adopt gives a new record what the old server knew of its pane.
func (a *Agents) adopt(r *rec, c CarriedPane) {
	r.agent, r.state, r.seen, r.status, r.stateSeq, r.completions = c.Agent, c.State, c.Seen, c.Status, c.StateSeq, c.Completions
	h := a.hookOf(r)
	h.exited, h.session, h.name, h.nameKind = c.Exited, c.Session, c.Name, c.NameKind
	if au := c.Auth; au != nil {
		h.auth = &authority{source: au.Source, agent: au.Agent, state: au.State, message: au.Message, full: au.Full}
	}
	for src, m := range c.Meta {
		if h.meta == nil {
			h.meta = map[string]*presentation{}
		}
		h.meta[src] = &presentation{order: m.Order, agent: m.Agent, appliesTo: m.AppliesTo, title: m.Title, displayAgent: m.DisplayAgent, labels: m.Labels}
		h.order = max(h.order, m.Order)
	}
	if len(c.Tokens) > 0 {
		_ = h.tokens.Apply(c.Tokens, 0) // they were valid when reported
	}
	r.effAgent, r.effState, _ = effective(r)
	a.touch(r)
}
