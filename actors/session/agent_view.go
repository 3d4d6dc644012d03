package session

import (
	"cmp"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// agentView is the filtered, sorted view of the agent list a client or
// plugin asked for (agent.view.set); the sidebar shows viewAgents.
type agentView struct {
	source string
	label  *string
	filter *protocol.AgentViewFilter
	sort   []protocol.AgentViewSort
}

func (s *Session) agentViewSet(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentViewSetParams)
	if id, ok := strings.CutPrefix(prm.Source, "plugin:"); ok && !s.enabledPlugins[id] {
		return api.Fail(protocol.Errorf(protocol.CodePluginNotFound, "plugin %s is not linked and enabled", id))
	}
	s.ag.view = &agentView{source: prm.Source, label: prm.Label, filter: prm.Filter, sort: prm.Sort}
	s.viewAgents() // evaluate it once now, so a view that cannot run fails here
	return api.Done(s.viewResult())
}

func (s *Session) agentViewClear(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.AgentViewClearParams)
	if v := s.ag.view; v != nil && (prm.Source == nil || *prm.Source == v.source) {
		s.ag.view = nil
	}
	return api.Done(s.viewResult())
}

func (s *Session) viewResult() protocol.AgentViewResult {
	v := s.ag.view
	if v == nil {
		return protocol.AgentViewResult{Active: false}
	}
	return protocol.AgentViewResult{Active: true, Label: v.label, Source: protocol.Ptr(v.source)}
}

// AgentViewQuery asks the session for the agent list through the active
// view (the sidebar's list); it responds with an *AgentViewList.
type AgentViewQuery struct{}

// AgentViewList is the agent list through the active view.
type AgentViewList struct {
	View   protocol.AgentViewResult
	Agents []protocol.AgentInfo
}

// viewRow is one agent with what the view's fields and sort keys read.
type viewRow struct {
	info          protocol.AgentInfo
	p             *paneRec
	ws, tab, pane int // positions
}

// viewAgents is the agent list through the active view (all agents, in
// order, without one).
func (s *Session) viewAgents() []protocol.AgentInfo {
	var rows []viewRow
	for wi, w := range s.m.Workspaces {
		pos := 0
		for ti, t := range w.Tabs {
			for _, p := range s.tabPanes(t) {
				pos++
				if hostsAgent(p) {
					rows = append(rows, viewRow{info: s.agentInfo(p), p: p, ws: wi, tab: ti, pane: pos})
				}
			}
		}
	}
	v := s.ag.view
	if v != nil && v.filter != nil {
		rows = slices.DeleteFunc(rows, func(r viewRow) bool { return !s.viewMatch(v.filter, r) })
	}
	if v != nil && len(v.sort) > 0 {
		slices.SortStableFunc(rows, func(a, b viewRow) int {
			for _, k := range v.sort {
				c := s.viewCompare(k.Field, a, b)
				if k.Order == "desc" {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return 0
		})
	}
	out := make([]protocol.AgentInfo, len(rows))
	for i, r := range rows {
		out[i] = r.info
	}
	return out
}

// viewField reads a field of a row; ok is false when it has no value.
func (s *Session) viewField(f protocol.AgentViewField, r viewRow) (any, bool) {
	if f.Name == "" {
		v, ok := r.info.Tokens[f.Token]
		return v, ok
	}
	switch f.Name {
	case "status":
		return string(r.info.AgentStatus), true
	case "workspace_id":
		return r.info.WorkspaceID, true
	case "tab_id":
		return r.info.TabID, true
	case "pane_id":
		return r.info.PaneID, true
	case "agent":
		if r.info.Agent == nil {
			return "", false
		}
		return *r.info.Agent, true
	case "seen":
		return r.p.seen, true
	case "state_change_seq":
		return r.info.StateChangeSeq, true
	}
	return nil, false
}

func (s *Session) viewValue(v protocol.AgentViewValue) any {
	val, isContext, _ := v.Decode()
	if !isContext {
		return val
	}
	switch val {
	case "current_workspace_id":
		if s.m.Focused != nil {
			return s.m.Focused.ID
		}
	case "current_tab_id":
		if s.m.Focused != nil && s.m.Focused.Active != nil {
			return s.m.Focused.Active.ID
		}
	}
	return nil
}

func (s *Session) viewMatch(f *protocol.AgentViewFilter, r viewRow) bool {
	switch f.Op {
	case "all":
		for i := range f.Filters {
			if !s.viewMatch(&f.Filters[i], r) {
				return false
			}
		}
		return true
	case "any":
		for i := range f.Filters {
			if s.viewMatch(&f.Filters[i], r) {
				return true
			}
		}
		return false
	case "not":
		return !s.viewMatch(f.Filter, r)
	case "exists":
		_, ok := s.viewField(*f.Field, r)
		return ok
	case "eq":
		got, ok := s.viewField(*f.Field, r)
		return ok && got == s.viewValue(*f.Value)
	case "in":
		got, ok := s.viewField(*f.Field, r)
		if !ok {
			return false
		}
		for _, v := range f.Values {
			if got == s.viewValue(v) {
				return true
			}
		}
	}
	return false
}

func (s *Session) viewCompare(f protocol.AgentViewField, a, b viewRow) int {
	if f.Name == "" {
		va, oka := a.info.Tokens[f.Token]
		vb, okb := b.info.Tokens[f.Token]
		if oka != okb { // rows without the token go last
			if oka {
				return -1
			}
			return 1
		}
		return strings.Compare(va, vb)
	}
	switch f.Name {
	case "workspace_order":
		return cmp.Compare(a.ws, b.ws)
	case "tab_order":
		return cmp.Or(cmp.Compare(a.ws, b.ws), cmp.Compare(a.tab, b.tab))
	case "pane_order":
		return cmp.Or(cmp.Compare(a.ws, b.ws), cmp.Compare(a.pane, b.pane))
	case "attention": // most urgent first
		return cmp.Compare(rank[b.info.AgentStatus], rank[a.info.AgentStatus])
	case "status":
		return strings.Compare(string(a.info.AgentStatus), string(b.info.AgentStatus))
	case "agent":
		return strings.Compare(*cmp.Or(a.info.Agent, protocol.Ptr("")), *cmp.Or(b.info.Agent, protocol.Ptr("")))
	case "seen":
		return cmp.Compare(boolInt(a.p.seen), boolInt(b.p.seen))
	case "state_change_seq":
		return cmp.Compare(a.info.StateChangeSeq, b.info.StateChangeSeq)
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
