package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
)

// The interactive client's side of the session: the tab area it sizes
// (client.resize, which the clients actor owns and hands on, kit.SetArea).

// setArea makes the client's pane area the tab area and lays every tab
// out again, resizing the terminals whose size changed. The panes are
// framed from the first one on (view.Records.Frame), also after the
// client detaches, like the size it set.
func (s *Session) setArea(ctx actor.Context, msg *kit.SetArea) *kit.Reply {
	framed := s.recs.Framed()
	if !framed { // the first client: restored agents resume
		defer ctx.Send(s.opts.Agents, &agents.ClientAttached{}) // once the panes have their real size
	}
	area := layout.Rect{W: msg.Cols, H: msg.Rows}
	if area == s.m.Area() && framed {
		return kit.OK()
	}
	s.tx.SetArea(area)
	s.recs.Frame()
	for _, w := range s.m.Workspaces() {
		for _, t := range w.Tabs() {
			s.tx.arrange(t) // its panes resized at commit
		}
	}
	return kit.OK()
}
