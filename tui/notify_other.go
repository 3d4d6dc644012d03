//go:build !darwin && !windows

package tui

import (
	"errors"
	"os/exec"
)

// systemNotifier is libnotify's notify-send.
func systemNotifier(title, body string) (prog string, args, env []string) {
	args = []string{"--app-name=herdr", "--", title}
	if body != "" {
		args = append(args, body)
	}
	return "notify-send", args, nil
}

// notifierUsable: notify-send needs a desktop session to show anything.
func notifierUsable(prog string, getenv func(string) string) error {
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)")
	}
	if _, err := exec.LookPath(prog); err != nil {
		return errors.New("not installed")
	}
	return nil
}
