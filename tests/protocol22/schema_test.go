package protocol22

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Response lines are judged by Herdr's protocol-20 reference schema where
// it knows the result's type (and for every error); a result it does not
// know (protocol 22's, this server's extensions) by the schema this
// binary prints (herdr api schema --json), so no response goes
// unvalidated. Without the reference, ours judges everything.

// TestSchema_ValidatorRejectsBadLines makes sure the validator is live: a
// well-formed pong passes, a mistyped one and an error without code fail;
// protocol-22 results, which the reference does not know, are judged by
// our schema, which rejects a mistyped one.
func TestSchema_ValidatorRejectsBadLines(t *testing.T) {
	t.Parallel()
	Schemas.Once.Do(LoadSchemas)
	if Schemas.Err != nil {
		t.Fatalf("load response schemas: %v", Schemas.Err)
	}
	if Schemas.Missing != "" {
		t.Skipf("reference schema %s not found", Schemas.Missing)
	}
	check := func(line string, valid bool, wantKind string) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(line)))
		if err != nil {
			t.Fatal(err)
		}
		sch, kind, _ := ResponseSchema(v)
		if got := sch.Validate(v) == nil; got != valid {
			t.Errorf("valid=%v, want %v for %s (judged by %s)", got, valid, line, kind)
		}
		if !bytes.HasPrefix([]byte(kind), []byte(wantKind)) {
			t.Errorf("%s judged by %s, want %s", line, kind, wantKind)
		}
	}
	const ref, ours = "success_response of the reference", "success_response of herdr api schema"
	check(`{"id":"1","result":{"type":"pong","version":"0.9.5","protocol":20}}`, true, ref)
	check(`{"id":"1","result":{"type":"pong","version":"0.9.5","protocol":"20"}}`, false, ref)
	check(`{"id":"1","result":{"type":"no_such_result"}}`, false, ours)
	check(`{"id":"","error":{"code":"invalid_request","message":"x"}}`, true, "error_response of the reference")
	check(`{"id":"","error":{"message":"x"}}`, false, "error_response of the reference")
	// Protocol 22's results.
	check(`{"id":"1","result":{"type":"pane_copy_search","pane_id":"w1:p1","content_revision":3,"matches":[{"start":{"row":2,"col":0},"end":{"row":2,"col":4}}],"total":1,"current":0}}`, true, ours)
	check(`{"id":"1","result":{"type":"pane_copy_search","pane_id":"w1:p1","content_revision":3,"matches":null,"total":0}}`, false, ours)
	check(`{"id":"1","result":{"type":"pane_copy_search","pane_id":"w1:p1","content_revision":3,"matches":[{"start":{"row":-2,"col":0},"end":{"row":2,"col":4}}],"total":1}}`, false, ours)
	check(`{"id":"1","result":{"type":"pane_selection","pane_id":"w1:p1","text":"hi"}}`, true, ours)
	check(`{"id":"1","result":{"type":"pane_selection","pane_id":"w1:p1"}}`, false, ours)
	check(`{"id":"1","result":{"type":"client_shell_surface_set","active":true,"projection_revision":1}}`, true, ours)
	check(`{"id":"1","result":{"type":"client_shell_surface_set","active":"yes","projection_revision":1}}`, false, ours)
	check(`{"id":"1","result":{"type":"integration_list","integrations":{}}}`, false, ours)
	// The raw document must be the protocol-20 schema.
	b, err := os.ReadFile(SchemaPath())
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Protocol int `json:"protocol"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Protocol != 20 {
		t.Errorf("schema protocol = %d (%v), want 20", head.Protocol, err)
	}
}

// ValidateIfResponse validates line when it is a response (an "id" with a
// "result" or an "error"): a watching connection reads its calls' answers
// among the event lines pushed to it.
func ValidateIfResponse(t testing.TB, line []byte) {
	t.Helper()
	var env map[string]json.RawMessage
	if json.Unmarshal(line, &env) != nil {
		return
	}
	_, hasID := env["id"]
	_, hasResult := env["result"]
	_, hasError := env["error"]
	if hasID && (hasResult || hasError) {
		ValidateResponseLine(t, line)
	}
}

// DoOn is c.Do with the answer validated: one request on an open
// connection, its answer read, validated and decoded.
func DoOn(t testing.TB, c *protocol.Client, id, method string, params any) protocol.Response {
	t.Helper()
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		t.Fatalf("encode params: %v", err)
	}
	line, _ := json.Marshal(protocol.Request{ID: id, Method: method, Params: p})
	if err := c.WriteLine(line); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return ReadResponse(t, c)
}
