package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeRouted_QualifiedTargetsAreForwardedUnqualified(t *testing.T) {
	p, err := DecodeRouted("pane.read", json.RawMessage(`{"pane_id":"build/w1:p2","source":"recent","lines":5}`))
	if err != nil {
		t.Fatal(err)
	}
	fwd, ok := p.(*Forwarded)
	if !ok || fwd.Machine != "build" {
		t.Fatalf("decoded %T %+v, want a call forwarded to build", p, p)
	}
	var raw map[string]any
	json.Unmarshal(fwd.Raw, &raw)
	if raw["pane_id"] != "w1:p2" || raw["source"] != "recent" {
		t.Fatalf("forwarded params %s", fwd.Raw)
	}
	if inner, ok := fwd.Inner.(*PaneReadParams); !ok || inner.PaneID != "w1:p2" {
		t.Fatalf("inner params %+v", fwd.Inner)
	}
	if !ToMachines(p) {
		t.Fatal("a forwarded call does not go to the machines actor")
	}

	// Nested targets (events.wait's match) are found too; the wait keeps its deadline.
	p, err = DecodeRouted("events.wait", json.RawMessage(`{"match_event":{"event":"pane_agent_status_changed","pane_id":"m-0a0b0c0d/w2:p1","agent_status":"done"},"timeout_ms":1500}`))
	if err != nil {
		t.Fatal(err)
	}
	if fwd := p.(*Forwarded); fwd.Machine != "m-0a0b0c0d" || !strings.Contains(string(fwd.Raw), `"pane_id":"w2:p1"`) {
		t.Fatalf("events.wait forwarded as %+v", fwd)
	}
	if waits, timeout := p.(*Forwarded).Waits(); !waits || timeout.Milliseconds() != 1500 {
		t.Fatalf("a forwarded wait's deadline: %v %v", waits, timeout)
	}
}

func TestDecodeRouted_RefusesWhatCannotBeForwarded(t *testing.T) {
	for _, c := range []struct{ method, params, code, inMsg string }{
		{"pane.swap", `{"source_pane_id":"a/w1:p1","target_pane_id":"b/w1:p2"}`, CodeInvalidParams, "one machine"},
		{"screen.subscribe", `{"pane_id":"build/w1:p1"}`, CodeNotSupported, "--machine"},
		{"pane.read", `{"pane_id":"build/w1:p1","source":"nowhere"}`, CodeInvalidParams, "source"},
		{"agent.list", `{"machines":"some"}`, CodeInvalidParams, "machines"},
	} {
		_, err := DecodeRouted(c.method, json.RawMessage(c.params))
		if e := AsError(err); err == nil || e.Code != c.code || !strings.Contains(e.Message, c.inMsg) {
			t.Errorf("%s %s: %v, want %s mentioning %q", c.method, c.params, err, c.code, c.inMsg)
		}
	}
	// Local ids, and strings with '/' under keys that name no entity, stay local.
	for _, raw := range []string{`{"pane_id":"w1:p1","text":"a/b"}`, `{"pane_id":"/w1:p1","text":"x"}`} {
		p, err := DecodeRouted("pane.send_text", json.RawMessage(raw))
		if err != nil || ToMachines(p) {
			t.Errorf("%s: %T %v, want a local call", raw, p, err)
		}
	}
	if p, _ := DecodeRouted("agent.list", json.RawMessage(`{"machines":"all"}`)); !ToMachines(p) {
		t.Error("a fleet-scoped agent.list does not go to the machines actor")
	}
	if p, _ := DecodeRouted("agent.list", json.RawMessage(`{}`)); ToMachines(p) {
		t.Error("a plain agent.list goes to the machines actor")
	}
}

func TestQualifyResult_PrefixesIDsAndNamesTheMachine(t *testing.T) {
	ref := MachineRef{ID: "m-01020304", Label: "build"}
	enc, err := QualifyResult([]byte(`{"type":"agent_list","agents":[{"name":"rev","pane_id":"w1:p2","workspace_id":"w1","tab_id":"w1:t1","terminal_id":"term_7","agent_status":"done","pane_ids":["w1:p2"]}],"count":1}`), ref)
	if err != nil {
		t.Fatal(err)
	}
	if enc.Type != "agent_list" {
		t.Fatalf("type %q", enc.Type)
	}
	var got struct {
		Agents []map[string]any `json:"agents"`
		Count  json.Number      `json:"count"`
	}
	if err := json.Unmarshal(enc.JSON, &got); err != nil || strings.Contains(string(enc.JSON), `"type"`) {
		t.Fatalf("%s: %v", enc.JSON, err)
	}
	a := got.Agents[0]
	for k, want := range map[string]string{"pane_id": "build/w1:p2", "workspace_id": "build/w1", "tab_id": "build/w1:t1", "terminal_id": "build/term_7", "name": "rev", "agent_status": "done"} {
		if a[k] != want {
			t.Errorf("%s = %v, want %s", k, a[k], want)
		}
	}
	if m, _ := a["machine"].(map[string]any); m["id"] != "m-01020304" || m["label"] != "build" {
		t.Errorf("machine = %v", a["machine"])
	}
	if ids, _ := a["pane_ids"].([]any); len(ids) != 1 || ids[0] != "build/w1:p2" {
		t.Errorf("pane_ids = %v", a["pane_ids"])
	}
	if got.Count != "1" {
		t.Errorf("count = %v: numbers must pass through", got.Count)
	}
	if _, err := QualifyResult([]byte(`[1,2]`), ref); err == nil {
		t.Error("a result that is not an object was taken")
	}
}
