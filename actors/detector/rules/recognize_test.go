package rules

import "testing"

func TestRecognize(t *testing.T) {
	p := func(argv ...string) Process { return Process{Argv: argv} }
	leader := func(argv ...string) Process { return Process{Argv: argv, Leader: true} }
	tests := []struct {
		name  string
		procs []Process
		want  string
		ok    bool
	}{
		{"plain binary", []Process{p("claude")}, "claude", true},
		{"absolute path", []Process{p("/usr/local/bin/codex", "--model", "x")}, "codex", true},
		{"uppercase exe", []Process{p(`C:\Tools\Claude.EXE`)}, "claude", true},
		{"cmd shim", []Process{p("opencode.cmd")}, "opencode", true},
		{"alias claude-code", []Process{p("claude-code")}, "claude", true},
		{"alias cursor-agent", []Process{p("/home/u/.local/bin/cursor-agent")}, "cursor", true},
		{"alias antigravity-cli", []Process{p("antigravity-cli")}, "agy", true},
		{"alias ghcs", []Process{p("ghcs")}, "copilot", true},
		{"alias qodercn", []Process{p("qodercn")}, "qodercli", true},
		{"alias open-code", []Process{p("open-code")}, "opencode", true},
		{"node script", []Process{p("node", "/usr/bin/gemini")}, "gemini", true},
		{"node flags skipped", []Process{p("node", "--no-warnings", "--enable-source-maps", "/opt/bin/pi")}, "pi", true},
		{"node npm claude", []Process{p("node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js")}, "claude", true},
		{"node npm codex", []Process{p("node", "/home/u/.npm-global/lib/node_modules/@openai/codex/bin/codex.js")}, "codex", true},
		{"npm native codex", []Process{p("/usr/lib/node_modules/@openai/codex/vendor/x86_64/codex/codex-x86_64-unknown-linux-musl")}, "codex", true},
		{"node npm opencode", []Process{p("node", "/x/node_modules/opencode-ai/bin/opencode")}, "opencode", true},
		{"node npm gemini", []Process{p("node", "/x/node_modules/@google/gemini-cli/dist/index.js")}, "gemini", true},
		{"node npm copilot", []Process{p("node", "/x/node_modules/@github/copilot/index.js")}, "copilot", true},
		{"node npm amp", []Process{p("node", "/x/node_modules/@sourcegraph/amp/dist/main.js")}, "amp", true},
		{"node npm pi", []Process{p("node", "/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js")}, "pi", true},
		{"windows npm path", []Process{p("node.exe", `C:\npm\node_modules\@anthropic-ai\claude-code\cli.js`)}, "claude", true},
		{"bun run", []Process{p("bun", "run", "/x/amp.js")}, "amp", true},
		{"versioned python", []Process{p("/usr/bin/python3.12", "-u", "/opt/hermes-agent")}, "hermes", true},
		{"bash script", []Process{p("bash", "/home/u/bin/droid")}, "droid", true},
		{"node -e stops", []Process{p("node", "-e", "claude")}, "", false},
		{"bash -c stops", []Process{p("bash", "-c", "codex")}, "", false},
		{"python -m stops", []Process{p("python3", "-m", "claude")}, "", false},
		{"plain shell", []Process{p("bash")}, "", false},
		{"shell with flags", []Process{p("-zsh", "-l")}, "", false},
		{"unknown program", []Process{p("vim", "claude")}, "", false},
		{"empty argv", []Process{{}}, "", false},
		{"no processes", nil, "", false},
		{"env hint", []Process{{Argv: []string{"bash"}, Env: map[string]string{"HERDR_AGENT": "Claude-Code"}}}, "claude", true},
		{"env hint unknown agent kept", []Process{{Argv: []string{"bash"}, Env: map[string]string{"HERDR_AGENT": "MyBot"}}}, "mybot", true},
		{"env hint beats name", []Process{{Argv: []string{"codex"}, Env: map[string]string{"HERDR_AGENT": "pi"}}}, "pi", true},
		{"leader wins over first", []Process{p("codex"), leader("claude")}, "claude", true},
		{"leader unrecognised, first wins", []Process{leader("bash"), p("rg"), p("gemini"), p("codex")}, "gemini", true},
		{"hinted process beats named one", []Process{p("codex"), {Argv: []string{"sh"}, Env: map[string]string{"HERDR_AGENT": "amp"}}}, "amp", true},
		{"leader name beats other's hint", []Process{{Argv: []string{"sh"}, Env: map[string]string{"HERDR_AGENT": "amp"}}, leader("codex")}, "codex", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Recognize(tt.procs)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("Recognize = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	tests := map[string]string{
		"claude-code": "claude", "Kimi-Code": "kimi", " kiro-cli ": "kiro", "hermes-agent": "hermes",
		"kilo-code": "kilo", "grok-build": "grok", "mastra-code": "mastracode", "devin-cli": "devin",
		"claude": "claude", "MyAgent": "myagent", "qoder": "qodercli", "opencode2": "opencode",
	}
	for in, want := range tests {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
