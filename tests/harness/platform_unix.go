//go:build unix

package harness

import (
	"testing"
)

// RequireUnixShell is a no-op where /bin/sh panes can run.
func RequireUnixShell(testing.TB) {}
