package plugins

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// An event hook's context carries what its event says of the pane: the
// agent and its status for pane.agent_status_changed and
// pane.agent_detected, the pane's tab, cwd and agent for pane.created.
func TestHookContext_AgentAndStatus(t *testing.T) {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, tc := range []struct {
		data                        string
		pane, tab, cwd, agent, stat string
	}{
		{`{"type":"pane_agent_status_changed","pane_id":"w1:p2","workspace_id":"w1","agent_status":"blocked","agent":"claude"}`, "w1:p2", "", "", "claude", "blocked"},
		{`{"type":"pane_agent_detected","pane_id":"w1:p2","workspace_id":"w1","agent":"codex","released":true,"final_status":"done"}`, "w1:p2", "", "", "codex", "done"},
		{`{"type":"pane_created","pane":{"pane_id":"w1:p3","workspace_id":"w1","tab_id":"w1:t1","cwd":"/tmp/x","agent":"pi","agent_status":"idle"}}`, "w1:p3", "w1:t1", "/tmp/x", "pi", "idle"},
		{`{"type":"pane_created","pane":{"pane_id":"w1:p4","workspace_id":"w1","tab_id":"w1:t1","agent_status":"unknown"}}`, "w1:p4", "w1:t1", "", "", ""},
	} {
		c := hookContext(decodeEvent(t, tc.data))
		got := []string{str(c.FocusedPaneID), str(c.TabID), str(c.FocusedPaneCwd), str(c.FocusedPaneAgent), "", str(c.WorkspaceID)}
		if c.FocusedPaneStatus != nil {
			got[4] = string(*c.FocusedPaneStatus)
		}
		want := []string{tc.pane, tc.tab, tc.cwd, tc.agent, tc.stat, "w1"}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: context %q, want %q", tc.data, got, want)
			}
		}
		if c.InvocationSource == nil || *c.InvocationSource != "event" {
			t.Fatalf("%s: invocation_source %v", tc.data, c.InvocationSource)
		}
	}
	if c := hookContext(protocol.TabRenamedEvent{TabID: "w1:t2", WorkspaceID: "w1", Label: "logs"}); str(c.TabLabel) != "logs" || c.WorkspaceLabel != nil {
		t.Fatalf("tab.renamed: %+v", c)
	}
	if c := hookContext(protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "api"}); str(c.WorkspaceLabel) != "api" || c.TabLabel != nil {
		t.Fatalf("workspace.renamed: %+v", c)
	}
}

// decodeEvent is the typed value of an event's data written as JSON.
func decodeEvent(t *testing.T, data string) protocol.EventData {
	t.Helper()
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(data), &head); err != nil {
		t.Fatal(err)
	}
	d, err := protocol.DecodeEventData(head.Type, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The typed hook context is the one the JSON of every event kind gives
// (how it was read before events travelled typed), for this machine's
// events and another's: each event type is filled in whole, every field
// set, and both contexts compared.
func TestHookContext_SameAsFromJSON(t *testing.T) {
	for kind, proto := range protocol.EventTypes() {
		v := reflect.New(reflect.TypeOf(proto)).Elem()
		v.Set(reflect.ValueOf(proto))
		fill(v, kind, 0)
		d := v.Interface().(protocol.EventData)
		data, err := protocol.EncodeEventData(d)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(hookContextFromJSON(data))
		if got, _ := json.Marshal(hookContext(d)); string(got) != string(want) {
			t.Errorf("%s: typed context\n %s\nfrom JSON\n %s", kind, got, want)
		}
		body, _ := json.Marshal(d)
		typed, err := protocol.DecodeEventData(kind, body)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		remote := protocol.RemoteEvent{Kind: kind, Data: body, Event: typed}
		if got, _ := json.Marshal(hookContext(remote)); string(got) != string(want) {
			t.Errorf("%s from another machine: typed context\n %s\nfrom JSON\n %s", kind, got, want)
		}
	}
}

// fill sets every exported, encoded field of v: strings to a value naming
// the field, numbers to 1, bools true, one element per slice and map.
func fill(v reflect.Value, name string, depth int) {
	if depth > 6 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("v-" + name)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16:
		v.SetUint(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name, depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), name, depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, name+"-key", depth+1)
		fill(e, name, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.IsExported() && f.Tag.Get("json") != "-" {
				fill(v.Field(i), f.Name, depth+1)
			}
		}
	}
}

func hookContextFromJSON(data json.RawMessage) protocol.PluginInvocationContext {
	var ev struct {
		WorkspaceID string               `json:"workspace_id"`
		TabID       string               `json:"tab_id"`
		PaneID      string               `json:"pane_id"`
		Agent       string               `json:"agent"`
		AgentStatus protocol.AgentStatus `json:"agent_status"`
		FinalStatus protocol.AgentStatus `json:"final_status"`
		Label       string               `json:"label"`
		Tab         *protocol.TabInfo    `json:"tab"`
		Pane        *protocol.PaneInfo   `json:"pane"`
		Workspace   *struct {
			WorkspaceID string                          `json:"workspace_id"`
			Label       string                          `json:"label"`
			Worktree    *protocol.WorkspaceWorktreeInfo `json:"worktree"`
		} `json:"workspace"`
	}
	_ = protocol.Unmarshal(data, &ev)
	c := protocol.PluginInvocationContext{InvocationSource: protocol.Ptr("event")}
	set := func(dst **string, v string) {
		if v != "" {
			*dst = protocol.Ptr(v)
		}
	}
	status := func(v protocol.AgentStatus) {
		if v != "" {
			c.FocusedPaneStatus = protocol.Ptr(v)
		}
	}
	set(&c.WorkspaceID, ev.WorkspaceID)
	set(&c.TabID, ev.TabID)
	set(&c.FocusedPaneID, ev.PaneID)
	set(&c.FocusedPaneAgent, ev.Agent)
	status(ev.FinalStatus)
	status(ev.AgentStatus)
	if t := ev.Tab; t != nil {
		set(&c.WorkspaceID, t.WorkspaceID)
		set(&c.TabID, t.TabID)
		set(&c.TabLabel, t.Label)
	} else if ev.TabID != "" {
		set(&c.TabLabel, ev.Label) // tab.renamed
	}
	if p := ev.Pane; p != nil {
		set(&c.WorkspaceID, p.WorkspaceID)
		set(&c.TabID, p.TabID)
		set(&c.FocusedPaneID, p.PaneID)
		if p.Agent != nil {
			set(&c.FocusedPaneAgent, *p.Agent)
			status(p.AgentStatus)
		}
		if p.Cwd != nil {
			set(&c.FocusedPaneCwd, *p.Cwd)
		}
	}
	if w := ev.Workspace; w != nil {
		set(&c.WorkspaceID, w.WorkspaceID)
		set(&c.WorkspaceLabel, w.Label)
		c.Worktree = w.Worktree
		if w.Worktree != nil {
			set(&c.WorkspaceCwd, w.Worktree.CheckoutPath)
		}
	} else if ev.TabID == "" && ev.WorkspaceID != "" {
		set(&c.WorkspaceLabel, ev.Label) // workspace.renamed
	}
	return c
}
