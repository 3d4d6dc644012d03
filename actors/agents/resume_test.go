package agents

import (
	"slices"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

func TestResumeArgv(t *testing.T) {
	ref := func(source, agent, kind, value string) *protocol.AgentSessionInfo {
		return &protocol.AgentSessionInfo{Source: source, Agent: agent, Kind: kind, Value: value}
	}
	for _, c := range []struct {
		ref  *protocol.AgentSessionInfo
		want []string
	}{
		{ref("herdr:claude", "claude", "id", "abc"), []string{"claude", "--resume", "abc"}},
		{ref("herdr:codex", "codex", "id", "t-1"), []string{"codex", "resume", "t-1"}},
		{ref("herdr:copilot", "copilot", "id", "x"), []string{"copilot", "--resume=x"}},
		{ref("herdr:pi", "pi", "path", "/s/p.jsonl"), []string{"pi", "--session", "/s/p.jsonl"}},
		{ref("herdr:omp", "omp", "id", "7f"), []string{"omp", "--resume=7f"}},
		{ref("herdr:cursor", "cursor", "id", "c"), []string{"cursor-agent", "--resume", "c"}},
		{ref("herdr:antigravity_cli", "agy", "id", "c"), []string{"agy", "--conversation", "c"}},
		// Not official, wrong agent, a path where only ids resume, a
		// relative path, control characters, empty: a plain shell.
		{ref("my-plugin", "claude", "id", "abc"), nil},
		{ref("herdr:claude", "codex", "id", "abc"), nil},
		{ref("herdr:claude", "claude", "path", "/abs"), nil},
		{ref("herdr:pi", "pi", "path", "rel/p"), nil},
		{ref("herdr:claude", "claude", "id", "a\nrm -rf /"), nil},
		{ref("herdr:claude", "claude", "id", ""), nil},
	} {
		if got := ResumeArgv(c.ref); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", *c.ref, got, c.want)
		}
	}
}
