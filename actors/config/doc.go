// Package config owns the server's config.toml: where it lives, how it is
// decoded into a typed Config with defaults, and how every problem in it is
// reported.
//
// A bad file never panics and never stops the server. Load and Parse return
// the usable configuration (defaults for anything invalid), a list of
// human-readable diagnostics, and a Status saying whether the file was
// applied in full, in part, or not at all.
//
// The file is decoded into a generic map with go-toml/v2 and then walked key
// by key, one decoder method per section, so a wrong type, a bad value or an
// unknown key costs only that key, which keeps its default. Every section
// Herdr has is modelled (onboarding, theme, terminal, session, update, keys,
// ui with its sidebar, toast and sound tables, worktrees, advanced,
// experimental, remote, server), and herdr's own [web], [mcp], [tasks] and
// [fleet] (a [fleet] that fails its checks across keys is reported key by
// key and joins no fleet). Scalar
// keys are described once, in field tables that drive both decoding and
// DefaultFile (`herdr --default-config`); key combos are checked with
// protocol.ParseKey.
//
// The package also resolves the config path (Path, Dir), the shell a new
// pane runs (Config.Shell), and edits one key of the file in place,
// keeping every other line as written (SetKey).
package config
