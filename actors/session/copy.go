package session

import (
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// The session's part in the pane's copy-mode methods (actors/pane/copy.go):
// it answers pane.scroll with the pane's record from its newest View.
// pane.link.activate's link goes from the pane to the commands actor.

// scrolledInfo answers pane.scroll once the pane scrolled: the facts it
// sent before this message carry the new position, and the View published
// after them shows it.
func (s *Session) scrolledInfo(m *pane.InfoAnswer) *kit.Reply {
	rec := s.reads.Newest().Term(m.TerminalID)
	if rec == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed"))
	}
	return kit.Done(protocol.PaneInfoResult{Pane: rec.Info})
}
