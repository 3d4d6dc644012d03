package config

import (
	"os"
	"path/filepath"
)

// FileName is the name of the config file inside the config directory.
const FileName = "config.toml"

// Dir returns herdr's config directory: $XDG_CONFIG_HOME/herdr, else
// $HOME/.config/herdr, else <os.TempDir()>/herdr; env is the environment
// lookup (os.Getenv in production, nil means os.Getenv).
func Dir(env func(string) string) string {
	env = orGetenv(env)
	if xdg := env("XDG_CONFIG_HOME"); xdg != "" {
		return filepath.Join(xdg, "herdr")
	}
	if home := env("HOME"); home != "" {
		return filepath.Join(home, ".config", "herdr")
	}
	return filepath.Join(os.TempDir(), "herdr")
}

// Path returns the config file path: $HERDR_CONFIG_PATH if set, else
// Dir(env)/config.toml.
func Path(env func(string) string) string {
	env = orGetenv(env)
	if p := env("HERDR_CONFIG_PATH"); p != "" {
		return p
	}
	return filepath.Join(Dir(env), FileName)
}

// orGetenv returns env, or os.Getenv when env is nil.
func orGetenv(env func(string) string) func(string) string {
	if env == nil {
		return os.Getenv
	}
	return env
}
