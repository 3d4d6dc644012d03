//go:build !darwin && !windows

package tui

// urlOpener is the command that opens a URL in the user's browser.
var urlOpener = []string{"xdg-open"}
