package config

import "runtime"

// DefaultShellPath is the shell used when neither the config nor $SHELL
// names one; on Windows it is WindowsShell.
const DefaultShellPath = "/bin/sh"

// WindowsShell is Windows' default shell (Windows PowerShell ships with
// every Windows release; pwsh may not be installed).
const WindowsShell = "powershell.exe"

// Shell returns the program and arguments for a new pane's shell: the
// configured default_shell, else $SHELL, else the platform's default; a
// login shell (shell_mode "login", or "auto" on macOS) gets the argument
// "-l". Windows shells have no login mode.
//
// The operating system is an argument of shellFor rather than a build tag
// so that one test run checks every platform's rule.
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
		path = defaultShell(goos)
	}
	if goos == "windows" {
		return path, nil
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

func defaultShell(goos string) string {
	if goos == "windows" {
		return WindowsShell
	}
	return DefaultShellPath
}
