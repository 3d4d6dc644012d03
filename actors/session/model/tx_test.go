package model

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
)

// dump renders every field of the model, its indexes included, so two
// dumps are equal only when the models are.
func dump(m *Model) string {
	var b strings.Builder
	id := func(w *Workspace) string {
		if w == nil {
			return "-"
		}
		return w.id
	}
	fmt.Fprintf(&b, "focused=%s area=%+v next=%d/%d\n", id(m.focused), m.area, m.nextWS, m.nextTerm)
	for _, w := range m.workspaces {
		active := "-"
		if w.active != nil {
			active = w.active.id
		}
		fmt.Fprintf(&b, "%s %q auto=%q cwd=%s next=%d/%d active=%s tokens=%v wt=%+v\n", w.id, w.label, w.auto, w.cwd, w.nextTab, w.nextPane, active, w.tokens, w.worktree)
		for _, t := range w.tabs {
			fmt.Fprintf(&b, "  %s ws=%s %q tree=%s focused=%s zoomed=%v\n", t.id, t.ws.id, t.label, t.root, t.focused, t.zoomed)
		}
	}
	index := func(name string, keys []string, show func(string) string) {
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s[%s]=%s\n", name, k, show(k))
		}
	}
	var keys []string
	for k := range m.byWorkspace {
		keys = append(keys, k)
	}
	index("ws", keys, func(k string) string { return fmt.Sprintf("%p", m.byWorkspace[k]) })
	keys = keys[:0]
	for k := range m.panes {
		keys = append(keys, k)
	}
	index("pane", keys, func(k string) string { return m.panes[k].termID })
	keys = keys[:0]
	for k := range m.terms {
		keys = append(keys, k)
	}
	index("term", keys, func(k string) string {
		p := m.terms[k]
		return fmt.Sprintf("%s ws=%s tab=%s %q cwd=%s live=%s cmd=%v aliases=%v rc=%q covers=%s/%v restore=%q", p.id, p.ws.id, p.tab.id, p.label, p.cwd, p.liveCwd, p.command, p.aliases, p.rightClick,
			p.covers, p.coverZoomed, p.restoreError)
	})
	return b.String()
}

// TestRandomTransactions_DiscardUndoesExactly runs random transactions of
// one to four operations; a third are discarded, a third are broken by a
// panic at a random write and then discarded, and after each discard the
// model is exactly what it was before the transaction began.
func TestRandomTransactions_DiscardUndoesExactly(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	b := newBuilder(layout.Rect{W: 120, H: 40})
	b.tx.Commit()
	discarded, panicked := 0, 0
	for step := range 2000 {
		before := dump(b.m)
		fate := rng.Intn(3)
		if fate == 2 {
			b.m.InjectPanic(1 + rng.Intn(12))
		}
		b.tx = b.m.Begin()
		var ops []string
		broke := func() (broke bool) {
			defer func() { broke = recover() != nil }()
			for range 1 + rng.Intn(4) {
				ops = append(ops, b.randomOp(rng))
			}
			return false
		}()
		b.m.InjectPanic(0) // when the transaction made fewer writes
		step := fmt.Sprintf("step %d %v", step, ops)
		if fate == 0 && !broke {
			b.tx.Commit()
			check(t, b.m, step)
			continue
		}
		b.tx.Discard()
		if broke {
			panicked++
		} else {
			discarded++
		}
		if got := dump(b.m); got != before {
			t.Fatalf("%s (panic %v): after the discard\n%s\nwant\n%s", step, broke, got, before)
		}
		if len(b.m.workspaces) > 0 {
			check(t, b.m, step)
		}
	}
	if discarded == 0 || panicked == 0 {
		t.Fatalf("%d discarded, %d panicked: the test did not exercise both", discarded, panicked)
	}
}

func TestWriteOutsideATransactionPanics(t *testing.T) {
	m := New(layout.Rect{W: 80, H: 24})
	tx := m.Begin()
	w := tx.AddWorkspace("", "/", "x")
	tx.Commit()
	defer func() {
		if recover() == nil {
			t.Fatal("a write after Commit did not panic")
		}
	}()
	tx.SetAuto(w, "y")
}

// TestNoWritesOutsideTheModel: the fields of Model, Workspace, Tab and Pane
// are unexported, so no other package can assign them; what a getter
// hands out still shares the model's memory (a slice, the tokens map, a
// layout tree). The test type-checks every package that imports this one
// and fails on any write through one: an assignment or ++ to an element
// reached through a getter, taking its address, a call on a tab's layout
// tree that can change it (only its reads are allowed), an in-place
// slices edit or MoveTo of a model slice, and delete, clear or copy into
// one. Without it a write outside a transaction would not be undone when
// the session discards one.
func TestNoWritesOutsideTheModel(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module's packages")
	}
	const self = "github.com/herdr-go/herdr/actors/session/model"
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}\t{{.Module}}", "../../../...").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	export := map[string]string{}
	type pkg struct {
		path, dir string
		files     []string
	}
	var users []pkg
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		export[f[0]] = f[1]
		if f[0] != self && slices.Contains(strings.Fields(f[4]), self) {
			users = append(users, pkg{f[0], f[2], strings.Fields(f[3])})
		}
	}
	if len(users) == 0 {
		t.Fatal("no package imports the model: the check would pass vacuously")
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return openFile(export[path]) })
	readOnlyTree := map[string]bool{"Leaves": true, "Compute": true, "Contains": true, "String": true, "Clone": true, "IsLeaf": true}
	readOnlySlices := map[string]bool{"Index": true, "IndexFunc": true, "Contains": true, "ContainsFunc": true, "Clone": true, "Equal": true, "Collect": true, "Values": true, "All": true}
	modelPkg, err := imp.Import(self)
	if err != nil {
		t.Fatal(err)
	}
	getters := map[*types.Func]bool{} // the methods that read a field
	for _, name := range []string{"Model", "Workspace", "Tab", "Pane"} {
		named := modelPkg.Scope().Lookup(name).Type().(*types.Named)
		st := named.Underlying().(*types.Struct)
		for i := range st.NumFields() {
			if f := st.Field(i); f.Exported() {
				t.Fatalf("%s.%s is exported: any package could write it", name, f.Name())
			}
		}
		for i := range named.NumMethods() {
			if m := named.Method(i); m.Signature().Params().Len() == 0 {
				getters[m] = true
			}
		}
	}
	for _, p := range users {
		var files []*ast.File
		for _, name := range p.files {
			f, err := parser.ParseFile(fset, filepath.Join(p.dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
		if _, err := (&types.Config{Importer: imp}).Check(p.path, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", p.path, err)
		}
		// modelField reports the first getter of Model, Workspace, Tab or
		// Pane on the way from e to its variable: w.Tabs()[0],
		// p.Tab().Root() and m.UI().Width all reach the model's memory.
		modelField := func(e ast.Expr) (string, bool) {
			for {
				switch x := e.(type) {
				case *ast.IndexExpr:
					e = x.X
				case *ast.ParenExpr:
					e = x.X
				case *ast.StarExpr:
					e = x.X
				case *ast.SelectorExpr:
					e = x.X
				case *ast.CallExpr:
					fn, ok := x.Fun.(*ast.SelectorExpr)
					if !ok {
						return "", false
					}
					if m, ok := info.Uses[fn.Sel].(*types.Func); ok && getters[m.Origin()] {
						return m.Name(), true
					}
					return "", false
				default:
					return "", false
				}
			}
		}
		report := func(n ast.Node, what string) {
			t.Errorf("%s: %s outside a model.Tx", fset.Position(n.Pos()), what)
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						if name, ok := modelField(lhs); ok {
							report(n, "writes "+name)
						}
					}
				case *ast.IncDecStmt:
					if name, ok := modelField(n.X); ok {
						report(n, "writes "+name)
					}
				case *ast.UnaryExpr:
					if name, ok := modelField(n.X); ok && n.Op == token.AND {
						report(n, "takes the address of "+name)
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) > 0 {
						if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "delete" || b.Name() == "clear" || b.Name() == "copy") {
							if name, ok := modelField(n.Args[0]); ok {
								report(n, b.Name()+" edits "+name+" in place")
							}
						}
					}
					fn, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if name, ok := modelField(fn.X); ok && name == "Root" && !readOnlyTree[fn.Sel.Name] {
						report(n, "calls Root."+fn.Sel.Name)
					}
					obj := info.Uses[fn.Sel]
					if obj == nil || obj.Pkg() == nil {
						return true
					}
					inPlace := obj.Pkg().Path() == "slices" && !readOnlySlices[obj.Name()] || obj.Pkg().Path() == self && obj.Name() == "MoveTo"
					if !inPlace {
						return true
					}
					for _, arg := range n.Args {
						if name, ok := modelField(arg); ok {
							report(n, obj.Name()+" edits "+name+" in place")
						}
					}
				}
				return true
			})
		}
	}
}

func openFile(path string) (io.ReadCloser, error) {
	if path == "" {
		return nil, fmt.Errorf("no export data")
	}
	return os.Open(path)
}

// BenchmarkTx_SplitFocusDiscard200Panes is one transaction on a model of
// 200 panes in 40 tabs: a split that adds a pane and focuses it, then a
// discard that undoes it: what a failed or broken split costs, and twice
// what journalling a successful one does.
func BenchmarkTx_SplitFocusDiscard200Panes(b *testing.B) {
	bl := newBuilder(layout.Rect{W: 200, H: 50})
	var src []*Pane
	for range 20 {
		w, p := bl.workspace("")
		src = append(src, p)
		_, q := bl.tab(w)
		src = append(src, q)
	}
	for _, p := range src {
		for range 4 {
			bl.split(p)
		}
	}
	bl.tx.Commit()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bl.tx = bl.m.Begin()
		p := bl.split(src[i%len(src)])
		bl.tx.FocusPane(p)
		bl.tx.Discard()
	}
}
