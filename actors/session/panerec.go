package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The topology lives in the model package; these names keep the
// session's code short.
type (
	workspace = model.Workspace
	tab       = model.Tab
)

// paneRec is the session's record of one terminal.
type paneRec struct {
	*model.Pane
	pid   *actor.PID
	facts pane.Facts
	shown agents.Shown // what the agents actor shows of its agent
	// restored is the agent session a restored pane's agent reported
	// before the restart, for the agents actor's first placement.
	restored *protocol.AgentSessionInfo
	cols     int
	rows     int
	sizeRev  uint64 // grows with every new cols × rows
	// shownRev grows with every new shown; view is its records as last
	// published (reads.go).
	shownRev uint64
	view     *paneView
}

// rec is the session's record of a model pane (nil for nil).
func (s *Session) rec(p *model.Pane) *paneRec {
	if p == nil {
		return nil
	}
	return s.terms[p.TermID()]
}

// focusedPane is the focused pane on screen, or nil.
func (s *Session) focusedPane() *paneRec { return s.rec(s.m.FocusedPane()) }

func (s *Session) paneFocused(p *paneRec) bool { return s.m.PaneFocused(p.Pane) }

// tabPanes returns a tab's panes in layout order.
func (s *Session) tabPanes(t *tab) []*paneRec {
	panes := s.m.TabPanes(t)
	out := make([]*paneRec, 0, len(panes))
	for _, p := range panes {
		if r := s.terms[p.TermID()]; r != nil { // nil only while a restore starts panes
			out = append(out, r)
		}
	}
	return out
}
