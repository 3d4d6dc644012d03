package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestParse_BindingLists: every combo of a list is bound; a bad one is
// reported and left out while the others stay (as Herdr does), and a list
// with none left keeps the default.
func TestParse_BindingLists(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
		diag        string
	}{
		{"two prefix combos", "[keys]\nsplit_vertical = [\"prefix+v\", \"prefix+|\"]\n", []string{"prefix+v", "prefix+|"}, ""},
		{"a direct combo with a modifier", "[keys]\nsplit_vertical = [\"prefix+v\", \"alt+|\"]\n", []string{"prefix+v", "alt+|"}, ""},
		{"one bad combo", "[keys]\nsplit_vertical = [\"v\", \"prefix+|\"]\n", []string{"prefix+|"},
			`keys.split_vertical: "v" would swallow typing; use "prefix+v" or add ctrl, alt or cmd; left out`},
		{"all bad", "[keys]\nsplit_vertical = [\"v\", \"|\"]\n", []string{"prefix+v"},
			`keys.split_vertical: "v" would swallow typing; use "prefix+v" or add ctrl, alt or cmd; using the default`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags, _ := Parse([]byte(tt.input))
			if got := cfg.Keys.Bindings["split_vertical"]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("split_vertical = %q, want %q", got, tt.want)
			}
			switch {
			case tt.diag == "" && len(diags) != 0:
				t.Errorf("diagnostics %q, want none", diags)
			case tt.diag != "" && (len(diags) != 1 || !strings.HasPrefix(diags[0], tt.diag)):
				t.Errorf("diagnostics %q, want one starting %q", diags, tt.diag)
			}
		})
	}
}
