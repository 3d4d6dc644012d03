package protocol

import "testing"

// Every method of the table is a read or a write for a policy's
// read_only: an entry the derivation cannot place (a wait, watch or
// stream without Access) fails here, naming it.
func TestMethods_EveryMethodIsClassified(t *testing.T) {
	for _, m := range Methods() {
		if _, ok := m.Reads(); !ok {
			t.Errorf("method %s (shape %s) is neither read nor write: give its entry Access: AccessRead or AccessWrite", m.Name, m.Shape)
		}
		if m.Pipeline && m.Access == AccessWrite {
			t.Errorf("method %s is Pipeline (changes nothing) and Access: AccessWrite", m.Name)
		}
	}
}

func TestMethods_Classification(t *testing.T) {
	want := map[string]bool{
		"pane.list": true, "pane.read": true, "agent.wait": true, "events.subscribe": true, "ping": true, "audit.list": true,
		"pane.send_text": false, "agent.prompt": false, "workspace.create": false, "web.url": false, "server.stop": false,
	}
	for name, reads := range want {
		m, ok := Lookup(name)
		if !ok {
			t.Fatalf("no method %s", name)
		}
		if got, _ := m.Reads(); got != reads {
			t.Errorf("%s reads = %v, want %v", name, got, reads)
		}
	}
	// The derivation without an Access: a wait is unclassified.
	if _, ok := (Method{Shape: ShapeWait}).Reads(); ok {
		t.Error("a wait without Access is classified")
	}
	if r, ok := (Method{Shape: ShapeAnswer}).Reads(); r || !ok {
		t.Error("a plain answer without Access or Pipeline is not a write")
	}
}

func TestAuditParams_BadInput(t *testing.T) {
	for method, raw := range map[string]string{
		"audit.list":        `{"limit":-1}`,
		"connection.policy": `{}`,
	} {
		if _, err := DecodeParams(method, []byte(raw)); err == nil || AsError(err).Code != CodeInvalidParams {
			t.Errorf("%s %s: %v", method, raw, err)
		}
	}
	for _, raw := range []string{`{"limit":10001}`, `{"since":"yesterday"}`} {
		if _, err := DecodeParams("audit.list", []byte(raw)); err == nil || AsError(err).Code != CodeInvalidParams {
			t.Errorf("audit.list %s: %v", raw, err)
		}
	}
	long := `{"client":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}`
	if _, err := DecodeParams("connection.policy", []byte(long)); err == nil {
		t.Error("a client name past 64 bytes was taken")
	}
	if p, err := DecodeParams("audit.list", []byte(`{"limit":5,"since":"2026-01-02T03:04:05Z"}`)); err != nil || p.(*AuditListParams).SinceTime().Year() != 2026 {
		t.Errorf("a good audit.list: %v", err)
	}
}
