package session

import (
	"regexp"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// events.wait is the bus's (actors/events), resolved from the read side.
var eventsHandlers = map[string]handler{
	"events.subscribe": (*Session).eventsSubscribe,
}

func (s *Session) statusEvent(p *paneRec) protocol.PaneAgentStatusChangedEvent {
	ev := protocol.PaneAgentStatusChangedEvent{PaneID: p.ID, WorkspaceID: p.WS.ID, AgentStatus: p.shown.PublicStatus()}
	if p.shown.Agent != "" {
		ev.Agent = protocol.Ptr(p.shown.Agent)
	}
	return ev
}

// eventsSubscribe validates every entry first (one unknown pane rejects the
// whole request), then registers the subscriber with the bus and the panes.
// The connection becomes a stream once it writes the acknowledgement.
func (s *Session) eventsSubscribe(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.EventsSubscribeParams)
	panes := make([]*paneRec, len(prm.Subscriptions))
	for i, sub := range prm.Subscriptions {
		if sub.PaneID == "" {
			continue
		}
		if m, _, ok := protocol.SplitQualified(sub.PaneID); ok {
			// Another machine's pane: the machines actor checked the
			// machine and named it by its id (actors/machines).
			if !prm.AllMachines() || sub.Type != protocol.SubAgentStatusChanged {
				return kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "%s of machine %q's pane %s: only pane.agent_status_changed, with \"machines\":\"all\"", sub.Type, m, sub.PaneID))
			}
			continue
		}
		p, err := s.resolvePane(sub.PaneID)
		if err != nil {
			return kit.Fail(err)
		}
		if sub.Match != nil && sub.Match.Type == "regex" {
			if _, err := regexpCheck(sub.Match.Value); err != nil {
				return kit.Fail(err)
			}
		}
		panes[i] = p
	}
	reg := &events.Subscribe{Sub: ctx.Sender(), Since: prm.SinceSeq, Fleet: prm.AllMachines()}
	var initial [][]byte
	for i, sub := range prm.Subscriptions {
		p := panes[i]
		switch sub.Type {
		case protocol.SubAgentStatusChanged:
			if p == nil { // another machine's, checked above
				m, id, _ := protocol.SplitQualified(sub.PaneID)
				f := events.StatusFilter{Machine: m, PaneID: id}
				if sub.AgentStatus != nil {
					f.Status = *sub.AgentStatus
				}
				reg.Statuses = append(reg.Statuses, f)
				continue
			}
			f := events.StatusFilter{TermID: p.TermID}
			if sub.AgentStatus != nil {
				f.Status = *sub.AgentStatus
				if string(p.shown.PublicStatus()) == f.Status {
					line, _ := protocol.EncodeDedicated(protocol.SubAgentStatusChanged, s.statusEvent(p))
					initial = append(initial, line)
				}
			}
			reg.Statuses = append(reg.Statuses, f)
		case protocol.SubScrollChanged:
			reg.Scrolls = append(reg.Scrolls, p.TermID)
		case protocol.SubOutputMatched:
			s.nextMatch++
			reg.Matchers = append(reg.Matchers, s.nextMatch)
			ctx.Send(p.pid, &pane.AddMatcher{
				ID: s.nextMatch, Bus: s.opts.Events, Sub: ctx.Sender(),
				IDs:    pane.Request{PaneID: p.ID, WorkspaceID: p.WS.ID, TabID: p.Tab.ID},
				Source: sub.Source, Lines: sub.Lines, Strip: sub.StripANSI, Match: *sub.Match,
			})
		default:
			kind, _ := protocol.SubscriptionKind(sub.Type)
			reg.Kinds = append(reg.Kinds, kind)
		}
	}
	ctx.Send(s.opts.Events, reg)
	initial = append(initial, prm.RemoteInitial...)
	return kit.Done(protocol.SubscriptionStarted{Initial: initial})
}

// regexpCheck compiles a pattern to report invalid_regex before registering.
func regexpCheck(pattern string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidRegex, "invalid regex: %v", err)
	}
	return re, nil
}
