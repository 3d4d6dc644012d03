package harness

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
)

// schemaURL and ourSchemaURL are the base URLs the two documents are
// registered under.
const (
	schemaURL    = "https://herdr.invalid/herdr-api.schema.json"
	ourSchemaURL = "https://herdr.invalid/herdr-go-api.schema.json"
)

// Schemas holds the compiled response schemas.
var Schemas struct {
	Once sync.Once
	Err  error
	// Missing is the reference's path when it is absent; success, failure
	// and refTypes are then nil.
	Missing string
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

// SchemaPath is the reference schema in shared/spec beside the checkout:
// the nearest such directory up from the module root (a worktree sits a
// level deeper than the main checkout). Absent anywhere: the path beside
// the module root.
func SchemaPath() string {
	const rel = "shared/spec/herdr-api.schema.json"
	for dir := filepath.Dir(ModuleRoot); ; dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, filepath.FromSlash(rel)); fileExists(p) {
			return p
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(filepath.Dir(ModuleRoot), filepath.FromSlash(rel))
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

var skipLogged sync.Once

func LoadSchemas() {
	Schemas.Err = loadOurSchema()
	if Schemas.Err == nil {
		Schemas.Err = loadReferenceSchema()
	}
}

// loadOurSchema compiles the response schemas of `herdr api schema --json`
// of the binary under test.
func loadOurSchema() error {
	out, err := exec.Command(HerdrBin, "api", "schema", "--json").Output()
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
	if Schemas.ours, err = c.Compile(ourSchemaURL + "#/schemas/success_response"); err != nil {
		return fmt.Errorf("our success_response: %w", err)
	}
	if Schemas.oursFailure, err = c.Compile(ourSchemaURL + "#/schemas/error_response"); err != nil {
		return fmt.Errorf("our error_response: %w", err)
	}
	Schemas.ourTypes, err = compileResults(c, ourSchemaURL, out)
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
	path := SchemaPath()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		Schemas.Missing = path
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
	if Schemas.success, err = c.Compile(schemaURL + "#/schemas/success_response"); err != nil {
		return err
	}
	if Schemas.failure, err = c.Compile(schemaURL + "#/schemas/error_response"); err != nil {
		return err
	}
	Schemas.refTypes, err = compileResults(c, schemaURL, b)
	return err
}

// ResponseSchema picks the schema that judges a decoded response line,
// by whether it carries an "error" member and whether the reference
// knows its result's type; kind names it for messages, and byType are
// the result schemas of its document.
func ResponseSchema(v any) (sch *jsonschema.Schema, kind string, byType map[string]*jsonschema.Schema) {
	obj, _ := v.(map[string]any)
	_, isErr := obj["error"]
	typ := ""
	if res, ok := obj["result"].(map[string]any); ok {
		typ, _ = res["type"].(string)
	}
	switch {
	case Schemas.Missing != "" && isErr:
		return Schemas.oursFailure, "error_response of herdr api schema", nil
	case Schemas.Missing != "":
		return Schemas.ours, "success_response of herdr api schema", Schemas.ourTypes
	case isErr:
		return Schemas.failure, "error_response of the reference", nil
	case Schemas.refTypes[typ] != nil:
		return Schemas.success, "success_response of the reference", Schemas.refTypes
	}
	return Schemas.ours, "success_response of herdr api schema (the reference has no " + typ + ")", Schemas.ourTypes
}

// ValidateResponseLine checks one response line against the schema that
// judges it (responseSchema).
func ValidateResponseLine(t testing.TB, line []byte) {
	t.Helper()
	Schemas.Once.Do(LoadSchemas)
	if Schemas.Err != nil {
		t.Fatalf("load response schemas: %v", Schemas.Err)
	}
	if Schemas.Missing != "" {
		skipLogged.Do(func() {
			t.Logf("reference schema %s not found: responses validated by herdr api schema only", Schemas.Missing)
		})
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		t.Errorf("response line is not JSON (%v): %s", err, Clip(line))
		return
	}
	sch, kind, byType := ResponseSchema(v)
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
	t.Errorf("response does not match %s: %v\nline: %s", kind, err, Clip(line))
}
