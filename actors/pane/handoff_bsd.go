//go:build unix && !linux

package pane

// zombie: without /proc an exited program is seen once it is collected
// (on macOS launchd collects orphans at once).
func zombie(int) (bool, int) { return false, -1 }
