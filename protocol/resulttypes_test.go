package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestResultTypes_MatchTheTable checks that every result type a method of
// the table names is listed once in ResultTypes, and every listed type is
// some method's result (or one of unlistedResults).
func TestResultTypes_MatchTheTable(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range ResultTypes() {
		if listed[r.ResultType()] {
			t.Errorf("%s is listed twice", r.ResultType())
		}
		listed[r.ResultType()] = true
		if k := reflect.TypeOf(r).Kind(); k != reflect.Struct {
			t.Errorf("%s is a %s, want a struct (its fields are the result's)", r.ResultType(), k)
		}
	}
	named := map[string]bool{}
	for _, m := range Methods() {
		if m.Result == "*" {
			continue
		}
		named[m.Result] = true
		if !listed[m.Result] {
			t.Errorf("%s answers %s, which ResultTypes does not list", m.Name, m.Result)
		}
	}
	for typ := range listed {
		if !named[typ] && unlistedResults[typ] == "" {
			t.Errorf("%s is listed but no method answers it", typ)
		}
	}
	for typ := range unlistedResults {
		if !listed[typ] || named[typ] {
			t.Errorf("unlistedResults names %s: listed=%v named by a method=%v", typ, listed[typ], named[typ])
		}
	}
}

// TestResultTypes_ListEveryResultOfThePackage parses the package's files:
// a new type with a ResultType method must be added to ResultTypes too.
func TestResultTypes_ListEveryResultOfThePackage(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "ResultType" {
				continue
			}
			if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok && id.Name != "Encoded" {
				declared = append(declared, id.Name)
			}
		}
	}
	var listed []string
	for _, r := range ResultTypes() {
		listed = append(listed, reflect.TypeOf(r).Name())
	}
	sort.Strings(declared)
	sort.Strings(listed)
	if strings.Join(declared, " ") != strings.Join(listed, " ") {
		t.Errorf("types with ResultType:\n%v\nResultTypes lists:\n%v", declared, listed)
	}
}
