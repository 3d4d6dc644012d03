package harness

import (
	"strings"
)

// ShellQuoted quotes s for /bin/sh.
func ShellQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
