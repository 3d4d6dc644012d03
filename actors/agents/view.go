package agents

import (
	"cmp"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// view is the filtered, sorted view of the agent list a client or plugin
// asked for (agent.view.set).
type view struct {
	source string
	label  *string
	filter *protocol.AgentViewFilter
	sort   []protocol.AgentViewSort
}

func (a *Agents) agentViewSet(ctx actor.Context, call *kit.Call, _ *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentViewSetParams)
	if id, ok := strings.CutPrefix(prm.Source, "plugin:"); ok && !a.enabled[id] {
		if a.linked[id] {
			return kit.Fail(protocol.Errorf(protocol.CodePluginDisabled, "plugin %s is disabled; enable it first", id))
		}
		return kit.Fail(protocol.Errorf(protocol.CodePluginNotFound, "plugin %s is not linked", id))
	}
	a.view = &view{source: prm.Source, label: prm.Label, filter: prm.Filter, sort: prm.Sort}
	a.viewChanged(ctx)
	return kit.Done(a.viewResult())
}

// pluginsChanged takes the linked and enabled plugins: a view set by a
// plugin that is now disabled or unlinked ends, as agent.view.clear ends
// it; then the call that made the change is answered.
func (a *Agents) pluginsChanged(ctx actor.Context, m *SetEnabledPlugins) {
	a.enabled, a.linked = m.IDs, m.Linked
	if v := a.view; v != nil {
		if id, ok := strings.CutPrefix(v.source, "plugin:"); ok && !a.enabled[id] {
			a.view = nil
			a.viewChanged(ctx)
		}
	}
	if m.To != nil {
		ctx.Send(m.To, m.Reply)
	}
}

func (a *Agents) agentViewClear(ctx actor.Context, call *kit.Call, _ *rec) *kit.Reply {
	prm := call.Params.(*protocol.AgentViewClearParams)
	if v := a.view; v != nil && (prm.Source == nil || *prm.Source == v.source) {
		a.view = nil
		a.viewChanged(ctx)
	}
	return kit.Done(a.viewResult())
}

// viewChanged tells the interactive client in front that the view was set
// or cleared: nothing else it watches changes then. Everything else a view
// depends on (statuses, tokens, focus) comes with a lifecycle event.
func (a *Agents) viewChanged(ctx actor.Context) {
	if a.opts.Clients != nil {
		ctx.Send(a.opts.Clients, &kit.Push{Event: protocol.AgentViewPushEvent, Data: a.viewResult()})
	}
}

// agentViewGet answers agent.view.get: the view and its agents' panes.
func (a *Agents) agentViewGet(_ actor.Context, _ *kit.Call, _ *rec) *kit.Reply {
	v := a.viewResult()
	res := protocol.AgentViewList{Active: v.Active, Label: v.Label, Source: v.Source, PaneIDs: []string{}}
	res.Sorted = a.view != nil && len(a.view.sort) > 0
	for _, r := range a.viewRecs() {
		res.PaneIDs = append(res.PaneIDs, r.PaneID)
	}
	return kit.Done(res)
}

func (a *Agents) viewResult() protocol.AgentViewResult {
	v := a.view
	if v == nil {
		return protocol.AgentViewResult{Active: false}
	}
	return protocol.AgentViewResult{Active: true, Label: v.label, Source: protocol.Ptr(v.source)}
}

// viewRecs is the records of the agents the active view shows, in its order.
func (a *Agents) viewRecs() []*rec {
	var rows []*rec
	for _, r := range a.order {
		if hostsAgent(r) {
			rows = append(rows, r)
		}
	}
	if v := a.view; v != nil && v.filter != nil {
		rows = slices.DeleteFunc(rows, func(r *rec) bool { return !a.viewMatch(v.filter, r) })
	}
	if v := a.view; v != nil && len(v.sort) > 0 {
		slices.SortStableFunc(rows, func(x, y *rec) int {
			for _, k := range v.sort {
				c := viewCompare(k.Field, x, y)
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
	return rows
}

// tokenOf is one of a record's metadata tokens.
func tokenOf(r *rec, token string) (string, bool) {
	if r.hook == nil {
		return "", false
	}
	return r.hook.tokens.Value(token)
}

// viewField reads a field of a record; ok is false when it has no value.
func viewField(f protocol.AgentViewField, r *rec) (any, bool) {
	if f.Name == "" {
		return tokenOf(r, f.Token)
	}
	switch f.Name {
	case "status":
		return string(r.status), true
	case "workspace_id":
		return r.WorkspaceID, true
	case "tab_id":
		return r.TabID, true
	case "pane_id":
		return r.PaneID, true
	case "agent":
		ag := effAgent(r)
		return ag, ag != ""
	case "seen":
		return r.seen, true
	case "state_change_seq":
		return r.stateSeq, true
	}
	return nil, false
}

func (a *Agents) viewValue(v protocol.AgentViewValue) any {
	val, isContext, _ := v.Decode()
	if !isContext {
		return val
	}
	switch val {
	case "current_workspace_id":
		if a.focusedWS != "" {
			return a.focusedWS
		}
	case "current_tab_id":
		if a.focusedTab != "" {
			return a.focusedTab
		}
	}
	return nil
}

func (a *Agents) viewMatch(f *protocol.AgentViewFilter, r *rec) bool {
	switch f.Op {
	case "all":
		for i := range f.Filters {
			if !a.viewMatch(&f.Filters[i], r) {
				return false
			}
		}
		return true
	case "any":
		for i := range f.Filters {
			if a.viewMatch(&f.Filters[i], r) {
				return true
			}
		}
		return false
	case "not":
		return !a.viewMatch(f.Filter, r)
	case "exists":
		_, ok := viewField(*f.Field, r)
		return ok
	case "eq":
		got, ok := viewField(*f.Field, r)
		return ok && got == a.viewValue(*f.Value)
	case "in":
		got, ok := viewField(*f.Field, r)
		if !ok {
			return false
		}
		for _, v := range f.Values {
			if got == a.viewValue(v) {
				return true
			}
		}
	}
	return false
}

func viewCompare(f protocol.AgentViewField, x, y *rec) int {
	if f.Name == "" {
		vx, okx := tokenOf(x, f.Token)
		vy, oky := tokenOf(y, f.Token)
		if okx != oky { // rows without the token go last
			if okx {
				return -1
			}
			return 1
		}
		return strings.Compare(vx, vy)
	}
	switch f.Name {
	case "workspace_order":
		return cmp.Compare(x.ws, y.ws)
	case "tab_order":
		return cmp.Or(cmp.Compare(x.ws, y.ws), cmp.Compare(x.tab, y.tab))
	case "pane_order":
		return cmp.Or(cmp.Compare(x.ws, y.ws), cmp.Compare(x.pos, y.pos))
	case "attention": // most urgent first
		return cmp.Compare(Rank[y.status], Rank[x.status])
	case "status":
		return strings.Compare(string(x.status), string(y.status))
	case "agent":
		return strings.Compare(effAgent(x), effAgent(y))
	case "seen":
		return cmp.Compare(boolInt(x.seen), boolInt(y.seen))
	case "state_change_seq":
		return cmp.Compare(x.stateSeq, y.stateSeq)
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
