package tui

import (
	"errors"
	"os/exec"
)

// systemNotifier is AppleScript's display notification; title and body
// are passed as arguments, so nothing needs quoting.
func systemNotifier(title, body string) (prog string, args, env []string) {
	return "osascript", []string{
		"-e", "on run argv",
		"-e", "display notification (item 2 of argv) with title (item 1 of argv)",
		"-e", "end run", title, body,
	}, nil
}

func notifierUsable(prog string, _ func(string) string) error {
	if _, err := exec.LookPath(prog); err != nil {
		return errors.New("not installed")
	}
	return nil
}
