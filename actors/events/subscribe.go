package events

import (
	"regexp"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// events.subscribe: the bus checks every entry first (one unknown pane or
// bad pattern rejects the whole request), resolves the panes from the
// read side, starts the output matchers on the panes, registers the
// subscriber and acknowledges it. The connection becomes a stream once it
// writes the acknowledgement.

// AddMatcher starts an output matcher on a pane for a subscription's
// pane.output_matched entry: the pane tells Bus (PublishVolatile with
// Matcher ID) each time its output starts to match, until Sub ends.
type AddMatcher struct {
	ID                         uint64
	Bus                        *actor.PID
	Sub                        *actor.PID
	PaneID, WorkspaceID, TabID string
	Source                     string
	Lines                      *uint32
	Strip                      *bool
	Match                      protocol.OutputMatch
}

func (b *Bus) eventsSubscribe(ctx actor.Context, call *kit.Call) { b.afterCaughtUp(ctx, call) }

// startSubscribe answers to an events.subscribe the read side has caught
// up with.
func (b *Bus) startSubscribe(ctx actor.Context, call *kit.Call, to *actor.PID) {
	prm := call.Params.(*protocol.EventsSubscribeParams)
	reg, initial, err := b.resolveSubscribe(ctx, prm, to)
	if err != nil {
		ctx.Send(to, kit.Fail(err))
		return
	}
	b.subscribe(ctx, reg)
	initial = append(initial, prm.RemoteInitial...)
	ctx.Send(to, kit.Done(protocol.SubscriptionStarted{Initial: initial}))
}

// resolveSubscribe checks prm's entries and makes the bus's registration
// of them, with the dedicated lines of the statuses that already match;
// the matchers start only once every entry passed.
func (b *Bus) resolveSubscribe(ctx actor.Context, prm *protocol.EventsSubscribeParams, to *actor.PID) (*Subscribe, [][]byte, error) {
	ids := make([]string, len(prm.Subscriptions))
	for i, sub := range prm.Subscriptions {
		if sub.PaneID == "" {
			continue
		}
		if m, _, ok := protocol.SplitQualified(sub.PaneID); ok {
			// Another machine's pane: the machines actor checked the
			// machine and named it by its id (actors/machines).
			if !prm.AllMachines() || sub.Type != protocol.SubAgentStatusChanged {
				return nil, nil, protocol.Errorf(protocol.CodeNotSupported, "%s of machine %q's pane %s: only pane.agent_status_changed, with \"machines\":\"all\"", sub.Type, m, sub.PaneID)
			}
			continue
		}
		ids[i] = sub.PaneID
	}
	panes, err := b.reads.ResolvePanes(ids)
	if err != nil {
		return nil, nil, err
	}
	for i, sub := range prm.Subscriptions {
		if ids[i] != "" && sub.Match != nil && sub.Match.Type == "regex" {
			if _, err := regexp.Compile(sub.Match.Value); err != nil {
				return nil, nil, protocol.Errorf(protocol.CodeInvalidRegex, "invalid regex: %v", err)
			}
		}
	}
	reg := &Subscribe{Sub: to, Since: prm.SinceSeq, Fleet: prm.AllMachines()}
	var initial [][]byte
	for i, sub := range prm.Subscriptions {
		p := &panes[i]
		switch sub.Type {
		case protocol.SubAgentStatusChanged:
			if ids[i] == "" && sub.PaneID != "" { // another machine's, checked above
				m, id, _ := protocol.SplitQualified(sub.PaneID)
				f := StatusFilter{Machine: m, PaneID: id}
				if sub.AgentStatus != nil {
					f.Status = *sub.AgentStatus
				}
				reg.Statuses = append(reg.Statuses, f)
				continue
			}
			f := StatusFilter{TermID: p.TermID}
			if sub.AgentStatus != nil {
				f.Status = *sub.AgentStatus
				if string(p.Status.AgentStatus) == f.Status {
					line, _ := protocol.EncodeDedicated(protocol.SubAgentStatusChanged, p.Status)
					initial = append(initial, line)
				}
			}
			reg.Statuses = append(reg.Statuses, f)
		case protocol.SubScrollChanged:
			reg.Scrolls = append(reg.Scrolls, p.TermID)
		case protocol.SubOutputMatched:
			if p.PID == nil {
				return nil, nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", sub.PaneID)
			}
			b.nextMatch++
			reg.Matchers = append(reg.Matchers, b.nextMatch)
		default:
			kind, _ := protocol.SubscriptionKind(sub.Type)
			reg.Kinds = append(reg.Kinds, kind)
		}
	}
	// Every entry passed: start the matchers.
	n := 0
	for i, sub := range prm.Subscriptions {
		if sub.Type != protocol.SubOutputMatched {
			continue
		}
		p := &panes[i]
		ctx.Send(p.PID, &AddMatcher{
			ID: reg.Matchers[n], Bus: ctx.Self(), Sub: to,
			PaneID: p.PaneID, WorkspaceID: p.WorkspaceID, TabID: p.TabID,
			Source: sub.Source, Lines: sub.Lines, Strip: sub.StripANSI, Match: *sub.Match,
		})
		n++
	}
	return reg, initial, nil
}
