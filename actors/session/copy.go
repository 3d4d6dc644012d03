package session

import (
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// The session's part in the pane's copy-mode methods (actors/pane/copy.go):
// it answers pane.scroll with the PaneInfo only it can build.
// pane.link.activate's link goes from the pane to the commands actor.

// scrolledInfo answers pane.scroll once the pane scrolled: the facts it
// sent before this message carry the new position.
func (s *Session) scrolledInfo(m *pane.InfoAnswer) *kit.Reply {
	p := s.terms[m.TerminalID]
	if p == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed"))
	}
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}
