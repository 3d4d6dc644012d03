package rules

import (
	"fmt"
	"testing"
)

// benchScreen is a realistic 50-row Claude Code pane mid-turn.
func benchScreen() []string {
	var lines []string
	for i := 0; len(lines) < 38; i++ {
		lines = append(lines,
			fmt.Sprintf("⏺ Update(internal/app/handler_%d.go)", i),
			fmt.Sprintf("  ⎿  Updated internal/app/handler_%d.go with 3 additions and 1 removal", i),
			fmt.Sprintf("       %d    func (h *Handler) Serve(w http.ResponseWriter, r *http.Request) {", 40+i),
			"",
		)
	}
	lines = append(lines[:38],
		"⏺ Bash(go test ./internal/app/...)",
		"  ⎿  ok   github.com/example/app/internal/app  0.412s",
		"",
		"✻ Pondering… (1m 12s · ↓ 4.1k tokens · esc to interrupt)",
		"",
		"─────────────────────────────────────────────────────────────────────────────────",
		"❯ also update the README when you are done                                      ",
		"─────────────────────────────────────────────────────────────────────────────────",
		"  ⏵⏵ accept edits on (shift+tab to cycle)                                        ",
		"", "", "",
	)
	return lines
}

func BenchmarkEvaluate_Claude(b *testing.B) {
	all, err := BundledManifests()
	if err != nil {
		b.Fatal(err)
	}
	m := all["claude"]
	in := Input{Lines: benchScreen(), Title: "⠂ Update handlers", Progress: "4;3"}
	if got := len(in.Lines); got != 50 {
		b.Fatalf("screen has %d lines", got)
	}
	if r := m.Evaluate(in); r.State != StateWorking {
		b.Fatalf("state = %q", r.State)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Evaluate(in)
	}
}

func BenchmarkRecognize(b *testing.B) {
	procs := []Process{
		{Argv: []string{"node", "--no-warnings", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, Leader: true},
	}
	b.ReportAllocs()
	for b.Loop() {
		Recognize(procs)
	}
}
