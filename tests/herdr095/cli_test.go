package herdr095

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_RemoteKeybindingsFlag: Herdr's top-level
// --remote-keybindings local|server is offered by `herdr --help`; local
// (the default) is what a remote attach does, server is refused in one
// line, exit 2, saying why, and so is the flag without --remote or with
// another value.
func TestHerdr095_RemoteKeybindingsFlag(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	out, _, code := RunCLI(t, h.Env, "--help")
	if code != 0 || !strings.Contains(out, "--remote-keybindings local|server") {
		t.Fatalf("herdr --help: exit %d, no --remote-keybindings local|server:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--remote", "build", "--remote-keybindings", "server"}, "herdr: --remote-keybindings server is not supported: this client interprets the keys itself, with this machine's keybindings (local) (see 'herdr --help')\n"},
		{[]string{"--remote-keybindings", "local"}, "herdr: --remote-keybindings needs --remote (see 'herdr --help')\n"},
		{[]string{"--remote", "build", "--remote-keybindings=both"}, "herdr: --remote-keybindings must be local or server, got \"both\" (see 'herdr --help')\n"},
	} {
		_, errOut, code := RunCLI(t, h.Env, c.args...)
		if code != 2 || errOut != c.want {
			t.Errorf("herdr %s: exit %d, stderr %q; want exit 2, %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
	// local is taken: the attach goes on (and stops at the missing terminal).
	_, errOut, code := RunCLI(t, h.Env, "--remote", "build", "--remote-keybindings", "local")
	if code != 1 || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("--remote-keybindings local: exit %d, %q", code, errOut)
	}
}
