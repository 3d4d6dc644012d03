package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNoDuplicateKeys(t *testing.T) {
	for _, c := range []struct{ in, dup string }{
		{`{}`, ""},
		{`[]`, ""},
		{`"x"`, ""},
		{`{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`, ""},
		{`{"a":1,"a":2}`, "a"},
		{` { "a" : 1 , "a" : 2 } `, "a"},
		{`{"id":"1","\u0069d":"2"}`, "id"},
		{`{"a":{"b":1,"c":{"d":[1,{"e":1,"e":2}]}}}`, "e"},
		{`[1,"{\"a\":1,\"a\":2}",{"k":"}"}]`, ""}, // braces inside strings are text
		{`{"a\"b":1,"a\"b":2}`, `a"b`},
		{`{"A":1,"a":2}`, ""}, // keys differ; a map may hold both
	} {
		err := NoDuplicateKeys([]byte(c.in))
		var d *DuplicateKeyError
		switch {
		case c.dup == "" && err != nil:
			t.Errorf("%s: %v, want none", c.in, err)
		case c.dup != "" && (!errors.As(err, &d) || d.Key != c.dup):
			t.Errorf("%s: %v, want duplicate %q", c.in, err, c.dup)
		}
	}
}

// "" is a key like any other (a sentinel once hid it).
func TestNoDuplicateKeysEmptyKey(t *testing.T) {
	var d *DuplicateKeyError
	if err := NoDuplicateKeys([]byte(`{"":[],"":""}`)); !errors.As(err, &d) || d.Key != "" {
		t.Fatalf("want the empty key named twice, got %v", err)
	}
}

// A large object switches to a map: a late duplicate is still found.
func TestNoDuplicateKeysLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 1000 {
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `":` + "1,")
	}
	b.WriteString(`"kxxb":2}`)
	var d *DuplicateKeyError
	if err := NoDuplicateKeys([]byte(b.String())); !errors.As(err, &d) {
		t.Fatalf("want a duplicate in a 1000-key object, got %v", err)
	}
}

// Two pane_ids used to answer about the second one.
func TestParamsNamingAFieldTwiceAreRefused(t *testing.T) {
	_, err := DecodeParams("pane.get", json.RawMessage(`{"pane_id":"w1:p1","pane_id":"w1:p2"}`))
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != CodeInvalidParams || !strings.Contains(pe.Message, "pane_id") {
		t.Fatalf("want invalid_params naming pane_id, got %v", err)
	}
	if _, err := DecodeParams("pane.get", json.RawMessage(`{"pane_id":"w1:p1"}`)); err != nil {
		t.Fatalf("one pane_id: %v", err)
	}
}

func FuzzNoDuplicateKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":[{"b":1}],"c":"\u0061"}`, `[{"x":{}},{"x":{"y":1,"y":2}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		got := NoDuplicateKeys(data) != nil
		want := tokenDuplicate(json.NewDecoder(bytes.NewReader(data)))
		if got != want {
			t.Fatalf("%q: scanner says duplicate=%v, token walk %v", data, got, want)
		}
	})
}

// tokenDuplicate is the slow reference: encoding/json's own tokens.
func tokenDuplicate(d *json.Decoder) bool {
	tok, _ := d.Token()
	delim, ok := tok.(json.Delim)
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for d.More() {
		if delim == '{' {
			k, _ := d.Token()
			if seen[k.(string)] {
				return true
			}
			seen[k.(string)] = true
		}
		if tokenDuplicate(d) {
			return true
		}
	}
	d.Token()
	return false
}

// Every JSON text the project decodes goes through Unmarshal: a plain
// json.Unmarshal or json.NewDecoder in non-test code fails this test.
// jsonobj.go reads a settings file token by token to keep its key order
// and checks duplicates itself, naming their path.
func TestEveryDecodeIsStrict(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"protocol/strictjson.go":               true,
		"actors/integrations/setup/jsonobj.go": true,
	}
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "tests" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || allowed[rel] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "json" && (sel.Sel.Name == "Unmarshal" || sel.Sel.Name == "NewDecoder") {
					bad = append(bad, rel+": json."+sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("decode through protocol.Unmarshal (duplicate keys refused):\n%s", strings.Join(bad, "\n"))
	}
}
