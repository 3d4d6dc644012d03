package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/herdr-go/herdr/protocol"
)

// Response lines are judged by Herdr's protocol-20 reference schema where
// it knows the result's type (and for every error); a result it does not
// know (protocol 22's, this server's extensions) by the schema this
// binary prints (herdr api schema --json), so no response goes
// unvalidated. Without the reference, ours judges everything.

// schemaURL and ourSchemaURL are the base URLs the two documents are
// registered under.
const (
	schemaURL    = "https://herdr.invalid/herdr-api.schema.json"
	ourSchemaURL = "https://herdr.invalid/herdr-go-api.schema.json"
)

// schemas holds the compiled response schemas.
var schemas struct {
	once sync.Once
	err  error
	// missing is the reference's path when it is absent; success, failure
	// and refTypes are then nil.
	missing string
	success *jsonschema.Schema
	failure *jsonschema.Schema
	// refTypes are the reference's result schemas by type: the types it
	// knows.
	refTypes map[string]*jsonschema.Schema
	// ours are this binary's success and error response schemas, and its
	// result schemas by type.
	ours        *jsonschema.Schema
	oursFailure *jsonschema.Schema
	ourTypes    map[string]*jsonschema.Schema
}

// schemaPath is the reference schema in shared/spec beside the checkout:
// the nearest such directory up from the module root (a worktree sits a
// level deeper than the main checkout). Absent anywhere: the path beside
// the module root.
func schemaPath() string {
	const rel = "shared/spec/herdr-api.schema.json"
	for dir := filepath.Dir(moduleRoot); ; dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, filepath.FromSlash(rel)); fileExists(p) {
			return p
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(filepath.Dir(moduleRoot), filepath.FromSlash(rel))
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

var skipLogged sync.Once

func loadSchemas() {
	schemas.err = loadOurSchema()
	if schemas.err == nil {
		schemas.err = loadReferenceSchema()
	}
}

// loadOurSchema compiles the response schemas of `herdr api schema --json`
// of the binary under test.
func loadOurSchema() error {
	out, err := exec.Command(herdrBin, "api", "schema", "--json").Output()
	if err != nil {
		return fmt.Errorf("herdr api schema --json: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		return fmt.Errorf("herdr api schema --json: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(ourSchemaURL, doc); err != nil {
		return err
	}
	if schemas.ours, err = c.Compile(ourSchemaURL + "#/schemas/success_response"); err != nil {
		return fmt.Errorf("our success_response: %w", err)
	}
	if schemas.oursFailure, err = c.Compile(ourSchemaURL + "#/schemas/error_response"); err != nil {
		return fmt.Errorf("our error_response: %w", err)
	}
	schemas.ourTypes, err = compileResults(c, ourSchemaURL, out)
	return err
}

// compileResults compiles each result schema of a document registered
// under url, success_response.$defs.ResponseResult.oneOf[i], by its type:
// a line that fails is described against its own type's schema alone,
// not against every one of the oneOf.
func compileResults(c *jsonschema.Compiler, url string, raw []byte) (map[string]*jsonschema.Schema, error) {
	var head struct {
		Schemas struct {
			SuccessResponse struct {
				Defs struct {
					ResponseResult struct {
						OneOf []struct {
							Properties struct {
								Type struct {
									Const string `json:"const"`
								} `json:"type"`
							} `json:"properties"`
						} `json:"oneOf"`
					} `json:"ResponseResult"`
				} `json:"$defs"`
			} `json:"success_response"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	byType := map[string]*jsonschema.Schema{}
	for i, o := range head.Schemas.SuccessResponse.Defs.ResponseResult.OneOf {
		sch, err := c.Compile(fmt.Sprintf("%s#/schemas/success_response/$defs/ResponseResult/oneOf/%d", url, i))
		if err != nil {
			return nil, err
		}
		byType[o.Properties.Type.Const] = sch
	}
	if len(byType) == 0 {
		return nil, fmt.Errorf("%s: no result types under success_response.$defs.ResponseResult.oneOf", url)
	}
	return byType, nil
}

// loadReferenceSchema compiles Herdr's reference and notes the result
// types it knows.
func loadReferenceSchema() error {
	path := schemaPath()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		schemas.missing = path
		return nil
	}
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return err
	}
	if schemas.success, err = c.Compile(schemaURL + "#/schemas/success_response"); err != nil {
		return err
	}
	if schemas.failure, err = c.Compile(schemaURL + "#/schemas/error_response"); err != nil {
		return err
	}
	schemas.refTypes, err = compileResults(c, schemaURL, b)
	return err
}

// responseSchema picks the schema that judges a decoded response line,
// by whether it carries an "error" member and whether the reference
// knows its result's type; kind names it for messages, and byType are
// the result schemas of its document.
func responseSchema(v any) (sch *jsonschema.Schema, kind string, byType map[string]*jsonschema.Schema) {
	obj, _ := v.(map[string]any)
	_, isErr := obj["error"]
	typ := ""
	if res, ok := obj["result"].(map[string]any); ok {
		typ, _ = res["type"].(string)
	}
	switch {
	case schemas.missing != "" && isErr:
		return schemas.oursFailure, "error_response of herdr api schema", nil
	case schemas.missing != "":
		return schemas.ours, "success_response of herdr api schema", schemas.ourTypes
	case isErr:
		return schemas.failure, "error_response of the reference", nil
	case schemas.refTypes[typ] != nil:
		return schemas.success, "success_response of the reference", schemas.refTypes
	}
	return schemas.ours, "success_response of herdr api schema (the reference has no " + typ + ")", schemas.ourTypes
}

// ValidateResponseLine checks one response line against the schema that
// judges it (responseSchema).
func ValidateResponseLine(t testing.TB, line []byte) {
	t.Helper()
	schemas.once.Do(loadSchemas)
	if schemas.err != nil {
		t.Fatalf("load response schemas: %v", schemas.err)
	}
	if schemas.missing != "" {
		skipLogged.Do(func() {
			t.Logf("reference schema %s not found: responses validated by herdr api schema only", schemas.missing)
		})
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		t.Errorf("response line is not JSON (%v): %s", err, clip(line))
		return
	}
	sch, kind, byType := responseSchema(v)
	err = sch.Validate(v)
	if err == nil {
		return
	}
	// The details against the result's own type, when there is one.
	if res, ok := v.(map[string]any)["result"].(map[string]any); ok {
		typ, _ := res["type"].(string)
		if one := byType[typ]; one != nil {
			if detail := one.Validate(res); detail != nil {
				err = fmt.Errorf("result: %#v", detail)
			}
		}
	}
	t.Errorf("response does not match %s: %v\nline: %s", kind, err, clip(line))
}

// TestSchema_ValidatorRejectsBadLines makes sure the validator is live: a
// well-formed pong passes, a mistyped one and an error without code fail;
// protocol-22 results, which the reference does not know, are judged by
// our schema, which rejects a mistyped one.
func TestSchema_ValidatorRejectsBadLines(t *testing.T) {
	t.Parallel()
	schemas.once.Do(loadSchemas)
	if schemas.err != nil {
		t.Fatalf("load response schemas: %v", schemas.err)
	}
	if schemas.missing != "" {
		t.Skipf("reference schema %s not found", schemas.missing)
	}
	check := func(line string, valid bool, wantKind string) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(line)))
		if err != nil {
			t.Fatal(err)
		}
		sch, kind, _ := responseSchema(v)
		if got := sch.Validate(v) == nil; got != valid {
			t.Errorf("valid=%v, want %v for %s (judged by %s)", got, valid, line, kind)
		}
		if !bytes.HasPrefix([]byte(kind), []byte(wantKind)) {
			t.Errorf("%s judged by %s, want %s", line, kind, wantKind)
		}
	}
	const ref, ours = "success_response of the reference", "success_response of herdr api schema"
	check(`{"id":"1","result":{"type":"pong","version":"0.8.0","protocol":20}}`, true, ref)
	check(`{"id":"1","result":{"type":"pong","version":"0.8.0","protocol":"20"}}`, false, ref)
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
	b, err := os.ReadFile(schemaPath())
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
