package clients

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The sidebar state session.json keeps for every client
// (client.ui_state.*): the clients actor holds it, not the session (it is
// no topology), and hands each change to the keeper, which writes it into
// the next save. It starts as the restored file (or the handed-over
// state) held (Options.UI).

// ExportUI asks for the sidebar state, for a live handoff: the answer is
// a model.UIState that shares nothing with the actor's.
type ExportUI struct{}

// uiStateGet answers the sidebar state, for a client that attaches.
func (c *Clients) uiStateGet(_ actor.Context, _ *kit.Call) *kit.Reply {
	return kit.Done(c.uiState())
}

// uiStateSet changes the sidebar state: the fields given, all or none
// (a width outside [ui] sidebar_min_width..sidebar_max_width changes
// nothing), saved with the keeper's next debounced write of session.json.
func (c *Clients) uiStateSet(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.ClientUIStateSetParams)
	if w := prm.SidebarWidth; w != nil && (*w < c.cfg.UI.SidebarMinWidth || *w > c.cfg.UI.SidebarMaxWidth) {
		return kit.Fail(protocol.ParamError("sidebar_width", "must be within [ui] sidebar_min_width..sidebar_max_width (%d..%d)", c.cfg.UI.SidebarMinWidth, c.cfg.UI.SidebarMaxWidth))
	}
	ui := c.ui.Clone()
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
	c.ui = ui
	if c.keeper != nil { // before the answer: a save asked for after it has the change
		ctx.Send(c.keeper, &keeper.UI{State: ui.Clone()})
	}
	return kit.Done(c.uiState())
}

func (c *Clients) uiState() protocol.ClientUIState {
	ui := c.ui.Clone()
	out := protocol.ClientUIState{CollapsedSpaceKeys: ui.CollapsedSpaceKeys, SidebarSectionSplit: ui.SectionSplit, SidebarWidth: ui.Width}
	if out.CollapsedSpaceKeys == nil {
		out.CollapsedSpaceKeys = []string{}
	}
	return out
}
