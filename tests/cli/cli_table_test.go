package cli

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// workspace.count was added the table-only way (its entry, its result
// type, one session handler): the socket answers it, the CLI has its verb
// (built from the entry), and the schema lists it as an extension.
func TestE2E_TableOnlyMethod_WorkspaceCount(t *testing.T) {
	s := StartServer(t)
	if got := OK[protocol.WorkspaceCount](t, s.Call("workspace.count", map[string]any{}), "workspace_count"); got.Count != 0 {
		t.Fatalf("workspace.count on a fresh server = %d, want 0", got.Count)
	}
	OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{}), "workspace_created")
	out, stderr, code := s.CLI("workspace", "count")
	if code != 0 || OK[protocol.WorkspaceCount](t, CLIResponse(t, out), "workspace_count").Count != 1 {
		t.Fatalf("workspace count: exit %d %q %q", code, out, stderr)
	}
	if _, stderr, code = s.CLI("workspace", "count", "extra"); code != 2 {
		t.Fatalf("workspace count extra: exit %d %q, want a usage error", code, stderr)
	}
	out, _, code = s.CLI("api", "schema", "--methods")
	if code != 0 || !strings.Contains(out, "workspace.count                  extension\n") || !strings.Contains(out, "workspace.list                   herdr 0.2.0\n") {
		t.Fatalf("api schema --methods: exit %d\n%s", code, out)
	}
}
