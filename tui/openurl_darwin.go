package tui

// platform is this system's name in plugin manifests.
const platform = "macos"

// urlOpener is the command that opens a URL in the user's browser.
var urlOpener = []string{"open"}
