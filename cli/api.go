package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) apiCmd() *cobra.Command {
	var methods strings.Builder
	for _, m := range protocol.Methods() {
		fmt.Fprintf(&methods, "  %-22s %s\n", m.Name, m.Summary)
	}
	cmd := a.group(&cobra.Command{
		Use:   "api",
		Short: "Raw views of the socket API",
		Long: `Raw views of the socket API. Programs can also talk to the socket directly:
one JSON request per line, {"id":"...","method":"...","params":{...}}, one
response line each, many requests per connection.

Methods this server implements:
` + methods.String() + "\n" + waitHelp,
	})
	cmd.AddCommand(a.apiSchemaCmd(), fleetFlag(&cobra.Command{
		Use:   "snapshot",
		Short: summary("session.snapshot"),
		Long:  summary("session.snapshot") + " (session.snapshot), printed as one JSON line.",
		Args:  cobra.NoArgs,
	}, func(params any) error {
		return exit(a.call("cli:api:snapshot", "session.snapshot", params))
	}))
	return cmd
}

// waitHelp documents events.wait's match_event variants: Herdr waits for
// pane_agent_status_changed only; this server for any of these kinds.
const waitHelp = `events.wait {"match_event":{"event":KIND,…},"timeout_ms":N} (an extension over
Herdr, which waits for pane_agent_status_changed only) answers wait_matched
with the first matching event published after the request — or at once, with
the current state as the event, when the state it waits for already holds:
  pane_agent_status_changed  pane_id, agent_status: already true when the pane
                             has that status
  pane_output_changed        pane_id: the next change of the pane's output;
                             with seen_revision N: already true when the
                             pane's revision is past N; with min_revision N:
                             already true when it is N or more. Only with
                             "allow_extensions":true beside match_event;
                             without it, Herdr's unsupported_event_wait_match
  pane_focused               pane_id: already true when that pane has the focus
  tab_focused                tab_id: already true when that tab is on screen
  workspace_focused          workspace_id: already true when it is focused
  workspace_renamed          workspace_id (+ label: already true when the
                             workspace shows that label; without one, never)
  tab_renamed                tab_id (+ label: as workspace_renamed)
  workspace_created, workspace_updated, workspace_closed, workspace_moved,
  tab_created, tab_closed, tab_moved, pane_created, pane_closed, pane_moved,
  pane_exited, pane_agent_detected
                             never already true: the next such event (the
                             fields named narrow it)
An unknown pane_id answers pane_not_found; any other kind,
unsupported_event_wait_match.
`

// schemaVersion is the version of the schema document's own layout.
const schemaVersion = 1

func (a *app) apiSchemaCmd() *cobra.Command {
	var asJSON, methods bool
	var output string
	cmd := &cobra.Command{
		Use:   "schema [--json] [--output FILE] [--methods]",
		Short: "Print the JSON schema of the socket API",
		Long: `Print the JSON schema of the socket API, generated from this binary's own
method table and event types: raw requests (one shape per method, its params
from the Go types' JSON fields), success and error responses, lifecycle
events and subscription events. Bare, it prints a short summary; --json
prints the whole document on one line, --output writes it (pretty-printed)
to FILE; --methods lists every method with the Herdr version that
introduced it, or "extension" for this server's own (the document's
x-since and x-extension).`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if methods {
				_, err := io.WriteString(a.stdout, schemaMethods())
				return err
			}
			if !asJSON && output == "" {
				_, err := io.WriteString(a.stdout, schemaSummary())
				return err
			}
			var b []byte
			if asJSON {
				b, _ = json.Marshal(apiSchema())
			} else {
				b, _ = json.MarshalIndent(apiSchema(), "", "  ")
			}
			b = append(b, '\n')
			if output == "" {
				_, err := a.stdout.Write(b)
				return err
			}
			if err := os.WriteFile(output, b, 0o644); err != nil {
				fmt.Fprintf(a.stderr, "cannot write %s: %v\n", output, err)
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the schema on one line")
	cmd.Flags().StringVar(&output, "output", "", "write the schema to `FILE` instead of stdout")
	cmd.Flags().BoolVar(&methods, "methods", false, "list every method with the Herdr version that introduced it, or extension")
	cmd.MarkFlagsMutuallyExclusive("methods", "json")
	cmd.MarkFlagsMutuallyExclusive("methods", "output")
	return cmd
}

// schemaMethods is what `herdr api schema --methods` prints: a method a
// line, with the Herdr version that introduced it or "extension".
func schemaMethods() string {
	var b strings.Builder
	for _, m := range protocol.Methods() {
		since := "herdr " + m.Since
		if m.Extension {
			since = "extension"
		}
		fmt.Fprintf(&b, "%-32s %s\n", m.Name, since)
	}
	return b.String()
}

// apiSchema builds the schema document from protocol.Methods().
func apiSchema() map[string]any {
	g := schemaGen{defs: map[string]any{}, ref: "#/schemas/request/$defs/"}
	var requests []any
	for _, m := range protocol.Methods() {
		params := g.schema(reflect.TypeOf(m.Params()).Elem()) // Params are pointers to structs.
		request := map[string]any{
			"type":        "object",
			"description": m.Summary,
			"properties": map[string]any{
				"method": map[string]any{"type": "string", "const": m.Name},
				"params": params,
			},
			"required":      []string{"method", "params"},
			"x-result-type": m.Result,
		}
		if m.Extension {
			request["x-extension"] = true // this server's, not Herdr's
		} else {
			request["x-since"] = m.Since // the Herdr version that introduced it
		}
		if m.Name == binaryStreamMethod {
			request["x-binary-stream"] = true
		}
		requests = append(requests, request)
	}
	return map[string]any{
		"$schema":        "https://json-schema.org/draft/2020-12/schema",
		"title":          "Herdr API",
		"protocol":       protocol.ProtocolVersion,
		"schema_version": schemaVersion,
		"schemas": map[string]any{
			"request": map[string]any{
				"title":      "Request",
				"type":       "object",
				"properties": map[string]any{"id": map[string]any{"type": "string"}},
				"required":   []string{"id"},
				"oneOf":      requests,
				"$defs":      g.defs,
			},
			"success_response": successResponseSchema(),
			"error_response": map[string]any{
				"title": "ErrorResponse",
				"type":  "object",
				"properties": map[string]any{
					"id": map[string]any{"type": "string"},
					"error": map[string]any{
						"type": "object",
						"properties": map[string]any{
							"code":    map[string]any{"type": "string"},
							"message": map[string]any{"type": "string"},
						},
						"required": []string{"code", "message"},
					},
				},
				"required": []string{"id", "error"},
			},
			"event":              eventSchema(),
			"subscription_event": subscriptionEventSchema(),
		},
	}
}

// successResponseSchema describes a success line, {"id":…,"result":{"type":T,…}}:
// $defs.ResponseResult is oneOf one object per result type
// (protocol.ResultTypes), its type a const and its other properties the
// Go result's JSON fields, the layout client generators read.
func successResponseSchema() map[string]any {
	const ref = "#/schemas/success_response/$defs/"
	g := schemaGen{defs: map[string]any{}, ref: ref}
	results := protocol.ResultTypes()
	sort.Slice(results, func(i, j int) bool { return results[i].ResultType() < results[j].ResultType() })
	oneOf := make([]any, 0, len(results))
	for _, r := range results {
		// The envelope encoder writes "type" before the struct's own fields.
		obj := g.object(reflect.TypeOf(r))
		obj["properties"].(map[string]any)["type"] = map[string]any{"type": "string", "const": r.ResultType()}
		obj["required"] = append([]string{"type"}, obj["required"].([]string)...)
		oneOf = append(oneOf, obj)
	}
	g.defs["ResponseResult"] = map[string]any{"oneOf": oneOf}
	return map[string]any{
		"title": "SuccessResponse",
		"type":  "object",
		"properties": map[string]any{
			"id":     map[string]any{"type": "string"},
			"result": map[string]any{"$ref": ref + "ResponseResult"},
		},
		"required": []string{"id", "result"},
		"$defs":    g.defs,
	}
}

// eventSchema describes a lifecycle event line, {"event":KIND,"data":{"type":KIND,…}}
// (events.subscribe), from the event types (protocol.EventTypes).
func eventSchema() map[string]any {
	const ref = "#/schemas/event/$defs/"
	g := schemaGen{defs: map[string]any{}, ref: ref}
	types := protocol.EventTypes()
	var data []any
	for _, kind := range protocol.LifecycleKinds {
		obj := g.object(reflect.TypeOf(types[kind]))
		obj["properties"].(map[string]any)["type"] = map[string]any{"type": "string", "const": kind}
		obj["required"] = append([]string{"type"}, obj["required"].([]string)...)
		data = append(data, obj)
	}
	g.defs["EventKind"] = map[string]any{"type": "string", "enum": protocol.LifecycleKinds}
	g.defs["EventData"] = map[string]any{"oneOf": data}
	return map[string]any{
		"title": "EventEnvelope",
		"type":  "object",
		"properties": map[string]any{
			"event": map[string]any{"$ref": ref + "EventKind"},
			"data":  map[string]any{"$ref": ref + "EventData"},
			// An extension: the bus's sequence number, which since_seq resumes after.
			"seq": map[string]any{"type": "integer", "minimum": 0},
		},
		"required": []string{"event", "data"},
		"$defs":    g.defs,
	}
}

// subscriptionEventSchema describes a dedicated subscription event line,
// {"event":"pane.output_matched","data":{…}} (no type in its data).
func subscriptionEventSchema() map[string]any {
	const ref = "#/schemas/subscription_event/$defs/"
	g := schemaGen{defs: map[string]any{}, ref: ref}
	types := protocol.SubscriptionEventTypes()
	kinds := make([]string, 0, len(types))
	for k := range types {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var data []any
	for _, k := range kinds {
		data = append(data, g.schema(reflect.TypeOf(types[k])))
	}
	g.defs["SubscriptionEventKind"] = map[string]any{"type": "string", "enum": kinds}
	g.defs["SubscriptionEventData"] = map[string]any{"anyOf": data}
	return map[string]any{
		"title": "SubscriptionEventEnvelope",
		"type":  "object",
		"properties": map[string]any{
			"event": map[string]any{"$ref": ref + "SubscriptionEventKind"},
			"data":  map[string]any{"$ref": ref + "SubscriptionEventData"},
		},
		"required": []string{"event", "data"},
		"$defs":    g.defs,
	}
}

// binaryStreamMethod is the one method whose connection turns into a stream
// of binary frames (ours: Herdr's schema never listed it). It is marked.
const binaryStreamMethod = "pane.graphics.stream"

// schemaSummary is what a bare `herdr api schema` prints.
func schemaSummary() string {
	herdr, ext := 0, 0
	for _, m := range protocol.Methods() {
		if m.Extension {
			ext++
		} else {
			herdr++
		}
	}
	return fmt.Sprintf(`Herdr API schema: protocol %d, schema_version %d
methods: %d (%d of Herdr's schema, %d extensions of this server marked x-extension; the binary %s also marked x-binary-stream)
sections: request, success_response, error_response, event (%d kinds), subscription_event (%d kinds)

  herdr api schema --json           the whole JSON Schema document, on one line
  herdr api schema --output FILE    write it, pretty-printed, to FILE
  herdr api schema --methods        each method's Herdr version, or extension
`, protocol.ProtocolVersion, schemaVersion, herdr+ext, herdr, ext, binaryStreamMethod, len(protocol.LifecycleKinds), len(protocol.SubscriptionEventTypes()))
}

// schemaGen turns Go types into JSON schema, naming each struct in defs.
type schemaGen struct {
	defs map[string]any
	ref  string
}

var (
	rawMessage = reflect.TypeOf(json.RawMessage(nil))
	marshaler  = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
)

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	if t == rawMessage || (t.Kind() != reflect.Pointer && t.Implements(marshaler)) {
		// Its own encoding, not its fields (PopupSize is 12 or "50%"): any value.
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return map[string]any{"anyOf": []any{g.schema(t.Elem()), map[string]any{"type": "null"}}}
	case reflect.Struct:
		name := t.Name()
		if name == "" {
			return g.object(t)
		}
		if _, done := g.defs[name]; !done {
			g.defs[name] = nil // Placeholder: recursive types refer to themselves.
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": g.ref + name}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	}
	return map[string]any{} // Interfaces: any value.
}

// object describes a struct by its JSON fields; embedded structs are
// flattened and a field without omitempty that is not a pointer is required.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if name == "" {
				name = f.Name
			}
			props[name] = g.schema(f.Type)
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") && f.Type.Kind() != reflect.Pointer {
				required = append(required, name)
			}
		}
	}
	walk(t)
	return map[string]any{"type": "object", "properties": props, "required": required}
}
