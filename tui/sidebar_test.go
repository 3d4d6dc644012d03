package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeSideHost is the client as the sidebar sees it: a session, [ui], a
// window size, and what the sidebar sent and kept.
type fakeSideHost struct {
	snap   protocol.SessionSnapshot
	view   protocol.AgentViewList
	ui     config.UI
	theme  *theme
	w, h   int
	full   bool
	fl     fleetView
	sent   []string
	kept   []int
	claims int
	menus  []string
}

func (f *fakeSideHost) snapshot() *protocol.SessionSnapshot              { return &f.snap }
func (f *fakeSideHost) agentView() *protocol.AgentViewList               { return &f.view }
func (f *fakeSideHost) uiConfig() *config.UI                             { return &f.ui }
func (f *fakeSideHost) th() *theme                                       { return f.theme }
func (f *fakeSideHost) width() int                                       { return f.w }
func (f *fakeSideHost) height() int                                      { return f.h }
func (f *fakeSideHost) expanded() bool                                   { return f.full }
func (f *fakeSideHost) gitMarks() map[string]protocol.WorkspaceGitStatus { return nil }
func (f *fakeSideHost) fleet() *fleetView                                { return &f.fl }
func (f *fakeSideHost) tabLabel(id string) string                        { return id }
func (f *fakeSideHost) workspaceLabel(id string) string                  { return id }
func (f *fakeSideHost) paneInfo(string) (protocol.PaneInfo, bool)        { return protocol.PaneInfo{}, false }
func (f *fakeSideHost) claimSize(bool)                                   { f.claims++ }
func (f *fakeSideHost) keepWidth(w int)                                  { f.kept = append(f.kept, w) }
func (f *fakeSideHost) openWorkspaceMenu(_ mouseMsg, id string) {
	f.menus = append(f.menus, "workspace "+id)
}
func (f *fakeSideHost) openGlobalMenu(mouseMsg) { f.menus = append(f.menus, "global") }
func (f *fakeSideHost) send(method string, params any) {
	b, _ := json.Marshal(params)
	f.sent = append(f.sent, method+" "+string(b))
}

// The sidebar on its own: it lists the spaces and the agents under their
// headers and draws them; the rail has an icon a workspace and agent.
func TestSidebar_OnItsOwn(t *testing.T) {
	cfg := config.Default()
	h := &fakeSideHost{snap: twoPanes(), ui: cfg.UI, theme: newTheme(cfg, true), w: 84, h: 21, full: true}
	sb := &sidebar{h: h}
	items := sb.sideItems()
	var texts []string
	for _, it := range items {
		texts = append(texts, it.kind+":"+it.id)
	}
	got := strings.Join(texts, ",")
	if !strings.HasPrefix(got, "header:,workspace:w1") || !strings.Contains(got, "workspace:w2") || !strings.Contains(got, "header:,agent:w1:p1") {
		t.Fatalf("items %s", got)
	}
	c := newCanvas(84, 21)
	sb.drawSidebar(c, geometry{sidebarW: 24, w: 84, h: 21})
	lines := strings.Split(ansi.Strip(c.String()), "\n")
	if !strings.Contains(lines[0], "spaces") || !strings.Contains(lines[sb.dividerRow()], "agents") {
		t.Fatalf("sidebar drawn:\n%s", strings.Join(lines, "\n"))
	}

	h.full = false
	if rail := sb.sideItems(); len(rail) != 3 || rail[0].kind != "workspace" || rail[2].kind != "agent" {
		t.Fatalf("rail %+v", rail)
	}
	h.full = true

}

// The sidebar on its own, driven by the mouse: a drag of the divider
// moves the split and tells the session on release only; a drag of the
// border keeps the width; clicks and right presses on rows and headers;
// folding a group tells the session the folded keys.
func TestSidebar_DragsClicksAndFolds(t *testing.T) {
	cfg := config.Default()
	h := &fakeSideHost{snap: twoPanes(), ui: cfg.UI, theme: newTheme(cfg, true), w: 84, h: 21, full: true}
	sb := &sidebar{h: h}
	g := geometry{sidebarW: 24}
	div := sb.dividerRow()
	press := mouseMsg{X: 3, Y: div, Action: mousePress, Button: tea.MouseLeft}
	if !sb.grabSidebar(press, g) || sb.drag == nil {
		t.Fatal("the divider was not grabbed")
	}
	sb.dragSidebar(mouseMsg{X: 3, Y: 7, Action: mouseMotion})
	if len(h.sent) != 0 || sb.sectionSplit() != 7.0/21 {
		t.Fatalf("motion: split %v sent %q", sb.sectionSplit(), h.sent)
	}
	sb.dragSidebar(mouseMsg{X: 3, Y: 7, Action: mouseRelease})
	if sb.drag != nil || len(h.sent) != 1 || !strings.HasPrefix(h.sent[0], `client.ui_state.set {"sidebar_section_split":0.33`) {
		t.Fatalf("release: %q", h.sent)
	}
	sb.grabSidebar(mouseMsg{X: 23, Y: 2, Action: mousePress, Button: tea.MouseLeft}, g)
	sb.dragSidebar(mouseMsg{X: 29, Y: 2, Action: mouseRelease})
	if h.ui.SidebarWidth != 30 || len(h.kept) != 1 || h.kept[0] != 30 || h.claims == 0 {
		t.Fatalf("border drag: width %d kept %v claims %d", h.ui.SidebarWidth, h.kept, h.claims)
	}

	// Clicks: a workspace row focuses it, a right press on it or on a
	// header opens their menus.
	var wsRow sideItem
	for _, it := range sb.sideItems() {
		if it.kind == "workspace" && it.id == "w2" {
			wsRow = it
		}
	}
	sb.mouse(mouseMsg{X: 6, Y: wsRow.y, Action: mousePress, Button: tea.MouseLeft}, g, false)
	if last := h.sent[len(h.sent)-1]; last != `workspace.focus {"workspace_id":"w2"}` {
		t.Fatalf("click on w2: %q", last)
	}
	right := mouseMsg{X: 6, Y: wsRow.y, Action: mousePress, Button: tea.MouseRight}
	sb.mouse(right, g, true)
	right.Y = 0
	sb.mouse(right, g, true)
	if strings.Join(h.menus, ",") != "workspace w2,global" {
		t.Fatalf("menus %q", h.menus)
	}

	sb.toggleGroup("/repo")
	if !sb.collapsed["/repo"] || h.sent[len(h.sent)-1] != `client.ui_state.set {"collapsed_space_keys":["/repo"]}` {
		t.Fatalf("fold: %v %q", sb.collapsed, h.sent)
	}
	sb.toggleGroup("/repo")
	if sb.collapsed["/repo"] || h.sent[len(h.sent)-1] != `client.ui_state.set {"collapsed_space_keys":[]}` {
		t.Fatalf("unfold: %v %q", sb.collapsed, h.sent)
	}
}
