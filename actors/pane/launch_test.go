package pane

import "testing"

// launchFailure finds the shell's complaint printed after the launch's
// echo, in each shell's words, and counts every complaint so an earlier
// launch's is not taken for this one's.
func TestLaunchFailure(t *testing.T) {
	for _, tc := range []struct {
		name, text, reason string
		all                int
	}{
		{"dash", "$ claude\n/bin/sh: 1: claude: not found\n$", "/bin/sh: 1: claude: not found", 1},
		{"bash", "user@h:~$ claude --x\nbash: claude: command not found\nuser@h:~$", "bash: claude: command not found", 1},
		{"zsh", "% claude\nzsh: command not found: claude\n%", "zsh: command not found: claude", 1},
		{"fish", "> claude\nfish: Unknown command: claude\n>", "fish: Unknown command: claude", 1},
		{"powershell", "PS> claude\nclaude: The term 'claude' is not recognized as a name of a cmdlet\nPS>", "claude: The term 'claude' is not recognized as a name of a cmdlet", 1},
		{"not yet run", "$ claude", "", 0},
		{"another program's error", "$ claude\nls: cannot access 'x': No such file or directory", "", 0},
		{"an earlier launch's", "$ claude\nbash: claude: command not found\n$ claude", "", 1},
		{"the second of two", "$ claude\nbash: claude: command not found\n$ claude\nbash: claude: command not found", "bash: claude: command not found", 2},
	} {
		line := "claude"
		if tc.name == "bash" {
			line = "claude --x"
		}
		reason, all := launchFailure(tc.text, line, "claude")
		if reason != tc.reason || all != tc.all {
			t.Errorf("%s: launchFailure = %q, %d; want %q, %d", tc.name, reason, all, tc.reason, tc.all)
		}
	}
}
