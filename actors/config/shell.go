package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
)

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

// StartableShell is Shell passing over a shell that cannot start (CheckShell):
// default_shell, else $SHELL, else the platform's default, the first that
// can. skipped says, one entry each, what was passed over and why, for the
// caller's log. The platform's default is returned unchecked when it is
// the last one left, so a failure to start names it.
func (c Config) StartableShell(env func(string) string) (path string, args []string, skipped []string) {
	return c.startableFor(runtime.GOOS, orGetenv(env), CheckShell)
}

// startableFor is StartableShell with the operating system and the check injected.
func (c Config) startableFor(goos string, env func(string) string, check func(string) error) (string, []string, []string) {
	var skipped []string
	for _, p := range []string{c.Terminal.DefaultShell, env("SHELL")} {
		if p == "" {
			continue
		}
		if err := check(p); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (%v)", p, err))
			continue
		}
		return p, c.shellArgs(goos), skipped
	}
	return defaultShell(goos), c.shellArgs(goos), skipped
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
	return path, c.shellArgs(goos)
}

// shellArgs are the shell's arguments: "-l" for a login shell.
func (c Config) shellArgs(goos string) []string {
	if goos == "windows" {
		return nil
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
		return []string{"-l"}
	}
	return nil
}

func defaultShell(goos string) string {
	if goos == "windows" {
		return WindowsShell
	}
	return DefaultShellPath
}

// CheckShell says why a shell cannot start a pane, or nil when it can: it
// is looked up as the platform looks up a program (a bare name in PATH,
// and on Windows with PATHEXT's extensions), and must be an executable
// regular file.
func CheckShell(path string) error {
	full, err := exec.LookPath(path)
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, exec.ErrNotFound):
			return errors.New("no such program")
		case errors.Is(err, fs.ErrPermission):
			return errors.New("not executable")
		}
		return err
	}
	info, err := os.Stat(full)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	return nil
}

// checkShell reports a default_shell that cannot start; the key is kept
// (it may be installed later), and each new pane falls back as
// StartableShell does until it can.
func checkShell(cfg *Config) []string {
	p := cfg.Terminal.DefaultShell
	if p == "" {
		return nil
	}
	if err := CheckShell(p); err != nil {
		return []string{fmt.Sprintf("terminal.default_shell: cannot start %s (%v); new panes run $SHELL, else %s", p, err, defaultShell(runtime.GOOS))}
	}
	return nil
}
