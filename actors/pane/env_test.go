package pane

import (
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// A terminal says it is herdr's, with the Herdr version the server
// implements, and carries none of the outer terminal's session markers,
// whatever the server's environment or the caller said.
func TestTerminalEnvNamesHerdr(t *testing.T) {
	t.Setenv("TERM_PROGRAM", "iTerm.app")
	t.Setenv("TERM_PROGRAM_VERSION", "3.5")
	t.Setenv("ITERM_SESSION_ID", "w0t0p0")
	t.Setenv("CLAUDECODE", "1")
	env := TerminalEnv(map[string]string{"TERM_PROGRAM": "spoofed", "FOO": "bar"}, nil, "", nil)
	for _, want := range []string{"TERM_PROGRAM=herdr", "TERM_PROGRAM_VERSION=" + protocol.Version, "FOO=bar"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == "ITERM_SESSION_ID" || k == "CLAUDECODE" {
			t.Errorf("env keeps the outer marker %s", kv)
		}
	}
}
