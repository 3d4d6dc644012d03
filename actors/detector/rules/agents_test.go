package rules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// agentRules names, per agent, the rule its sample working, blocked and idle
// screens (testdata/screens/<agent>/<state>.txt) must be decided by. The end
// to end test in tests/ plays the same files through fake agents in real
// panes, so the screens are written once.
var agentRules = map[string]map[State]string{
	"pi":         {StateWorking: "working_indicator", StateBlocked: "confirmation_dialog", StateIdle: "footer_idle"},
	"claude":     {StateWorking: "live_turn_working", StateBlocked: "bash_permission_prompt", StateIdle: "live_prompt_box"},
	"codex":      {StateWorking: "status_line_working", StateBlocked: "approval_prompt", StateIdle: "composer_idle"},
	"gemini":     {StateWorking: "loading_indicator", StateBlocked: "tool_confirmation", StateIdle: "composer_idle"},
	"cursor":     {StateWorking: "turn_working", StateBlocked: "approval_prompt", StateIdle: "composer_idle"},
	"devin":      {StateWorking: "running_tools_working", StateBlocked: "permission_prompt", StateIdle: "prompt_footer_idle"},
	"agy":        {StateWorking: "spinner_working", StateBlocked: "permission_prompt", StateIdle: "prompt_box_idle"},
	"cline":      {StateWorking: "default_working", StateBlocked: "tool_permission", StateIdle: "ready_for_message_idle"},
	"omp":        {StateWorking: "working_loader", StateBlocked: "confirmation_dialog", StateIdle: "footer_idle"},
	"mastracode": {StateWorking: "working_loader", StateBlocked: "tool_approval_dialog", StateIdle: "status_line_idle"},
	"opencode":   {StateWorking: "turn_working", StateBlocked: "permission_required", StateIdle: "composer_idle"},
	"copilot":    {StateWorking: "turn_working", StateBlocked: "approval_prompt", StateIdle: "composer_idle"},
	"kimi":       {StateWorking: "braille_status_working", StateBlocked: "approval_panel", StateIdle: "input_box_idle"},
	"kiro":       {StateWorking: "working_status", StateBlocked: "tool_approval", StateIdle: "prompt_idle"},
	"droid":      {StateWorking: "stop_hint_working", StateBlocked: "execute_approval", StateIdle: "composer_idle"},
	"amp":        {StateWorking: "turn_working", StateBlocked: "approval_prompt", StateIdle: "composer_idle"},
	"grok":       {StateWorking: "spinner_stop_chip_working", StateBlocked: "option_dialog_blocked", StateIdle: "shortcuts_footer_idle"},
	"hermes":     {StateWorking: "interrupt_prompt_working", StateBlocked: "dangerous_command_approval", StateIdle: "bare_prompt_idle"},
	"kilo":       {StateWorking: "esc_interrupt_working", StateBlocked: "permission_required", StateIdle: "composer_idle"},
	"qodercli":   {StateWorking: "cancel_hint_working", StateBlocked: "confirmation_blocker", StateIdle: "input_box_idle"},
	"maki":       {StateWorking: "status_bar_spinner_working", StateBlocked: "permission_prompt", StateIdle: "status_bar_idle"},
	"qwen":       {StateWorking: "cancel_hint_working", StateBlocked: "waiting_for_confirmation", StateIdle: "composer_idle"},
}

// quietIdle lists agents whose idle rule does not claim visible idle chrome:
// Kimi keeps its input box on screen while it works, as Herdr notes.
var quietIdle = map[string]bool{"kimi": true}

// herdrAgents is the list of agents Herdr recognises, in its order.
var herdrAgents = []string{
	"pi", "claude", "codex", "gemini", "cursor", "devin", "agy", "cline", "omp", "mastracode",
	"opencode", "copilot", "kimi", "kiro", "droid", "amp", "grok", "hermes", "kilo", "qodercli", "maki", "qwen",
}

// readScreen loads one sample screen as rows.
func readScreen(t *testing.T, agent string, state State) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "screens", agent, string(state)+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func knownIDs() []string {
	ids := make([]string, 0, len(knownAgents))
	for id := range knownAgents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func TestKnownAgents_AreHerdrs(t *testing.T) {
	if len(knownAgents) != len(herdrAgents) {
		t.Errorf("%d known agents, Herdr recognises %d", len(knownAgents), len(herdrAgents))
	}
	for _, a := range herdrAgents {
		if !Known(a) {
			t.Errorf("%s is not recognised", a)
		}
	}
}

// A newly recognised agent without rules, sample screens or expectations
// fails here rather than silently falling back to idle.
func TestKnownAgents_HaveManifestsAndScreens(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range knownIDs() {
		if _, ok := all[a]; !ok {
			t.Errorf("%s: no bundled manifest", a)
		}
		if _, ok := agentRules[a]; !ok {
			t.Errorf("%s: no expected rules in agentRules", a)
		}
		for _, s := range []State{StateWorking, StateBlocked, StateIdle} {
			if _, err := os.Stat(filepath.Join("testdata", "screens", a, string(s)+".txt")); err != nil {
				t.Errorf("%s: no %s sample screen: %v", a, s, err)
			}
		}
	}
	for a := range all {
		if !knownAgents[a] {
			t.Errorf("manifest %s.toml names no recognised agent", a)
		}
	}
}

func TestAgentScreens(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range knownIDs() {
		for _, state := range []State{StateWorking, StateBlocked, StateIdle} {
			t.Run(agent+"/"+string(state), func(t *testing.T) {
				m, ok := all[agent]
				if !ok {
					t.Fatalf("no manifest")
				}
				want := agentRules[agent][state]
				res := m.Evaluate(Input{Lines: readScreen(t, agent, state)})
				e := Explain(agent, m, res)
				if e.State != string(state) || e.MatchedRule == nil || e.MatchedRule.ID != want {
					t.Fatalf("explain: state %q rule %+v, want %q by %q; matched: %s", e.State, e.MatchedRule, state, want, matchedIDs(res))
				}
				if e.MatchedRule.State != string(state) || e.FallbackReason != nil {
					t.Fatalf("explain: matched rule %+v, fallback %v", e.MatchedRule, e.FallbackReason)
				}
				visible := map[State]bool{StateWorking: e.VisibleWorking, StateBlocked: e.VisibleBlocker, StateIdle: e.VisibleIdle}
				wantVisible := state != StateIdle || !quietIdle[agent]
				if visible[state] != wantVisible {
					t.Errorf("visible %s = %v, want %v", state, visible[state], wantVisible)
				}
				for s, v := range visible {
					if s != state && v {
						t.Errorf("visible %s set on a %s screen", s, state)
					}
				}
			})
		}
	}
}

func matchedIDs(r Result) string {
	var ids []string
	for _, e := range r.Evaluated {
		if e.Matched {
			ids = append(ids, e.ID)
		}
	}
	return strings.Join(ids, " ")
}

// Screens that look like a state to a careless rule but are not, plus the
// variants and OSC signals the sample files do not show.
func TestAgentScreens_Edges(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		agent, name, screen, title, progress string
		state                                State
		rule                                 string // "" is the idle fallback
	}{
		// The reported bug: droid's approval showed as idle. The composer
		// box may still be drawn above the prompt; the prompt wins.
		{"droid", "approval under composer", "╭────╮\n│ >  │\n╰────╯\n? for help\n   EXECUTE  (mkdir -p out, impact: low)\n│ > Yes, allow │\n│   No, cancel │\n   Use ↑↓ to navigate, Enter to select, Esc to cancel", "", "", StateBlocked, "execute_approval"},
		{"droid", "compact menu", "Allow edit to app.go?\n> Yes\n  No\n↑/↓ navigate · enter select · esc cancel", "", "", StateBlocked, "selection_menu"},
		{"droid", "options quoted in prose", "The user said > Yes, allow the changes", "", "", StateIdle, ""},
		{"devin", "trust prompt", "Do you trust the authors of this directory?\nwith untrusted content.\n❭ 1 Yes, trust /tmp/x\n· 2 No, exit", "", "", StateBlocked, "workspace_trust_prompt"},
		{"devin", "guide placeholder", "⏺ Editing app.go\n─────\n❭ Guide Devin while it works", "", "", StateWorking, "guide_while_working"},
		{"agy", "background task", "Done.\n? for shortcuts     Gemini 3.5 Flash (High) · 2 tasks · /tasks", "", "", StateWorking, "background_tasks_working"},
		{"agy", "question without permission request", "Do you want to proceed?\n>", "", "", StateIdle, ""},
		{"cline", "mode banner with unrelated yes", "[act mode]\nPrevious answer was yes.", "", "", StateWorking, "default_working"},
		{"kimi", "moon spinner", "✨ hi\n\n🌗\n\n── input ─────", "", "", StateWorking, "moon_spinner_working"},
		{"kimi", "legacy approval", "⠋ Using Shell (ls)\nShell is requesting approval to run command:\n→ [1] Approve once\n[2] Approve for this session\n[3] Reject\n1/2/3/4 choose  ↵ confirm", "", "", StateBlocked, "legacy_approval_panel"},
		{"kimi", "approval words alone", "approve?\ncontinue? [y/n]", "", "", StateIdle, ""},
		{"kiro", "subagent approvals", "● Orchestrating (1 agent)\n ⚠ 3 tool approvals pending from subagents\n ❯ (a) Approve all pending\n   (c) Configure individually (agent monitor)", "", "", StateBlocked, "subagent_approval"},
		{"kiro", "tool spinner", "◕ Shell\n  esc to cancel\n─────\nKiro · auto · ◔ 6%", "", "", StateWorking, "tool_spinner_working"},
		{"grok", "title action required", "", "⚠ Action Required - grok", "", StateBlocked, "osc_title_blocked"},
		{"grok", "busy progress", "", "", "4;1;-1", StateWorking, "osc_progress_working"},
		{"grok", "idle title", "", "fix tests - grok", "", StateIdle, "osc_title_idle"},
		{"grok", "spinner title", "", "⠋ fix tests - grok", "", StateWorking, "osc_title_working"},
		{"grok", "braille splash without stop chip", "⣴⣾⣶⡄ grok\n⠛⠿⠟⠃ build", "", "", StateIdle, ""},
		{"hermes", "title needs you", "", "⚠ hermes", "", StateBlocked, "osc_title_blocked"},
		{"hermes", "title working", "", "⏳ hermes", "", StateWorking, "osc_title_working"},
		{"hermes", "title done", "", "✓ hermes", "", StateIdle, "osc_title_idle"},
		{"kilo", "question dialog", "Write the joke to ~/joke.md?\n1. Yes, write it\n2. No\n↑↓ select  enter submit  esc dismiss", "", "", StateBlocked, "question_dialog"},
		{"qodercli", "confirmation heading alone", "Waiting for user confirmation...", "", "", StateIdle, ""},
		{"qodercli", "spinner row", "⠋ Thinking...", "", "", StateWorking, "spinner_row_working"},
		{"qodercli", "stray braille glyph", "finished.\n⠋\n> ", "", "", StateIdle, ""},
		{"qwen", "title waiting, any locale", "", "✳ Qwen Code", "", StateBlocked, "osc_title_blocked"},
		{"qwen", "title waiting, text presentation", "", "✳\uFE0E Qwen Code", "", StateBlocked, "osc_title_blocked"},
		{"qwen", "title working over the composer", "│ >   Type your message or @path/to/file │", "◐ Qwen Code", "", StateWorking, "osc_title_working"},
		{"qwen", "title glyph inside a name", "", "notes ✳ Qwen Code", "", StateIdle, ""},
		{"qwen", "confirmation in Chinese", "│ ● 1. 是，允许一次 │\n⠏ 等待用户确认...", "", "", StateBlocked, "waiting_for_confirmation"},
		{"qwen", "confirmation in German", "⠋ Warten auf Benutzerbestätigung...", "", "", StateBlocked, "waiting_for_confirmation"},
		{"qwen", "confirmation words in prose", "✦ I printed Waiting for user confirmation... in the log.\n│ >   Type your message or @path/to/file │", "", "", StateIdle, "composer_idle"},
		{"qwen", "approval box without the spinner line", "Apply this change?\n● 1. Yes, allow once\n  2. No, suggest changes (esc)", "", "", StateBlocked, "tool_confirmation"},
		{"qwen", "older cancel hint", "⠼ Thinking (esc to cancel, 3s)\n│ > Type your message │", "", "", StateWorking, "cancel_hint_working"},
		{"qwen", "narrow cancel hint", "(1m 4s · esc to cancel)", "", "", StateWorking, "cancel_hint_working"},
		{"qwen", "tool progress", "", "", "4;3", StateWorking, "osc_tool_progress_working"},
		{"maki", "plan complete form", "Plan complete\n1. Build it\nenter confirm · space toggle parallel\n [PLAN] model", "", "", StateBlocked, "plan_complete_form"},
		{"mastracode", "loader without status line", "⠹ Working...", "", "", StateWorking, "working_loader"},
		{"omp", "yes/no question", "Overwrite app.go? [y/N]", "", "", StateBlocked, "confirmation_dialog"},
		{"pi", "footer under a loader", " ⠋ Working...\n ~/p   ↑1k ↓2k   m", "", "", StateWorking, "working_indicator"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.name, func(t *testing.T) {
			m := all[tt.agent]
			if m == nil {
				t.Fatalf("no manifest")
			}
			var lines []string
			if tt.screen != "" {
				lines = strings.Split(tt.screen, "\n")
			}
			res := m.Evaluate(Input{Lines: lines, Title: tt.title, Progress: tt.progress})
			got := ""
			if res.Matched != nil {
				got = res.Matched.ID
			}
			if res.State != tt.state || got != tt.rule {
				t.Fatalf("state %q by %q, want %q by %q; matched: %s", res.State, got, tt.state, tt.rule, matchedIDs(res))
			}
			if tt.rule == "" && res.FallbackReason != FallbackKnownAgentIdle {
				t.Fatalf("fallback reason %q", res.FallbackReason)
			}
		})
	}
}

// Every spelling Herdr accepts for an agent, as a process name and as a
// label, resolves to the agent and to its manifest.
func TestRecognize_HerdrSpellings(t *testing.T) {
	spellings := map[string]string{
		"pi": "pi", "claude": "claude", "claude-code": "claude", "codex": "codex", "gemini": "gemini",
		"cursor": "cursor", "cursor-agent": "cursor", "devin": "devin", "devin-cli": "devin", "devin cli": "devin",
		"agy": "agy", "antigravity": "agy", "antigravity-cli": "agy", "cline": "cline", "omp": "omp",
		"mastracode": "mastracode", "mastra-code": "mastracode", "mastra code": "mastracode",
		"opencode": "opencode", "opencode2": "opencode", "open-code": "opencode",
		"copilot": "copilot", "github-copilot": "copilot", "ghcs": "copilot",
		"kimi": "kimi", "kimi-code": "kimi", "kimi code": "kimi", "kiro": "kiro", "kiro-cli": "kiro",
		"droid": "droid", "amp": "amp", "amp-local": "amp", "grok": "grok", "grok-build": "grok",
		"hermes": "hermes", "hermes-agent": "hermes", "kilo": "kilo", "kilo-code": "kilo", "kilo code": "kilo",
		"qodercli": "qodercli", "qoderclicn": "qodercli", "qoder": "qodercli", "qodercn": "qodercli", "maki": "maki",
		"qwen": "qwen", "qwen-code": "qwen", "qwen code": "qwen",
	}
	c, warnings := LoadCatalog("")
	if len(warnings) != 0 {
		t.Fatalf("bundled catalog warnings: %v", warnings)
	}
	for name, want := range spellings {
		if got, ok := Recognize([]Process{{Argv: []string{"/opt/bin/" + name}}}); !ok || got != want {
			t.Errorf("Recognize(%q) = %q, %v; want %q", name, got, ok, want)
		}
		if got, ok := Recognize([]Process{{Argv: []string{"node", "/opt/lib/" + strings.ToUpper(name) + ".js"}}}); !ok || got != want {
			t.Errorf("Recognize(node %q) = %q, %v; want %q", name, got, ok, want)
		}
		m, ok := c.Get(name)
		if !ok || m.ID() != want {
			t.Errorf("catalog Get(%q) = %v, %v; want the %s manifest", name, m, ok, want)
		}
	}
	if got, ok := Recognize([]Process{{Argv: []string{"node", "/x/node_modules/@earendil-works/pi-coding-agent/dist/cli.js"}}}); !ok || got != "pi" {
		t.Errorf("pi under its newer npm scope = %q, %v", got, ok)
	}
	if got, ok := Recognize([]Process{{Argv: []string{"node", "/x/node_modules/@qwen-code/qwen-code/dist/index.js"}}}); !ok || got != "qwen" {
		t.Errorf("qwen under node = %q, %v", got, ok)
	}
	for _, a := range herdrAgents {
		if _, ok := spellings[a]; !ok {
			t.Errorf("%s missing from the spelling table", a)
		}
	}
}

// An agent-owned viewer keeps the previous state; explain says which rule
// asked for that, in Herdr's "matched_rule:<id>" form.
func TestExplain_SkippedUpdateReason(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	m := all["claude"]
	e := Explain("claude", m, m.Evaluate(Input{Lines: []string{"⏺ Read(x)", "  Showing detailed transcript · ctrl+o to toggle"}}))
	if !e.SkipStateUpdate || e.SkippedUpdateReason == nil || *e.SkippedUpdateReason != "matched_rule:transcript_viewer" {
		t.Fatalf("skip %v reason %v", e.SkipStateUpdate, e.SkippedUpdateReason)
	}
	if e := Explain("claude", m, m.Evaluate(Input{Lines: readScreen(t, "claude", StateIdle)})); e.SkippedUpdateReason != nil {
		t.Fatalf("idle screen has a skip reason %q", *e.SkippedUpdateReason)
	}
}
