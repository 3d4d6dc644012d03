package rules

import (
	"strings"
	"testing"
)

// screen splits a sample screen written as one string into rows.
func screenOf(s string) []string { return strings.Split(strings.TrimPrefix(s, "\n"), "\n") }

const claudeWorking = `
⏺ I'll look at the failing test first.

⏺ Read(internal/app/app_test.go)
  ⎿  Read 212 lines

✻ Pondering… (12s · ↓ 1.2k tokens · esc to interrupt)

────────────────────────────────────────
❯ 
────────────────────────────────────────
  ⏵⏵ accept edits on (shift+tab to cycle)
`

const claudeBashPrompt = `
⏺ Bash(rm -rf build/)
  ⎿  Running…

────────────────────────────────────────
 Bash command

   rm -rf build/
   Remove the build directory

 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and don't ask again for rm commands in /home/u/proj
   3. No, and tell Claude what to do differently (esc)
`

const claudeEditPrompt = `
────────────────────────────────────────
 Edit file
 src/main.go
 ...
 Do you want to make this edit to main.go?
 ❯ 1. Yes
   2. Yes, allow all edits during this session (shift+tab)
   3. No, and tell Claude what to do differently (esc)
`

const claudeIdle = `
⏺ All 42 tests pass.

✻ Worked for 1m 12s

────────────────────────────────────────
❯ 
────────────────────────────────────────
  ? for shortcuts
`

const claudeTranscript = `
⏺ Read(x)
  Showing detailed transcript · ctrl+o to toggle
`

const codexWorking = `
› fix the flaky test

• Explored
  └ Read app_test.go

• Working (14s • esc to interrupt)

› Improve documentation in @filename

  ⏎ send   ⌃J newline   ⌃T transcript   ⌃C quit
`

const codexApproval = `
› remove the build dir

• I need to remove the build directory.

  Would you like to run the following command?

  $ rm -rf build/

› 1. Yes, proceed (y)
  2. Yes, and don't ask again for this command (a)
  3. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel
`

const codexIdle = `
› fix the flaky test

• Fixed the race in app_test.go; all tests pass.

› Ask Codex to do anything

  ? for shortcuts                                   97% context left
`

const opencodeWorking = `
  ┃  fix the tests
  ┃
     Read internal/app/app_test.go
     Edit internal/app/app.go

  ┃
  ┃  Build  claude-sonnet-4 Anthropic
  ■■■■⬝⬝⬝⬝  esc interrupt
`

const opencodeBlocked = `
  △ Permission required
    $ rm -rf build/

  ┃  Allow once   Allow always   Reject
`

const opencodeIdle = `
  ┃  fix the tests
     All tests pass.

  ┃
  ┃  Build  claude-sonnet-4 Anthropic
  ~/proj:main                          tab agents  ctrl+p commands
`

const geminiWorking = `
✦ I will read the file first.

 ╭──────────────────────────────────────╮
 │ ✓  ReadFile app_test.go              │
 ╰──────────────────────────────────────╯
⠼ Analyzing the failure (esc to cancel, 8s)

╭──────────────────────────────────────────╮
│ >   Type your message or @path/to/file   │
╰──────────────────────────────────────────╯
~/proj (main*)      no sandbox      gemini-2.5-pro (98% context left)
`

const geminiBlocked = `
╭──────────────────────────────────────────────╮
│ ?  Shell rm -rf build/                        │
│                                               │
│ Allow execution of: 'rm'?                     │
│                                               │
│ ● 1. Yes, allow once                          │
│   2. Yes, allow always ...                    │
│   3. No, suggest changes (esc)                │
╰──────────────────────────────────────────────╯
⠏ Waiting for user confirmation...
`

const geminiIdle = `
✦ All tests pass now.

╭──────────────────────────────────────────╮
│ >   Type your message or @path/to/file   │
╰──────────────────────────────────────────╯
~/proj (main*)      no sandbox      gemini-2.5-pro (97% context left)
`

const cursorWorking = `
  ⬢ Read app_test.go

  ⬡ Generating.  1.2k tokens
 ┌──────────────────────────────────────┐
 │ → Add a follow-up                    │
 └──────────────────────────────────────┘
  Claude 4 Sonnet · 12%
  ctrl+c to stop
`

const cursorBlocked = `
  $ rm -rf build/ in ~/proj

 Run this command?
  → Run (once) (y)
    Skip (esc or n)
`

const cursorIdle = `
  All tests pass.

 ┌──────────────────────────────────────┐
 │ → Add a follow-up                    │
 └──────────────────────────────────────┘
  Claude 4 Sonnet · 12%
  / commands · @ files · ! shell
`

const copilotWorking = `
● Read app_test.go
  └ 212 lines read

◉ Thinking (Esc to cancel)

 ~/proj [main]                                   claude-sonnet-4.5
 ──────────────────────────────────────────────────────────────────
 >
 ──────────────────────────────────────────────────────────────────
`

const copilotBlocked = `
 ╭──────────────────────────────────────────────────────────╮
 │ Run command                                               │
 │   rm -rf build/                                           │
 │ Do you want to run this command?                          │
 │ ❯ 1. Yes                                                  │
 │   2. Yes, and approve rm for the rest of the session      │
 │   3. No, and tell Copilot what to do differently (Esc)    │
 │ Confirm with number keys or ↑↓ keys and Enter, Cancel with Esc │
 ╰──────────────────────────────────────────────────────────╯
`

const copilotIdle = `
● All tests pass.

 ~/proj [main]                                   claude-sonnet-4.5
 ──────────────────────────────────────────────────────────────────
 >  Enter @ to mention files or / for commands
 ──────────────────────────────────────────────────────────────────
`

const ampWorking = `
  ✓ Read app_test.go
  ≋ Thinking

╭──────────────────────────────────────────╮
│                                          │
╰──────────────────────────────────────────╯
  Esc to cancel
`

const ampBlocked = `
  Run this command?
  $ rm -rf build/

  Waiting for approval...
  [Approve]  [Allow All]  [Deny]
`

const ampIdle = `
  All tests pass.

╭──────────────────────────────────────────╮
│                                          │
╰──────────────────────────────────────────╯
  ctrl+o for help
`

const piWorking = `
 > fix the tests

 read app_test.go

 ⠋ Working... (esc to interrupt)

 ────────────────────────────────────────
 ~/proj (main)                 claude-sonnet-4
`

const piBlocked = `
 bash: rm -rf build/
 Allow this command? [y/n]
`

const piIdle = `
 > fix the tests

 All tests pass.

 ────────────────────────────────────────
 ~/proj (main)   ↑12k ↓3k   claude-sonnet-4
`

func TestBundled_Screens(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		agent  string
		name   string
		screen string
		title  string
		prog   string
		state  State
		rule   string // expected winning rule; "" is the idle fallback
	}{
		{"claude", "working screen", claudeWorking, "", "", StateWorking, "live_turn_working"},
		{"claude", "working title", claudeIdle, "⠐ Fixing tests", "", StateWorking, "osc_title_working"},
		{"claude", "bash permission", claudeBashPrompt, "", "", StateBlocked, "bash_permission_prompt"},
		{"claude", "edit permission", claudeEditPrompt, "", "", StateBlocked, "generic_permission_prompt"},
		{"claude", "idle prompt box", claudeIdle, "✳ Claude Code", "", StateIdle, "live_prompt_box"},
		{"claude", "idle title only", "⏺ Done.", "✳ Claude Code", "", StateIdle, "osc_title_idle"},
		{"claude", "idle progress only", "⏺ Done.", "", "4;0", StateIdle, "osc_progress_idle"},
		{"claude", "transcript viewer", claudeTranscript, "", "", StateUnknown, "transcript_viewer"},
		{"codex", "working", codexWorking, "", "", StateWorking, "status_line_working"},
		{"codex", "working title", codexIdle, "⠙ proj", "", StateWorking, "osc_title_working"},
		{"codex", "approval", codexApproval, "", "", StateBlocked, "approval_prompt"},
		{"codex", "action required title", codexWorking, "Action Required: proj", "", StateBlocked, "osc_title_action_required"},
		{"codex", "idle", codexIdle, "", "", StateIdle, "composer_idle"},
		{"opencode", "working", opencodeWorking, "", "", StateWorking, "turn_working"},
		{"opencode", "blocked", opencodeBlocked, "", "", StateBlocked, "permission_required"},
		{"opencode", "idle", opencodeIdle, "", "", StateIdle, "composer_idle"},
		{"gemini", "working", geminiWorking, "", "", StateWorking, "loading_indicator"},
		{"gemini", "blocked", geminiBlocked, "", "", StateBlocked, "tool_confirmation"},
		{"gemini", "idle", geminiIdle, "", "", StateIdle, "composer_idle"},
		{"cursor", "working", cursorWorking, "", "", StateWorking, "turn_working"},
		{"cursor", "blocked", cursorBlocked, "", "", StateBlocked, "approval_prompt"},
		{"cursor", "idle", cursorIdle, "", "", StateIdle, "composer_idle"},
		{"copilot", "working", copilotWorking, "", "", StateWorking, "turn_working"},
		{"copilot", "blocked", copilotBlocked, "", "", StateBlocked, "approval_prompt"},
		{"copilot", "idle", copilotIdle, "", "", StateIdle, "composer_idle"},
		{"amp", "working", ampWorking, "", "", StateWorking, "turn_working"},
		{"amp", "blocked", ampBlocked, "", "", StateBlocked, "approval_prompt"},
		{"amp", "idle", ampIdle, "", "", StateIdle, "composer_idle"},
		{"pi", "working", piWorking, "", "", StateWorking, "working_indicator"},
		{"pi", "blocked", piBlocked, "", "", StateBlocked, "confirmation_dialog"},
		{"pi", "idle", piIdle, "", "", StateIdle, "footer_idle"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.name, func(t *testing.T) {
			m, ok := all[tt.agent]
			if !ok {
				t.Fatalf("no bundled manifest for %s", tt.agent)
			}
			r := m.Evaluate(Input{Lines: screenOf(tt.screen), Title: tt.title, Progress: tt.prog})
			got := ""
			if r.Matched != nil {
				got = r.Matched.ID
			}
			if r.State != tt.state || got != tt.rule {
				var b strings.Builder
				for _, e := range r.Evaluated {
					if e.Matched {
						b.WriteString(" " + e.ID)
					}
				}
				t.Fatalf("state %q by %q, want %q by %q; matched:%s", r.State, got, tt.state, tt.rule, b.String())
			}
		})
	}
}

func TestBundled_AllCompile(t *testing.T) {
	all, err := BundledManifests()
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"claude", "codex", "opencode", "gemini", "cursor", "copilot", "amp", "pi"} {
		m, ok := all[agent]
		if !ok {
			t.Errorf("missing bundled manifest %s", agent)
			continue
		}
		if m.ID() != agent || m.Version() == "" || m.MinEngineVersion() > EngineVersion {
			t.Errorf("%s: id %q version %q engine %d", agent, m.ID(), m.Version(), m.MinEngineVersion())
		}
	}
}
