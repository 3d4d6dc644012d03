package protocol

import "path/filepath"

// platformConfigDir is %APPDATA%\herdr (roaming settings), else the same
// under %USERPROFILE%.
func platformConfigDir(env Env) string {
	if d := env("APPDATA"); d != "" {
		return filepath.Join(d, "herdr")
	}
	if p := env("USERPROFILE"); p != "" {
		return filepath.Join(p, "AppData", "Roaming", "herdr")
	}
	return ""
}

// platformStateDir is %LOCALAPPDATA%\herdr (machine-local state and logs).
func platformStateDir(env Env) string {
	if d := env("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "herdr")
	}
	if p := env("USERPROFILE"); p != "" {
		return filepath.Join(p, "AppData", "Local", "herdr")
	}
	return ""
}

// userTag names the per-user temporary fallback: the user name.
func userTag(env Env) string {
	if u := env("USERNAME"); u != "" {
		return u
	}
	return "user"
}
