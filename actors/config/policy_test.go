package config

import (
	"strings"
	"testing"
)

// [[policy]] entries decode with their limits; a bad one is reported and
// kept unusable (FindPolicy says why), never used with less than it says.
func TestPolicy_DecodeAndFind(t *testing.T) {
	cfg, diags, _ := Parse([]byte(`
[[policy]]
name = "reviewer"
read_only = true
workspaces = ["api", "w2"]
machines = ["local"]

[[policy]]
name = "panes"
methods = ["pane.*", "agent.list"]

[[policy]]
name = "typo"
methods = ["pane.reed"]

[[policy]]
name = "odd"
read_only = "yes"
methds = []

[[policy]]
name = "reviewer"

[[policy]]
read_only = true
`))
	p, err := cfg.FindPolicy("reviewer")
	if err != nil || !p.ReadOnly || len(p.Workspaces) != 2 || p.Machines[0] != LocalMachine || p.Methods != nil {
		t.Fatalf("reviewer: %+v %v", p, err)
	}
	if p, err := cfg.FindPolicy("panes"); err != nil || len(p.Methods) != 2 {
		t.Fatalf("panes: %+v %v", p, err)
	}
	for name, says := range map[string]string{
		"typo":    `no method "pane.reed" (did you mean pane.read?)`,
		"odd":     "read_only: expected a boolean",
		"missing": "policies: reviewer, panes, typo, odd",
	} {
		if _, err := cfg.FindPolicy(name); err == nil || !strings.Contains(err.Error(), says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("FindPolicy(%s): %v; want one line saying %q", name, err, says)
		}
	}
	joined := strings.Join(diags, "\n")
	for _, want := range []string{`policy "typo"`, "did you mean methods?", `policy "reviewer" is defined twice`, "policy[5]: name is missing"} {
		if !strings.Contains(joined, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, joined)
		}
	}
	if !MethodMatches("pane.*", "pane.graphics.info") || MethodMatches("pane.*", "agent.list") {
		t.Error("pane.* matches wrongly")
	}
}
