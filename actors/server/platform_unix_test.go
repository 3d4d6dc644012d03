//go:build unix

package server

import "testing"

// requireUnixShell is a no-op where /bin/sh panes can run.
func requireUnixShell(testing.TB) {}
