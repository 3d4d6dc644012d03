package events

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// Events travel typed inside the server: no actor decodes one from JSON.
// The machines link and the fleet's events child are the places events
// arrive as JSON (another machine's stream) and are decoded once; the gateway and the web are the
// edges that write lines. This scans the actors' code for the forms such a
// decode takes: an envelope struct (a field tagged "event"), a decode into
// an event type, DecodeEventData, and an actor other than an edge reading
// a Batch of lines.
func TestNoEventDecodingInsideTheServer(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(root), path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		bad = append(bad, eventDecodes(t, rel, string(src))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("events are decoded inside the server (subscribe Typed and switch on the Go types):\n%s", strings.Join(bad, "\n"))
	}
}

// Each form of event decoding the scan looks for is caught when planted
// in a consumer, and none is reported where it is allowed.
func TestNoEventDecodingInsideTheServer_CatchesPlanted(t *testing.T) {
	planted := map[string]string{
		"envelope": `package tasks
func (t *Tasks) onEvent(line []byte) {
	var ev struct {
		Event string          ` + "`json:\"event\"`" + `
		Data  json.RawMessage ` + "`json:\"data\"`" + `
	}
	protocol.Unmarshal(line, &ev)
}`,
		"typed var": `package tasks
func f(b []byte) {
	var d protocol.PaneMovedEvent
	_ = protocol.Unmarshal(b, &d)
}`,
		"composite": `package dispatcher
func f(b []byte) {
	d := &protocol.TaskUpdatedEvent{}
	json.Unmarshal(b, d)
}`,
		"field": `package plugins
func f(b []byte) {
	var x struct{ E protocol.PaneAgentDetectedEvent }
	protocol.Unmarshal(b, &x.E)
}`,
		"decode event data": `package plugins
func f(r protocol.RemoteEvent) { protocol.DecodeEventData(r.Kind, r.Data) }`,
		"lines": `package tasks
func (t *Tasks) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *events.Lost, *events.Batch:
		_ = msg
	}
}`,
	}
	for name, src := range planted {
		if got := eventDecodes(t, "actors/x/x.go", src); len(got) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
	allowed := map[string]string{
		"actors/machines/link.go": planted["decode event data"],
		"actors/gateway/conn.go":  planted["lines"],
		"actors/web/browser.go":   planted["lines"],
		"actors/x/x.go": `package x
func f(b []byte) {
	var d protocol.PaneInfo
	_ = protocol.Unmarshal(b, &d)
}`,
	}
	for rel, src := range allowed {
		if got := eventDecodes(t, rel, src); len(got) > 0 {
			t.Errorf("%s: reported %q", rel, got)
		}
	}
}

// eventTypeName matches the name of a type an event's data has.
var eventTypeName = func() *regexp.Regexp {
	names := []string{"RemoteEvent", "MachineStateChanged"}
	for _, v := range protocol.EventTypes() {
		names = append(names, reflect.TypeOf(v).Name())
	}
	for _, v := range protocol.SubscriptionEventTypes() {
		names = append(names, reflect.TypeOf(v).Name())
	}
	slices.Sort(names)
	return regexp.MustCompile(`\b(` + strings.Join(slices.Compact(names), "|") + `)\b`)
}()

// eventDecodes reports the event decodes in one file of actors/ (rel is
// its path from the module root).
func eventDecodes(t *testing.T, rel, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, rel, src, 0)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	// The fleet's events child reads other members' events off the NATS
	// stream: JSON arriving from another machine, decoded once, as a link's.
	link := rel == "actors/machines/link.go" || rel == "actors/machines/wire.go" || rel == "actors/fleet/events.go"
	edge := strings.HasPrefix(rel, "actors/gateway/") || strings.HasPrefix(rel, "actors/web/")
	var bad []string
	report := func(n ast.Node, what string) {
		bad = append(bad, fset.Position(n.Pos()).String()+": "+what)
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if !link && n.Tag != nil && strings.Contains(n.Tag.Value, `json:"event"`) {
				report(n, "an event envelope struct")
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if s := types.ExprString(e); !edge && (s == "*events.Batch" || s == "events.Batch") {
					report(e, "an actor reads encoded event lines (events.Batch)")
				}
			}
		case *ast.FuncDecl:
			if n.Body != nil && !link {
				bad = append(bad, decodesInto(fset, n)...)
			}
		}
		return true
	})
	return bad
}

// decodesInto reports the decode calls in a function whose destination
// is an event type, and every DecodeEventData.
func decodesInto(fset *token.FileSet, fn *ast.FuncDecl) []string {
	declared := map[string]string{} // a variable's type, as written
	var bad []string
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if n.Type != nil {
					declared[id.Name] = types.ExprString(n.Type)
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && i < len(n.Rhs) {
					declared[id.Name] = types.ExprString(n.Rhs[i])
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "DecodeEventData":
				bad = append(bad, fset.Position(n.Pos()).String()+": DecodeEventData outside the machines link")
			case "Unmarshal", "UnmarshalNumbers", "Decode":
				if len(n.Args) == 0 {
					return true
				}
				dest := n.Args[len(n.Args)-1]
				typ := types.ExprString(dest)
				if root := rootIdent(dest); root != "" && declared[root] != "" {
					typ += " " + declared[root]
				}
				if eventTypeName.MatchString(typ) {
					bad = append(bad, fset.Position(n.Pos()).String()+": decodes into an event ("+typ+")")
				}
			}
		}
		return true
	})
	return bad
}

// rootIdent is the variable an expression such as &x.a.b starts from.
func rootIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.UnaryExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return ""
		}
	}
}
