//go:build windows

package setup

import "strings"

// scriptExt is the extension of hook scripts on this platform.
const scriptExt = ".ps1"

// commandKey is the member Copilot reads this platform's command from.
const commandKey = "powershell"

// hookCommand is the command line an agent runs for the hook script.
func hookCommand(script, action string) string {
	return `powershell -NoProfile -ExecutionPolicy Bypass -File "` + strings.ReplaceAll(script, `"`, `\"`) + `" ` + action
}

// hookScript is the hook script's text on this platform.
func hookScript(t *Target) string { return powershellScript(t) }
