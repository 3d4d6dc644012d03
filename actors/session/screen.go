package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The interactive client's side of the session: the tab area it sizes
// (client.resize, which the clients actor owns: it keeps the client in
// front and its cell size, and hands the session the area, kit.SetArea),
// and the sidebar state session.json keeps for every client
// (client.ui_state.*).

var screenHandlers = map[string]handler{
	"client.ui_state.set": (*Session).uiStateSet,
}

// contentSize is the terminal size of a pane shown in r: the inside of the
// one-cell frame the interactive client draws around it, once a client has
// attached; all of r before.
func (s *Session) contentSize(r layout.Rect) (cols, rows int) {
	return max(r.W-2*s.inset, 1), max(r.H-2*s.inset, 1)
}

// setArea makes the client's pane area the tab area and lays every tab
// out again, resizing the terminals whose size changed. The panes are
// framed from the first one on (inset 1), also after the client detaches,
// like the size it set.
func (s *Session) setArea(ctx actor.Context, msg *kit.SetArea) *kit.Reply {
	if s.inset == 0 { // the first client: restored agents resume
		defer ctx.Send(s.opts.Agents, &agents.ClientAttached{}) // once the panes have their real size
	}
	area := layout.Rect{W: msg.Cols, H: msg.Rows}
	if area == s.m.Area() && s.inset == 1 {
		return kit.OK()
	}
	s.tx.SetArea(area)
	s.inset = 1
	for _, w := range s.m.Workspaces() {
		for _, t := range w.Tabs() {
			s.relayout(ctx, t)
		}
	}
	return kit.OK()
}

// uiStateSet changes the sidebar state: the fields given, all or none
// (a width outside [ui] sidebar_min_width..sidebar_max_width changes
// nothing), saved with the next debounced write of session.json.
func (s *Session) uiStateSet(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.ClientUIStateSetParams)
	if w := prm.SidebarWidth; w != nil && (*w < s.cfg.UI.SidebarMinWidth || *w > s.cfg.UI.SidebarMaxWidth) {
		return kit.Fail(protocol.ParamError("sidebar_width", "must be within [ui] sidebar_min_width..sidebar_max_width (%d..%d)", s.cfg.UI.SidebarMinWidth, s.cfg.UI.SidebarMaxWidth))
	}
	ui := s.m.UI()
	if k := prm.CollapsedSpaceKeys; k != nil {
		ui.CollapsedSpaceKeys = slices.Clone(*k)
	}
	if v := prm.SidebarSectionSplit; v != nil {
		split := *v
		ui.SectionSplit = &split
	}
	if v := prm.SidebarWidth; v != nil {
		w := *v
		ui.Width = &w
	}
	s.tx.SetUI(ui)
	s.changed(ctx)
	return kit.Done(s.uiState())
}

func (s *Session) uiState() protocol.ClientUIState {
	ui := s.m.UI()
	out := protocol.ClientUIState{CollapsedSpaceKeys: slices.Clone(ui.CollapsedSpaceKeys), SidebarSectionSplit: ui.SectionSplit, SidebarWidth: ui.Width}
	if out.CollapsedSpaceKeys == nil {
		out.CollapsedSpaceKeys = []string{}
	}
	return out
}
