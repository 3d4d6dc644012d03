// Package integrations owns herdr's official agent integrations: for each
// supported agent (Claude Code, Codex, OpenCode, pi, …) it knows where the
// agent keeps its configuration, writes the hook script, extension or
// plugin through which the agent reports its session and state to the pane
// it runs in, and registers it in the agent's own settings file, merged with
// the user's entries and never clobbering them. Install is idempotent and
// replaces older herdr entries; uninstall removes only herdr's.
//
// The integrations actor answers integration.install and
// integration.uninstall, running the file work on a goroutine of its own;
// Status reads the installed files' version markers for the CLI.
//
// Every path is resolved from an injected environment lookup (HOME and the
// agents' own variables), never from the process environment directly.
package integrations
