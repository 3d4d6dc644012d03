package pane

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/protocol"
)

type matcher struct {
	id       uint64
	bus, sub *actor.PID
	query    outputQuery
	matching bool
}

// addMatcher starts a matcher. It starts as not matching, so output that
// is already on screen fires once at once.
func (p *Pane) addMatcher(ctx actor.Context, m *events.AddMatcher) {
	ids := Request{PaneID: m.PaneID, WorkspaceID: m.WorkspaceID, TabID: m.TabID}
	q, err := newQuery(&ids, m.Source, m.Lines, m.Strip, m.Match)
	if err != nil {
		return // the bus validated the regex before registering
	}
	p.matchers = append(p.matchers, &matcher{id: m.ID, bus: m.Bus, sub: m.Sub, query: q})
	ctx.Watch(m.Sub)
	p.checkMatchers(ctx)
}

// checkMatchers publishes the not-matching → matching edges.
func (p *Pane) checkMatchers(ctx actor.Context) {
	for _, m := range p.matchers {
		line, read, ok := p.find(&m.query, !m.matching)
		if ok && !m.matching {
			ctx.Send(m.bus, &events.PublishVolatile{
				Kind:    protocol.SubOutputMatched,
				Matcher: m.id,
				Fields:  events.Fields{PaneID: read.PaneID, WorkspaceID: read.WorkspaceID, TermID: p.spec.TerminalID},
				Data:    protocol.PaneOutputMatchedEvent{PaneID: read.PaneID, MatchedLine: line, Read: read},
			})
		}
		m.matching = ok
	}
}

// dropMatchers forgets the matchers of a connection that went away.
func (p *Pane) dropMatchers(who *actor.PID) {
	kept := p.matchers[:0]
	for _, m := range p.matchers {
		if !m.sub.Equal(who) {
			kept = append(kept, m)
		}
	}
	clear(p.matchers[len(kept):])
	p.matchers = kept
}
