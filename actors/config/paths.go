package config

import (
	"os"
	"path/filepath"

	"github.com/herdr-go/herdr/protocol"
)

// FileName is the name of the config file inside the config directory.
const FileName = "config.toml"

// Dir returns herdr's config directory (protocol.ConfigDir); env is the
// environment lookup (os.Getenv in production, nil means os.Getenv).
func Dir(env func(string) string) string { return protocol.ConfigDir(orGetenv(env)) }

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
