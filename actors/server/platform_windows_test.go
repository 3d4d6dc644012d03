package server

import "testing"

// requireUnixShell skips: these tests script /bin/sh panes, which Windows
// does not have; the Windows build is checked by cross-compiling.
func requireUnixShell(tb testing.TB) {
	tb.Skip("windows: the server tests drive /bin/sh panes")
}
