package harness

import (
	"strings"
	"testing"
)

// HomeDir is the HOME a Home's server and CLI run with.
func HomeDir(t *testing.T, h *Home) string {
	t.Helper()
	for _, kv := range h.Env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			return v
		}
	}
	t.Fatal("no HOME in the test environment")
	return ""
}
