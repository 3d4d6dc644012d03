package tests

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the base URL the reference schema document is registered under.
const schemaURL = "https://herdr.invalid/herdr-api.schema.json"

// schemas holds the compiled response schemas; nil when the reference file
// is missing (validation is then skipped, the tests still run).
var schemas struct {
	once    sync.Once
	err     error
	missing string
	success *jsonschema.Schema
	failure *jsonschema.Schema
}

// schemaPath is the reference schema beside the repository.
func schemaPath() string {
	return filepath.Join(moduleRoot, "..", "shared", "spec", "herdr-api.schema.json")
}

var skipLogged sync.Once

func loadSchemas() {
	path := schemaPath()
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			schemas.missing = path
			return
		}
		schemas.err = err
		return
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		schemas.err = err
		return
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		schemas.err = err
		return
	}
	if schemas.success, err = c.Compile(schemaURL + "#/schemas/success_response"); err != nil {
		schemas.err = err
		return
	}
	schemas.failure, schemas.err = c.Compile(schemaURL + "#/schemas/error_response")
}

// ValidateResponseLine checks one response line against
// schemas.success_response or schemas.error_response, by whether it
// carries an "error" member.
func ValidateResponseLine(t testing.TB, line []byte) {
	t.Helper()
	schemas.once.Do(loadSchemas)
	if schemas.err != nil {
		t.Fatalf("load reference schema %s: %v", schemaPath(), schemas.err)
	}
	if schemas.missing != "" {
		skipLogged.Do(func() { t.Logf("reference schema %s not found: response validation skipped", schemas.missing) })
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		t.Errorf("response line is not JSON (%v): %s", err, clip(line))
		return
	}
	sch, kind := schemas.success, "success_response"
	if obj, ok := v.(map[string]any); ok {
		if _, isErr := obj["error"]; isErr {
			sch, kind = schemas.failure, "error_response"
		}
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("response does not match schemas.%s: %v\nline: %s", kind, err, clip(line))
	}
}

// TestSchema_ValidatorRejectsBadLines makes sure the validator is live: a
// well-formed pong passes, a mistyped one and an error without code fail.
func TestSchema_ValidatorRejectsBadLines(t *testing.T) {
	t.Parallel()
	schemas.once.Do(loadSchemas)
	if schemas.err != nil {
		t.Fatalf("load reference schema: %v", schemas.err)
	}
	if schemas.missing != "" {
		t.Skipf("reference schema %s not found", schemas.missing)
	}
	check := func(sch *jsonschema.Schema, line string, valid bool) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(line)))
		if err != nil {
			t.Fatal(err)
		}
		if got := sch.Validate(v) == nil; got != valid {
			t.Errorf("valid=%v, want %v for %s", got, valid, line)
		}
	}
	check(schemas.success, `{"id":"1","result":{"type":"pong","version":"0.8.0","protocol":20}}`, true)
	check(schemas.success, `{"id":"1","result":{"type":"pong","version":"0.8.0","protocol":"20"}}`, false)
	check(schemas.success, `{"id":"1","result":{"type":"no_such_result"}}`, false)
	check(schemas.failure, `{"id":"","error":{"code":"invalid_request","message":"x"}}`, true)
	check(schemas.failure, `{"id":"","error":{"message":"x"}}`, false)
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
