package rules

import "github.com/herdr-go/herdr/protocol"

// Explain renders an evaluation as the wire explanation: the manifest, the
// winning rule and every rule with its evidence. Callers add what they
// know about the pane (its id, hook authority).
func Explain(agent string, m *Manifest, res Result) protocol.AgentExplanation {
	e := protocol.AgentExplanation{
		Agent:           agent,
		State:           string(res.State),
		ManifestSource:  optional(m.Source()),
		ManifestVersion: optional(m.Version()),
		VisibleIdle:     res.VisibleIdle,
		VisibleBlocker:  res.VisibleBlocker,
		VisibleWorking:  res.VisibleWorking,
		SkipStateUpdate: res.SkipStateUpdate,
		FallbackReason:  optional(res.FallbackReason),
		EvaluatedRules:  make([]protocol.ExplainedRule, 0, len(res.Evaluated)),
	}
	if res.Matched != nil {
		r := res.Matched
		e.MatchedRule = &protocol.ExplainedRule{ID: r.ID, Priority: r.Priority, Region: r.Region, State: string(r.State), Matched: true}
	}
	if res.SkipStateUpdate && res.Matched != nil {
		// Herdr's wording: the viewer rule that keeps the previous state.
		e.SkippedUpdateReason = optional("matched_rule:" + res.Matched.ID)
	}
	for _, r := range res.Evaluated {
		e.EvaluatedRules = append(e.EvaluatedRules, protocol.ExplainedRule{
			ID: r.ID, Priority: r.Priority, Region: r.Region, State: string(r.State), Matched: r.Matched,
			Evidence: &protocol.ExplainEvidence{RegionBytes: r.RegionBytes, RegionPreview: r.RegionPreview},
		})
	}
	return e
}

// optional turns "" into an absent (null) wire field.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
