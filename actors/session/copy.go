package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// The session's part in the pane's copy-mode and link methods
// (actors/pane/copy.go): it answers pane.scroll with the PaneInfo only it
// can build, and passes pane.link.activate's link on to the plugins actor
// with the context of the pane clicked.

// scrolledInfo answers pane.scroll once the pane scrolled: the facts it
// sent before this message carry the new position.
func (s *Session) scrolledInfo(m *pane.InfoAnswer) *kit.Reply {
	p := s.terms[m.TerminalID]
	if p == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane closed"))
	}
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

// linkFound hands a link to the plugins actor, which runs the first
// matching link handler or answers that none took it.
func (s *Session) linkFound(ctx actor.Context, m *pane.LinkFound) *kit.Reply {
	if s.opts.Plugins == nil {
		return kit.Done(protocol.PaneLinkActivated{URL: protocol.Ptr(m.URL)})
	}
	c := protocol.PluginInvocationContext{FocusedPaneID: protocol.Ptr(m.PaneID), ClickedURL: protocol.Ptr(m.URL),
		InvocationSource: protocol.Ptr("link_click"), CorrelationID: protocol.Ptr("link_click")}
	_ = s.fillContext(&c) // it names the pane only, which the pane just vouched for
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.Invoke{Call: m.Call, Context: c}, ctx.Sender())
	return nil
}
