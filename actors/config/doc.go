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
// by key, so a wrong type or an unknown key costs only that key. Only the
// sections the Go server uses today are modelled (terminal, advanced and
// ui.toast); the other sections Herdr knows (onboarding, theme, session,
// update, keys, worktrees, experimental, remote and the rest of ui) are
// accepted without checks until the features that read them exist.
//
// The package also resolves the config path (Path, Dir) and the shell a new
// pane runs (Config.Shell).
package config
