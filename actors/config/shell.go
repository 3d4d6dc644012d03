package config

import "runtime"

// DefaultShellPath is the shell used when neither the config nor $SHELL names one.
const DefaultShellPath = "/bin/sh"

// Shell returns the program and arguments for a new pane's shell: the
// configured default_shell, else $SHELL, else /bin/sh; a login shell
// (shell_mode "login", or "auto" on macOS) gets the argument "-l".
func (c Config) Shell(env func(string) string) (path string, args []string) {
	return c.shellFor(runtime.GOOS, orGetenv(env))
}

// shellFor is Shell with the operating system injected, for tests.
func (c Config) shellFor(goos string, env func(string) string) (string, []string) {
	path := c.Terminal.DefaultShell
	if path == "" {
		path = env("SHELL")
	}
	if path == "" {
		path = DefaultShellPath
	}
	login := false
	switch c.Terminal.ShellMode {
	case ShellModeLogin:
		login = true
	case ShellModeNonLogin:
		login = false
	default: // ShellModeAuto, or anything unvalidated.
		login = goos == "darwin"
	}
	if login {
		return path, []string{"-l"}
	}
	return path, nil
}
