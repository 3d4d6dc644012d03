//go:build !windows

package setup

// scriptExt is the extension of hook scripts on this platform.
const scriptExt = ".sh"

// commandKey is the member Copilot reads this platform's command from.
const commandKey = "bash"

// hookCommand is the command line an agent runs for the hook script.
func hookCommand(script, action string) string {
	return "bash " + shellQuote(script) + " " + action
}

// hookScript is the hook script's text on this platform.
func hookScript(t *Target) string { return shellScript(t) }
