package tui

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// The agent panel: the sidebar's list of agents. Which agents it lists and
// in what order comes from the server's agent view (agent.view.get, asked
// with every snapshot and again when the server says the view changed);
// without a view, or when the view does not sort, the order is the
// client's ui.agent_panel_sort. Each agent is drawn as the rows of tokens
// of [ui.sidebar.agents].

// attentionRank orders statuses by how much they need the person:
// blocked, then done (finished, not seen yet), working, idle, unknown.
func attentionRank(s protocol.AgentStatus) int {
	switch s {
	case protocol.StatusBlocked:
		return 4
	case protocol.StatusDone:
		return 3
	case protocol.StatusWorking:
		return 2
	case protocol.StatusIdle:
		return 1
	}
	return 0
}

// panelAgents are the agents the panel lists, in order.
func (sb *sidebar) panelAgents() []protocol.AgentInfo {
	agents := sb.h.snapshot().Agents
	if sb.h.agentView().Active {
		byPane := make(map[string]protocol.AgentInfo, len(agents))
		for _, a := range agents {
			byPane[a.PaneID] = a
		}
		agents = make([]protocol.AgentInfo, 0, len(sb.h.agentView().PaneIDs))
		for _, id := range sb.h.agentView().PaneIDs {
			if a, ok := byPane[id]; ok { // one that is gone waits for the next answer
				agents = append(agents, a)
			}
		}
		if sb.h.agentView().Sorted {
			return agents // the view's own sort replaces the policy
		}
	}
	if sb.h.uiConfig().AgentPanelSort == "priority" {
		agents = slices.Clone(agents)
		slices.SortStableFunc(agents, func(x, y protocol.AgentInfo) int {
			return cmp.Or(cmp.Compare(attentionRank(y.AgentStatus), attentionRank(x.AgentStatus)),
				cmp.Compare(y.StateChangeSeq, x.StateChangeSeq))
		})
	}
	return agents
}

// seg is one drawn token of a sidebar row.
type seg struct {
	text string
	st   cellStyle
	icon bool // the state icon: no separator after it
	git  bool // ahead/behind: no separator before it
}

// stateText is an agent's state as words: its reported label for the
// state, else the state's name.
func stateText(s protocol.AgentStatus, labels map[string]string) string {
	key := string(s)
	if key == "" {
		key = string(protocol.StatusUnknown)
	}
	if l := labels[key]; l != "" {
		return l
	}
	if s == protocol.StatusUnknown || s == "" {
		return "idle"
	}
	return string(s)
}

// agentLabel is how the panel names an agent: its name, else the name a
// hook chose to show, else the agent.
func agentLabel(a protocol.AgentInfo) string {
	for _, s := range []*string{a.Name, a.DisplayAgent, a.Agent} {
		if s != nil && *s != "" {
			return *s
		}
	}
	return a.PaneID
}

// agentRows resolves the [ui.sidebar.agents] rows of one agent; a token
// without a value is left out, and a row left empty is not drawn.
func (sb *sidebar) agentRows(a protocol.AgentInfo, multiTab bool) [][]seg {
	rows := sb.h.uiConfig().Sidebar.Agents.Rows
	if a.Agent != nil {
		if by, ok := sb.h.uiConfig().Sidebar.Agents.RowsByAgent[*a.Agent]; ok {
			rows = by
		}
	}
	var out [][]seg
	for _, row := range rows {
		var line []seg
		for _, tok := range row {
			s, ok := sb.agentToken(tok, a, multiTab)
			if !ok {
				continue
			}
			line = append(line, styled(s, tok))
		}
		if len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

func (sb *sidebar) agentToken(tok config.SidebarToken, a protocol.AgentInfo, multiTab bool) (seg, bool) {
	str := func(p *string) (seg, bool) {
		if p == nil || *p == "" {
			return seg{}, false
		}
		return seg{text: *p}, true
	}
	switch tok.Token {
	case "state_icon":
		icon, st := sb.h.th().statusIcon(a.AgentStatus)
		return seg{text: icon, st: st, icon: true}, true
	case "state_text":
		_, st := sb.h.th().statusIcon(a.AgentStatus)
		return seg{text: stateText(a.AgentStatus, a.StateLabels), st: st}, true
	case "workspace":
		return seg{text: sb.h.workspaceLabel(a.WorkspaceID), st: sb.h.th().name}, true
	case "tab":
		if !multiTab {
			return seg{}, false
		}
		return seg{text: sb.h.tabLabel(a.TabID), st: sb.h.th().name}, true
	case "pane":
		if p, ok := sb.h.paneInfo(a.PaneID); ok {
			return str(p.Label)
		}
		return seg{}, false
	case "agent":
		return seg{text: agentLabel(a)}, true
	case "terminal_title":
		return str(a.TerminalTitle)
	case "terminal_title_stripped":
		return str(a.TerminalTitleStripped)
	case "queue":
		return sb.queueToken(a) // inbox.go
	}
	if name, ok := cutDollar(tok.Token); ok {
		if v := a.Tokens[name]; v != "" {
			return seg{text: v, st: sb.h.th().dim}, true
		}
	}
	return seg{}, false
}

func cutDollar(s string) (string, bool) {
	if len(s) > 1 && s[0] == '$' {
		return s[1:], true
	}
	return "", false
}

// styled applies a token's own style ({token, fg, bold, dim}).
func styled(s seg, tok config.SidebarToken) seg {
	if c, ok := hexColor(tok.FG); ok {
		s.st.fg = c
	}
	if tok.Bold != nil {
		s.st.attrs = setBit(s.st.attrs, protocol.ScreenBold, *tok.Bold)
	}
	if tok.Dim != nil {
		s.st.attrs = setBit(s.st.attrs, protocol.ScreenDim, *tok.Dim)
	}
	return s
}

func setBit(attrs, bit int, on bool) int {
	if on {
		return attrs | bit
	}
	return attrs &^ bit
}

// hexColor reads "#rgb" or "#rrggbb".
func hexColor(s string) (color, bool) {
	if len(s) == 4 && s[0] == '#' {
		s = "#" + string([]byte{s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	if len(s) != 7 || s[0] != '#' {
		return 0, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return 0, false
	}
	return colorRGB | color(v), true
}

// drawSegs draws a row of tokens from column x, at most w columns, joined
// by " · " (a single space after the state icon and before git marks).
func drawSegs(c *canvas, x, y, w int, segs []seg, base cellStyle) {
	end := x + w
	for i, s := range segs {
		if i > 0 {
			sep := " · "
			if segs[i-1].icon || s.git {
				sep = " "
			}
			x += c.text(x, y, sep, end-x, base)
		}
		st := s.st
		if st.bg == 0 {
			st.bg = base.bg
		}
		if st.fg == 0 {
			st.fg = base.fg
		}
		st.attrs |= base.attrs
		x += c.text(x, y, s.text, end-x, st)
		if x >= end {
			return
		}
	}
}
