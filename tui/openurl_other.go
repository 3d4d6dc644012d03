//go:build !darwin && !windows

package tui

// platform is this system's name in plugin manifests (other Unix systems
// pass for Linux, as they do for xdg-open).
const platform = "linux"

// urlOpener is the command that opens a URL in the user's browser.
var urlOpener = []string{"xdg-open"}
