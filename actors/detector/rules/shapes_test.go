package rules

import "testing"

// Claude Code shapes the three sample screens do not show, as recorded
// screens (testdata/screens/claude/*.txt) with the title the agent left: a
// permission prompt drawn inside a │ box, and a visible question under a
// spinner title that was never cleared. A visible question wins over the
// title; a question only quoted in prose does not block.
func TestClaudeScreens_BoxesAndStaleTitles(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	m := all["claude"]
	const spinner = "\u2802 Fix the build"
	tests := []struct {
		screen, title string
		state         State
		rule          string // "" is the idle fallback
	}{
		{"blocked_boxed", "", StateBlocked, "bash_permission_prompt"},
		{"blocked_boxed", spinner, StateBlocked, "bash_permission_prompt"},
		{"blocked", spinner, StateBlocked, "bash_permission_prompt"},
		{"blocked_edit_boxed", "", StateBlocked, "generic_permission_prompt"},
		{"blocked_edit_boxed", spinner, StateBlocked, "generic_permission_prompt"},
		// The title still speaks when the screen asks nothing.
		{"working", spinner, StateWorking, "osc_title_working"},
		{"idle", spinner, StateWorking, "osc_title_working"},
		{"idle_boxed_question_prose", "", StateIdle, ""},
	}
	for _, tc := range tests {
		t.Run(tc.screen+"/title="+tc.title, func(t *testing.T) {
			res := m.Evaluate(Input{Lines: readScreen(t, "claude", State(tc.screen)), Title: tc.title})
			e := Explain("claude", m, res)
			rule := ""
			if e.MatchedRule != nil {
				rule = e.MatchedRule.ID
			}
			if e.State != string(tc.state) || rule != tc.rule {
				t.Fatalf("state %q by %q, want %q by %q; matched: %s", e.State, rule, tc.state, tc.rule, matchedIDs(res))
			}
			if tc.state == StateBlocked && !e.VisibleBlocker {
				t.Errorf("a visible prompt is not a visible blocker")
			}
		})
	}
}
