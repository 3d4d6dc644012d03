package config

import (
	"slices"
	"testing"
)

// The keys read only at start are named when a reload changes them, and
// only then; [tasks] and [remote] ssh_command are applied, never named.
func TestRestartRequired(t *testing.T) {
	started := Default()
	next, diags, status := Parse([]byte(`
[terminal]
kitty_graphics = false
[advanced]
persist_scrollback_lines = 500
[server]
headless_cols = 100
[web]
listen = "127.0.0.1:7999"
[tasks]
dispatcher = true
agent_start_timeout = 5
max_attempts = 4
retry_delay = 0
[remote]
ssh_command = "ssh -F /dev/null"
`))
	if status != StatusApplied {
		t.Fatalf("%s %v", status, diags)
	}
	got := RestartRequired(&started, &next)
	want := []string{"terminal.kitty_graphics", "advanced.persist_scrollback_lines", "server.headless_cols", "web.listen"}
	if !slices.Equal(got, want) {
		t.Fatalf("restart required %v, want %v", got, want)
	}
	if next.Tasks.AgentStartTimeout != 5 || next.Tasks.MaxAttempts != 4 || next.Tasks.RetryDelay != 0 {
		t.Fatalf("[tasks] %+v", next.Tasks)
	}
	if got := RestartRequired(&started, &started); got != nil {
		t.Fatalf("unchanged: %v", got)
	}
	if d := Default().Tasks; d.AgentStartTimeout != 30 || d.MaxAttempts != 3 || d.RetryDelay != 5 {
		t.Fatalf("defaults %+v", d)
	}
	_, diags, status = Parse([]byte("[tasks]\nagent_start_timeout = 0\nmax_attempts = 0\n"))
	if status != StatusPartial || len(diags) != 2 {
		t.Fatalf("out of range: %s %v", status, diags)
	}
}
