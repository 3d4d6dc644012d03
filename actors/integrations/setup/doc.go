// Package setup knows herdr's official agent integrations: for each
// supported agent (Claude Code, Codex, OpenCode, pi, …) where the agent
// keeps its configuration, the hook script, extension or plugin through
// which it reports its session and state to the pane it runs in, and how
// that is registered in the agent's own settings file, merged with the
// user's entries and never clobbering them; Claude Code and Codex also get
// `herdr mcp` registered in their MCP settings (mcp.go), beside the user's
// servers, a foreign entry of that name refused. Install is idempotent and
// replaces older herdr entries; Uninstall removes only herdr's; StatusOf
// reads the installed files' version markers. An install without the
// agent's folder refuses with a message that ends with the directory it
// needs (Target.Required): making that directory is what lets it succeed.
//
// A settings file is touched only when it is plain: a regular file (or a
// link to one) of at most 8 MiB, with no key twice in any object; a file
// that is not, or a settings symlink that leads nowhere, is an error that
// names it, and the file stays as it was. A UTF-8 byte order mark is
// accepted and kept.
//
// It links no actor runtime: the integrations actor runs it for the API,
// and the CLI runs it directly when no server is asked.
//
// Every path is resolved from an injected environment lookup (HOME and the
// agents' own variables), never from the process environment directly.
package setup
