package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// schemaDoc is the part of a schema document the tests read.
type schemaDoc struct {
	Protocol      int `json:"protocol"`
	SchemaVersion int `json:"schema_version"`
	Schemas       struct {
		Request struct {
			OneOf []struct {
				Properties struct {
					Method struct {
						Const string `json:"const"`
					} `json:"method"`
					Params json.RawMessage `json:"params"`
				} `json:"properties"`
			} `json:"oneOf"`
			Defs map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"$defs"`
		} `json:"request"`
	} `json:"schemas"`
}

// params maps each method to the property names of its params.
func (d schemaDoc) params(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, o := range d.Schemas.Request.OneOf {
		var ref struct {
			Ref string `json:"$ref"`
		}
		if err := json.Unmarshal(o.Properties.Params, &ref); err != nil || ref.Ref == "" {
			t.Fatalf("%s: params is not a $ref: %s", o.Properties.Method.Const, o.Properties.Params)
		}
		def, ok := d.Schemas.Request.Defs[ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]]
		if !ok {
			t.Fatalf("%s: dangling %s", o.Properties.Method.Const, ref.Ref)
		}
		names := []string{}
		for p := range def.Properties {
			names = append(names, p)
		}
		sort.Strings(names)
		out[o.Properties.Method.Const] = names
	}
	return out
}

func ourSchema(t *testing.T, args ...string) schemaDoc {
	t.Helper()
	r := run(t, newEnv(t), append([]string{"api", "schema"}, args...)...)
	if r.code != 0 {
		t.Fatalf("api schema: exit %d %q", r.code, r.stderr)
	}
	var d schemaDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("api schema output is not JSON: %v", err)
	}
	return d
}

func TestAPI_Schema_FollowsTheMethodTable(t *testing.T) {
	d := ourSchema(t, "--json")
	if d.Protocol != 22 || d.SchemaVersion != 1 {
		t.Errorf("protocol %d schema_version %d, want 22 and 1", d.Protocol, d.SchemaVersion)
	}
	var want, got []string
	for _, m := range protocol.Methods() {
		want = append(want, m.Name)
	}
	params := d.params(t)
	for m := range params {
		got = append(got, m)
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("methods = %q\nwant %q", got, want)
	}
	// Field names come from the params types' json tags.
	if p := params["pane.split"]; !slices.Contains(p, "direction") || !slices.Contains(p, "target_pane_id") {
		t.Errorf("pane.split params = %q", p)
	}
	if p := params["ping"]; len(p) != 0 {
		t.Errorf("ping params = %q, want none", p)
	}
}

func TestAPI_Schema_JSONIsOneLineAndOutputWritesFile(t *testing.T) {
	env := newEnv(t)
	if r := run(t, env, "api", "schema", "--json"); strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("--json printed %d lines", strings.Count(r.stdout, "\n"))
	}
	out := filepath.Join(env["HOME"], "schema.json")
	r := run(t, env, "api", "schema", "--output", out)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("--output: %d %q %q", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || !json.Valid(b) {
		t.Fatalf("schema file: %v valid=%v", err, json.Valid(b))
	}
	if r := run(t, env, "api", "schema", "extra"); r.code != 2 {
		t.Errorf("extra argument: exit %d, want 2", r.code)
	}
}

// ourExtensions are methods this server adds to Herdr's API, with params
// fields Herdr's schema does not have.
var ourExtensions = map[string][]string{
	"client.resize":        nil,
	"events.wait":          {"allow_extensions"},
	"screen.scroll":        nil,
	"screen.subscribe":     nil,
	"popup.send_text":      nil,
	"popup.open":           nil,
	"terminal.claim":       nil,
	"web.start":            nil,
	"web.url":              nil,
	"pane.record.start":    nil,
	"pane.record.stop":     nil,
	"pane.history":         nil,
	"agent.view.get":       nil,
	"workspace.git_status": nil,
	"client.ui_state.get":  nil,
	"client.ui_state.set":  nil,
	"events.subscribe":     {"since_seq", "machines"},
	"machine.list":         nil,
	"agent.list":           {"machines"},
	"session.snapshot":     {"machines"},
	// The task board (issue 32), past Herdr 0.9.
	"task.create": nil, "task.list": nil, "task.get": nil, "task.attach": nil,
	"task.dispatch": nil, "task.report": nil, "task.claim": nil, "task.run": nil, "task.remove": nil,
	// The paste buffers (issue 46).
	"buffer.list": nil, "buffer.get": nil, "buffer.set": nil, "buffer.delete": nil, "buffer.paste": nil,
	// The graphics stream is in the socket API document, not the schema file.
	"pane.graphics.stream": {"layer_id", "z_index"},
}

// protocol22 is what protocol 22 adds to the reference's protocol 20: the
// new methods with their params fields, and the optional fields it adds
// to older methods.
var protocol22 = map[string][]string{
	"pane.scroll":                  {"pane_id", "offset_from_bottom"},
	"pane.selection.read":          {"pane_id", "anchor", "cursor", "content_revision"},
	"pane.copy_motion":             {"pane_id", "cursor", "motion", "content_revision"},
	"pane.copy_search":             {"pane_id", "query", "direction", "cursor", "content_revision", "previous"},
	"pane.edit_scrollback":         {"pane_id"},
	"pane.link.resolve":            {"pane_id", "viewport_row", "col", "offset_from_bottom", "content_revision"},
	"pane.link.activate":           {"pane_id", "viewport_row", "col", "offset_from_bottom", "content_revision"},
	"integration.list":             nil,
	"command.invoke":               {"command_id", "workspace_id", "tab_id", "pane_id", "selection"},
	"client_shell.surface.set":     {"active"},
	"product_announcement.dismiss": {"id", "version"},
	"release_notes.dismiss":        {"version"},
	"workspace.create":             {"source_workspace_id"},
	"workspace.close":              {"close_group"},
	"worktree.list":                {"trust_repository"},
	"worktree.create":              {"trust_repository"},
	"worktree.open":                {"trust_repository"},
	"worktree.remove":              {"trust_repository"},
	"pane.graphics.set":            {"layer_id", "z_index"},
	"pane.graphics.clear":          {"layer_id"},
}

// herdr092 is what Herdr 0.9.1-0.9.5 added to the protocol-22 schema
// (its release notes; the reference file predates them).
var herdr092 = map[string][]string{
	"pane.clear":                {"pane_id"},
	"server.ssh_agent.register": {"socket_path"},
	"pane.report_agent":         {"resume_argv"},
	"pane.report_agent_session": {"resume_argv"},
}

// referenceSchemaPath is Herdr's schema in the nearest shared/spec up from
// the module (a worktree sits a level deeper than the main checkout).
func referenceSchemaPath() string {
	rel := filepath.Join("shared", "spec", "herdr-api.schema.json")
	dir, _ := filepath.Abs(filepath.Join("..", ".."))
	for {
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil || filepath.Dir(dir) == dir {
			return filepath.Join(dir, rel)
		}
		dir = filepath.Dir(dir)
	}
}

// Every method we implement is one of Herdr's (or a known extension), and
// its params use only field names Herdr's schema has.
func TestAPI_Schema_MatchesReference(t *testing.T) {
	b, err := os.ReadFile(referenceSchemaPath())
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no reference schema (../shared/spec) here")
	}
	if err != nil {
		t.Fatal(err)
	}
	var ref schemaDoc
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	refParams, ours := ref.params(t), ourSchema(t, "--json").params(t)
	switch ref.Protocol {
	case protocol.ProtocolVersion:
	case 20: // the reference predates protocol 22, which only adds to it
		for m, fields := range protocol22 {
			refParams[m] = append(slices.Clone(refParams[m]), fields...)
		}
	default:
		t.Errorf("reference protocol %d, ours %d", ref.Protocol, protocol.ProtocolVersion)
	}
	for m, fields := range herdr092 { // later Herdr releases within protocol 22
		refParams[m] = append(slices.Clone(refParams[m]), fields...)
	}
	var missing []string
	for m := range refParams {
		if _, ok := ours[m]; !ok {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	t.Logf("reference methods not implemented yet: %q", missing)
	for m, fields := range ours {
		extra, isExt := ourExtensions[m]
		if entry, ok := protocol.Lookup(m); ok && entry.Extension {
			isExt = true // the table says so; a new extension needs no entry here
		}
		refFields, inRef := refParams[m]
		if !inRef {
			if !isExt {
				t.Errorf("%s is neither in the reference schema nor a known extension", m)
			}
			continue
		}
		for _, f := range fields {
			if !slices.Contains(refFields, f) && !slices.Contains(extra, f) {
				t.Errorf("%s: params field %q is not in the reference (%q)", m, f, refFields)
			}
		}
	}
}

// The success response lists one object per result type under
// $defs.ResponseResult.oneOf, as protocol-22 client generators read it:
// type a const, the other properties the Go result's fields.
func TestAPI_Schema_SuccessResponseListsEveryResult(t *testing.T) {
	r := run(t, newEnv(t), "api", "schema", "--json")
	var doc struct {
		Schemas struct {
			SuccessResponse struct {
				Properties struct {
					Result struct {
						Ref string `json:"$ref"`
					} `json:"result"`
				} `json:"properties"`
				Defs struct {
					ResponseResult struct {
						OneOf []struct {
							Type       string `json:"type"`
							Properties map[string]struct {
								Const string `json:"const"`
								Type  string `json:"type"`
								Items struct {
									Ref string `json:"$ref"`
								} `json:"items"`
							} `json:"properties"`
							Required []string `json:"required"`
						} `json:"oneOf"`
					} `json:"ResponseResult"`
					PaneTextRange struct {
						Required []string `json:"required"`
					} `json:"PaneTextRange"`
				} `json:"$defs"`
			} `json:"success_response"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("api schema --json: %v (exit %d %q)", err, r.code, r.stderr)
	}
	sr := doc.Schemas.SuccessResponse
	if sr.Properties.Result.Ref != "#/schemas/success_response/$defs/ResponseResult" {
		t.Errorf("result is %q, want a $ref to ResponseResult", sr.Properties.Result.Ref)
	}
	byType := map[string]int{}
	for i, o := range sr.Defs.ResponseResult.OneOf {
		typ := o.Properties["type"].Const
		if _, dup := byType[typ]; dup || typ == "" || o.Type != "object" || len(o.Required) == 0 || o.Required[0] != "type" {
			t.Errorf("oneOf[%d]: type const %q (dup %v), object %q, required %q", i, typ, dup, o.Type, o.Required)
		}
		byType[typ] = i
	}
	if len(byType) != len(protocol.ResultTypes()) {
		t.Errorf("%d result types in the schema, %d in protocol.ResultTypes", len(byType), len(protocol.ResultTypes()))
	}
	for _, m := range protocol.Methods() {
		if _, ok := byType[m.Result]; !ok && m.Result != "*" {
			t.Errorf("%s answers %s, which the schema lacks", m.Name, m.Result)
		}
	}
	i, ok := byType["pane_copy_search"]
	if !ok {
		t.Fatal("no pane_copy_search in the schema")
	}
	search := sr.Defs.ResponseResult.OneOf[i]
	if !slices.Equal(search.Required, []string{"type", "pane_id", "content_revision", "matches", "total"}) ||
		search.Properties["matches"].Type != "array" || search.Properties["matches"].Items.Ref != "#/schemas/success_response/$defs/PaneTextRange" {
		t.Errorf("pane_copy_search: required %q, matches %+v", search.Required, search.Properties["matches"])
	}
	if !slices.Equal(sr.Defs.PaneTextRange.Required, []string{"start", "end"}) {
		t.Errorf("PaneTextRange required %q", sr.Defs.PaneTextRange.Required)
	}
}

// resultSchemas maps each result type of a schema document to its
// properties and required fields.
func resultSchemas(t *testing.T, b []byte) map[string]struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
} {
	t.Helper()
	type result = struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	var doc struct {
		Schemas struct {
			SuccessResponse struct {
				Defs struct {
					ResponseResult struct {
						OneOf []result `json:"oneOf"`
					} `json:"ResponseResult"`
				} `json:"$defs"`
			} `json:"success_response"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]result{}
	for _, r := range doc.Schemas.SuccessResponse.Defs.ResponseResult.OneOf {
		var typ struct {
			Const string `json:"const"`
		}
		_ = json.Unmarshal(r.Properties["type"], &typ)
		out[typ.Const] = r
	}
	return out
}

// Every result type of the reference is in ours, requiring at least the
// fields the reference requires (protocol 22 only adds).
func TestAPI_Schema_ResultsCoverTheReference(t *testing.T) {
	b, err := os.ReadFile(referenceSchemaPath())
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no reference schema (shared/spec) here")
	}
	if err != nil {
		t.Fatal(err)
	}
	ref := resultSchemas(t, b)
	ours := resultSchemas(t, []byte(run(t, newEnv(t), "api", "schema", "--json").stdout))
	for typ, r := range ref {
		o, ok := ours[typ]
		if !ok {
			t.Errorf("result %s of the reference is not in ours", typ)
			continue
		}
		for _, f := range r.Required {
			if !slices.Contains(o.Required, f) {
				t.Errorf("result %s: the reference requires %s, ours does not (%q)", typ, f, o.Required)
			}
		}
		for f := range r.Properties {
			if _, ok := o.Properties[f]; !ok {
				t.Logf("result %s: optional field %s of the reference is not in ours", typ, f)
			}
		}
	}
}
