package harness

import (
	"testing"
)

// requireUnixShell skips: the end-to-end tests script /bin/sh panes, which
// Windows does not have; the Windows build is checked by cross-compiling.
func RequireUnixShell(tb testing.TB) {
	tb.Skip("windows: the end-to-end tests drive /bin/sh panes")
}
