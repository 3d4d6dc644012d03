package protocol

import (
	"os"
	"path/filepath"
	"strings"
)

// Env looks up an environment variable; os.Getenv in production, a map in tests.
type Env func(string) string

// SocketName is the file name of the API socket inside a session directory.
const SocketName = "herdr.sock"

// DefaultSession names the default session.
const DefaultSession = "default"

// MaxConfigBytes bounds a read of config.toml (ReadRegularFile): a real
// one is a few kilobytes.
const MaxConfigBytes = 1 << 20

// ConfigDir is $XDG_CONFIG_HOME/herdr, else the platform's (Windows:
// %APPDATA%\herdr), else $HOME/.config/herdr, else <tmp>/herdr-<user>.
func ConfigDir(env Env) string {
	if x := env("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "herdr")
	}
	if d := platformConfigDir(env); d != "" {
		return d
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".config", "herdr")
	}
	return filepath.Join(os.TempDir(), "herdr-"+userTag(env))
}

// StateDir is $XDG_STATE_HOME/herdr, else the platform's (Windows:
// %LOCALAPPDATA%\herdr), else $HOME/.local/state/herdr, else
// <tmp>/herdr-state-<user>.
func StateDir(env Env) string {
	if x := env("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "herdr")
	}
	if d := platformStateDir(env); d != "" {
		return d
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "herdr")
	}
	return filepath.Join(os.TempDir(), "herdr-state-"+userTag(env))
}

// The temporary-directory fallbacks are per user: a shared <tmp>/herdr
// could be created first by someone else (and is refused by SafeDir when
// it is). A directory planted under our own name is refused the same way.

// ValidSessionName reports whether name is 1–64 bytes of [A-Za-z0-9._-] and not "." or "..".
func ValidSessionName(name string) bool {
	if name == "" || len(name) > 64 || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// SessionDir is the data directory of a session: the config dir for the
// default session, <config dir>/sessions/NAME otherwise.
func SessionDir(env Env, name string) string {
	if name == "" || name == DefaultSession {
		return ConfigDir(env)
	}
	return filepath.Join(ConfigDir(env), "sessions", name)
}

// ResolveSocket finds the API socket path the way Herdr does: an explicit
// session first, then HERDR_SOCKET_PATH, then HERDR_SESSION, then the default.
func ResolveSocket(env Env, explicitSession string) (string, error) {
	if explicitSession != "" {
		if !ValidSessionName(explicitSession) {
			return "", Errorf(CodeInvalidSessionName, "invalid session name %q: use 1-64 of A-Z a-z 0-9 . _ -", explicitSession)
		}
		return filepath.Join(SessionDir(env, explicitSession), SocketName), nil
	}
	if p := env("HERDR_SOCKET_PATH"); p != "" {
		return p, nil
	}
	if s := env("HERDR_SESSION"); s != "" {
		if !ValidSessionName(s) {
			return "", Errorf(CodeInvalidSessionName, "invalid session name %q in HERDR_SESSION", s)
		}
		return filepath.Join(SessionDir(env, s), SocketName), nil
	}
	return filepath.Join(ConfigDir(env), SocketName), nil
}

// SessionOf names the session a socket path belongs to, for messages.
func SessionOf(env Env, socket string) string {
	dir := filepath.Dir(socket)
	if dir == ConfigDir(env) {
		return DefaultSession
	}
	if filepath.Base(filepath.Dir(dir)) == "sessions" {
		return filepath.Base(dir)
	}
	return strings.TrimSuffix(filepath.Base(socket), ".sock")
}

// IsGoRunBinary says whether the program at path is one `go run` built,
// told by where go puts it, whatever GOCACHE or GOTMPDIR are called: a
// fresh build runs from <tmp>/go-buildN/bNNN/exe/NAME, deleted when the
// run ends; a later run of the same build from the build cache,
// <GOCACHE>/xx/xx<hex>-d/NAME (Go 1.24 and later cache what go run builds).
func IsGoRunBinary(path string) bool {
	dir := filepath.Dir(path)
	if filepath.Base(dir) == "exe" {
		work := filepath.Dir(dir)
		return isNumbered(filepath.Base(work), "b") && isNumbered(filepath.Base(filepath.Dir(work)), "go-build")
	}
	entry, ok := strings.CutSuffix(filepath.Base(dir), "-d")
	return ok && len(entry) >= 32 && strings.Trim(entry, "0123456789abcdef") == "" &&
		filepath.Base(filepath.Dir(dir)) == entry[:2]
}

// isNumbered says whether name is prefix followed by decimal digits only.
func isNumbered(name, prefix string) bool {
	digits, ok := strings.CutPrefix(name, prefix)
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}
