package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// receiveCases is the number of message types the type switch of
// Session.Receive in session.go names.
func receiveCases(t *testing.T) (n int, names []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "session.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "Receive" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			for _, c := range ts.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					names = append(names, types(e))
				}
			}
			return false
		})
	}
	return len(names), names
}

func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// The session's Receive switches on kinds of message (kit/session.go),
// not on every message another actor sends it: at most ten.
func TestReceiveTakesFewKinds(t *testing.T) {
	n, names := receiveCases(t)
	if n == 0 {
		t.Fatal("found no type switch in Session.Receive")
	}
	// 8: its lifecycle (Started, Stopping, Stopped), a call and the four
	// kinds; a pane gone is a Fact (pane.Exited, panes.Gone).
	if n > 8 {
		t.Fatalf("Receive switches on %d message types, want at most 8: %v", n, names)
	}
	t.Logf("Receive: %d message types: %v", n, names)
}
