package shellquote

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Dialect is a family of shells that quote alike.
type Dialect int

const (
	// Unknown is any shell this package does not know: only words that
	// need no quoting in any shell are accepted.
	Unknown Dialect = iota
	// POSIX is sh, dash, bash, zsh, ksh and kin: '…' with '\'' for a quote.
	POSIX
	// Fish is fish: '…' with \\ and \' escaped.
	Fish
	// PowerShell is pwsh and Windows PowerShell: '…' with quotes doubled.
	PowerShell
)

func (d Dialect) String() string {
	return [...]string{"an unknown shell", "a POSIX shell", "fish", "PowerShell"}[d]
}

// DialectOf names the dialect of shell, a path or a program name, by its
// basename: a login shell's leading '-', a ".exe" and the letter case
// are ignored.
func DialectOf(shell string) Dialect {
	name := strings.ToLower(filepath.Base(strings.ReplaceAll(shell, `\`, "/")))
	name = strings.TrimSuffix(strings.TrimPrefix(name, "-"), ".exe")
	switch name {
	case "sh", "dash", "ash", "bash", "rbash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "oksh", "loksh", "yash", "posh", "busybox":
		return POSIX
	case "fish":
		return Fish
	case "pwsh", "pwsh-preview", "powershell":
		return PowerShell
	}
	return Unknown
}

// Line spells argv as one line that shell runs as exactly that program
// with exactly those arguments. It refuses a control character in any
// word (typed into a shell it is an editing key: Ctrl-U erases the line,
// a newline runs what follows), and what the shell's dialect cannot
// carry through unchanged.
func Line(shell string, argv []string) (string, error) {
	if len(argv) == 0 {
		return "", fmt.Errorf("no command")
	}
	d := DialectOf(shell)
	words := make([]string, len(argv))
	for i, w := range argv {
		if r, ok := controlIn(w); ok {
			return "", fmt.Errorf("word %d contains the control character %U, which cannot be typed into a shell", i+1, r)
		}
		q, err := quote(d, w, i == 0)
		if err != nil {
			return "", fmt.Errorf("word %d (%q) cannot be passed through %s (%s): %v", i+1, w, d, filepath.Base(shell), err)
		}
		words[i] = q
	}
	if d == PowerShell && words[0] != argv[0] {
		words[0] = "& " + words[0] // a quoted command name is a string to PowerShell until called
	}
	return strings.Join(words, " "), nil
}

// Word spells w as one argument (not a command name) for a shell of
// dialect d, or refuses it as Line does: a control character in it, or
// what the dialect cannot carry through unchanged (in an unknown shell,
// anything that needs quoting).
func Word(d Dialect, w string) (string, error) {
	if r, ok := controlIn(w); ok {
		return "", fmt.Errorf("%q contains the control character %U, which cannot be typed into a shell", w, r)
	}
	q, err := quote(d, w, false)
	if err != nil {
		return "", fmt.Errorf("%q cannot be passed through %s: %v", w, d, err)
	}
	return q, nil
}

func controlIn(w string) (rune, bool) {
	for _, r := range w {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return r, true
		}
	}
	return 0, false
}

// plain reports whether w means itself, unquoted, in every dialect: ASCII
// letters, digits and _ . / - : = + only, never '=' first (zsh expands
// =cmd) nor in the command's name (x=y there is an assignment), '-'
// allowed first (an option is the caller's intent).
func plain(w string, command bool) bool {
	if w == "" || w[0] == '=' || command && strings.Contains(w, "=") {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./-:=+", c) >= 0) {
			return false
		}
	}
	return true
}

func quote(d Dialect, w string, command bool) (string, error) {
	switch d {
	case POSIX:
		if plain(w, command) {
			return w, nil
		}
		return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'", nil
	case Fish:
		if plain(w, command) {
			return w, nil
		}
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(w) + "'", nil
	case PowerShell:
		// Windows PowerShell, and pwsh before 7.3, hand a native program
		// its arguments by rejoining them with the old rules, which drop
		// an empty argument and a '"' and let a trailing '\' eat the
		// quote they add around one with a space: refused.
		switch {
		case w == "":
			return "", fmt.Errorf("PowerShell drops an empty argument")
		case strings.Contains(w, `"`):
			return "", fmt.Errorf(`PowerShell may drop a '"' passing it on`)
		case strings.HasSuffix(w, `\`) && strings.ContainsAny(w, " \t"):
			return "", fmt.Errorf(`PowerShell may garble a trailing '\' in an argument with spaces`)
		}
		if plain(w, command) && w[0] != '-' && !strings.ContainsAny(w, ":=+") {
			return w, nil
		}
		return "'" + strings.NewReplacer("'", "''", "\u2018", "\u2018\u2018", "\u2019", "\u2019\u2019", "\u201a", "\u201a\u201a", "\u201b", "\u201b\u201b").Replace(w) + "'", nil
	}
	if plain(w, command) {
		return w, nil
	}
	return "", fmt.Errorf("only ASCII letters, digits and _ . / - : = + pass unquoted, and this shell's quoting is not known")
}
