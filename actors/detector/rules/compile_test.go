package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const header = "id = \"t\"\nversion = \"1\"\nmin_engine_version = 3\n"

// ruleTOML returns a [[rules]] block with the given extra lines.
func ruleTOML(id string, extra ...string) string {
	return fmt.Sprintf("[[rules]]\nid = %q\nstate = \"idle\"\n%s\n", id, strings.Join(extra, "\n"))
}

// nested builds a gate chain of the given depth below a rule.
func nested(depth int) string {
	s := `{ contains = ["x"] }`
	for i := 1; i < depth; i++ {
		s = fmt.Sprintf(`{ contains = ["x"], all = [%s] }`, s)
	}
	return "all = [" + s + "]"
}

func manyMatchers(n int) string {
	q := make([]string, n)
	for i := range q {
		q[i] = fmt.Sprintf("%q", fmt.Sprint("m", i))
	}
	return "contains = [" + strings.Join(q, ",") + "]"
}

func TestCompile_Valid(t *testing.T) {
	src := header + "updated_at = 2026-08-04\naliases = [\"tt\"]\n" +
		ruleTOML("a", `contains = ["Hello"]`, `priority = 7`, `region = "bottom_lines( 5 )"`) +
		ruleTOML("b", `regex = ['(?i)x']`, `line_regex = ['^y']`, `any = [{contains=["z"]}]`, `not = [{contains=["w"]}]`) +
		"[[rules]]\nid = \"c\"\nstate = \"unknown\"\nskip_state_update = true\ncontains = [\"v\"]\n" +
		ruleTOML("d", nested(MaxDepth-1))
	m, err := Compile([]byte(src), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID() != "t" || m.Version() != "1" || m.MinEngineVersion() != 3 || m.UpdatedAt() != "2026-08-04" || m.Source() != "t.toml" {
		t.Fatalf("header = %q %q %d %q %q", m.ID(), m.Version(), m.MinEngineVersion(), m.UpdatedAt(), m.Source())
	}
	if !m.Matches("TT") || m.Matches("other") {
		t.Fatal("Matches does not follow id and aliases")
	}
	rules := m.Rules()
	want := []RuleInfo{
		{"a", 7, "bottom_lines(5)", StateIdle},
		{"b", 0, "whole_recent", StateIdle},
		{"c", 0, "whole_recent", StateUnknown},
		{"d", 0, "whole_recent", StateIdle},
	}
	if fmt.Sprint(rules) != fmt.Sprint(want) {
		t.Fatalf("Rules = %v, want %v", rules, want)
	}
}

func TestCompile_Errors(t *testing.T) {
	bigRules := header
	for i := 0; i <= MaxRules; i++ {
		bigRules += ruleTOML(fmt.Sprint("r", i), `contains = ["x"]`)
	}
	manyGates := header
	for i := 0; i < 20; i++ {
		gates := make([]string, 30)
		for j := range gates {
			gates[j] = `{contains=["x"]}`
		}
		manyGates += ruleTOML(fmt.Sprint("r", i), "any = ["+strings.Join(gates, ",")+"]")
	}
	manyTotal := header
	for i := 0; i < 33; i++ {
		manyTotal += ruleTOML(fmt.Sprint("r", i), manyMatchers(32))
	}
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"bad toml", "id = ", []string{"parse"}},
		{"unknown top key", header + "colour = 1\n" + ruleTOML("a", `contains=["x"]`), []string{"colour", "unknown key"}},
		{"unknown rule key", header + ruleTOML("a", `contains=["x"]`, `prio = 1`), []string{"rules.prio", "unknown key (line 8)"}},
		{"unknown gate key", header + ruleTOML("a", `any = [{contain=["x"]}]`), []string{"contain", "unknown key"}},
		{"missing id", "version = \"1\"\n" + ruleTOML("a", `contains=["x"]`), []string{"id: missing"}},
		{"missing version", "id = \"t\"\n" + ruleTOML("a", `contains=["x"]`), []string{"version: missing"}},
		{"newer engine", "id = \"t\"\nversion = \"1\"\nmin_engine_version = 4\n" + ruleTOML("a", `contains=["x"]`), []string{"min_engine_version", "engine 4"}},
		{"no rules", header, []string{"rules: no rules"}},
		{"too many rules", bigRules, []string{"129 rules"}},
		{"rule without id", header + "[[rules]]\nstate = \"idle\"\ncontains=[\"x\"]\n", []string{"rules[0]", "id: missing"}},
		{"duplicate id", header + ruleTOML("a", `contains=["x"]`) + ruleTOML("a", `contains=["y"]`), []string{`rules[1] "a"`, "duplicate"}},
		{"bad state", header + "[[rules]]\nid = \"a\"\nstate = \"busy\"\ncontains=[\"x\"]\n", []string{`rules[0] "a": state`, "busy"}},
		{"missing state", header + "[[rules]]\nid = \"a\"\ncontains=[\"x\"]\n", []string{"state: missing"}},
		{"bad region", header + ruleTOML("a", `contains=["x"]`, `region = "middle"`), []string{"region", "unknown region"}},
		{"region without count", header + ruleTOML("a", `contains=["x"]`, `region = "bottom_lines"`), []string{"region", "line count"}},
		{"region zero count", header + ruleTOML("a", `contains=["x"]`, `region = "bottom_lines(0)"`), []string{"region", "line count"}},
		{"bad regex", header + ruleTOML("bash_permission_prompt", `contains=["x"]`, `regex = ['(unclosed']`), []string{`rules[0] "bash_permission_prompt": regex[0]: invalid regex`}},
		{"bad line regex nested", header + ruleTOML("a", `any = [{contains=["x"]}, {line_regex=['x', '[z']}]`), []string{`any[1].line_regex[1]: invalid regex`}},
		{"no positive matcher", header + ruleTOML("a", `priority = 1`), []string{`rules[0] "a": matchers`, "positive matcher"}},
		{"not-only rule", header + ruleTOML("a", `not = [{contains=["x"]}]`), []string{"positive matcher"}},
		{"not-only gate", header + ruleTOML("a", `contains=["x"]`, `any = [{not=[{contains=["y"]}]}]`), []string{"any[0]", "positive matcher"}},
		{"empty matcher", header + ruleTOML("a", `contains=[""]`), []string{"contains[0]: empty"}},
		{"long matcher", header + ruleTOML("a", fmt.Sprintf("contains=[%q]", strings.Repeat("é", MaxMatcherChars+1))), []string{"contains[0]", "513 characters"}},
		{"too deep", header + ruleTOML("a", nested(MaxDepth)), []string{"nested deeper than 8"}},
		{"too many gates", manyGates, []string{"more than 512 gates"}},
		{"too many matchers in gate", header + ruleTOML("a", manyMatchers(MaxMatchersPerGate+1)), []string{"33 matchers in one gate"}},
		{"too many matchers", manyTotal, []string{"rules[32]", "more than 1024 matchers"}},
		{"skip with known state", header + "[[rules]]\nid = \"a\"\nstate = \"idle\"\nskip_state_update = true\ncontains=[\"x\"]\n", []string{"skip_state_update", "unknown"}},
		{"skip with visible flag", header + "[[rules]]\nid = \"a\"\nstate = \"unknown\"\nskip_state_update = true\nvisible_idle = true\ncontains=[\"x\"]\n", []string{"skip_state_update", "visible"}},
		{"priority not int", header + ruleTOML("a", `contains=["x"]`, `priority = "high"`), []string{"parse"}},
		{"empty alias", header + "aliases = [\"\"]\n" + ruleTOML("a", `contains=["x"]`), []string{"aliases[0]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile([]byte(tt.src), "t.toml")
			if err == nil {
				t.Fatalf("Compile succeeded (%d rules), want error", len(m.rules))
			}
			if !errors.Is(err, ErrInvalidManifest) {
				t.Errorf("error %v does not wrap ErrInvalidManifest", err)
			}
			if !strings.HasPrefix(err.Error(), "t.toml: ") {
				t.Errorf("error %q does not name the source", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
