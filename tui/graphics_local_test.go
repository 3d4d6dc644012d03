package tui

import "testing"

// File frames are offered only for a terminal on the server's machine.
func TestLocalTerminal(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if !localTerminal(env("TERM", "xterm-kitty")) {
		t.Error("a plain local terminal is not local")
	}
	for _, v := range []string{"SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "STY"} {
		if localTerminal(env("TERM", "xterm-kitty", v, "x")) {
			t.Errorf("with %s set: local", v)
		}
	}
}
