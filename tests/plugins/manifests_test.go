package plugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// overrideCodexManifest is a local override for codex with a version no
// bundled manifest has.
const overrideCodexManifest = `id = "codex"
version = "2099.01.01.1"
min_engine_version = 3
[[rules]]
id = "everything_blocked"
state = "blocked"
priority = 1
contains = ["x"]
`

// manifestOf returns the catalogue entry for agent, failing when absent.
func manifestOf(t *testing.T, st protocol.AgentManifestStatus, agent string) protocol.AgentManifestInfo {
	t.Helper()
	for _, m := range st.Manifests {
		if m.Agent == agent {
			return m
		}
	}
	t.Fatalf("no %s manifest in %+v", agent, st.Manifests)
	return protocol.AgentManifestInfo{}
}

// server update-agent-manifests has no remote catalogue to fetch: it
// reloads the local one (bundled manifests and overrides) and shows it.
// An override written while the server runs is active only after it.
func TestE2E_Server_UpdateAgentManifests(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	cli := func(args ...string) string {
		t.Helper()
		out, errOut, code := s.CLI(args...)
		if code != 0 || errOut != "" {
			t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	status := func(args ...string) protocol.AgentManifestStatus {
		t.Helper()
		return OK[protocol.AgentManifestStatus](t, CLIResponse(t, cli(args...)), "agent_manifest_status")
	}
	if m := manifestOf(t, status("server", "update-agent-manifests", "--json"), "codex"); m.SourceKind != "bundled" {
		t.Fatalf("codex before any override: %+v", m)
	}

	dir := filepath.Join(s.Home.ConfigHome, "herdr", "agent-detection")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "codex.toml")
	if err := os.WriteFile(path, []byte(overrideCodexManifest), 0o600); err != nil {
		t.Fatal(err)
	}
	if m := manifestOf(t, status("server", "agent-manifests", "--json"), "codex"); m.SourceKind != "bundled" {
		t.Fatalf("the override was active before any reload: %+v", m)
	}

	m := manifestOf(t, status("server", "update-agent-manifests", "--json"), "codex")
	if m.SourceKind != "local override" || m.Source != path || m.ActiveVersion == nil || *m.ActiveVersion != "2099.01.01.1" {
		t.Fatalf("codex after update-agent-manifests: %+v", m)
	}
	// The text form shows the same catalogue.
	text := cli("server", "update-agent-manifests")
	if !strings.Contains(text, "last check:") {
		t.Fatalf("table header missing:\n%s", text)
	}
	found := false
	for _, l := range Lines(text) {
		f := strings.Fields(l)
		found = found || (len(f) >= 5 && f[0] == "codex" && f[1] == "local" && f[2] == "override" && f[4] == "2099.01.01.1")
	}
	if !found {
		t.Fatalf("no codex local override 2099.01.01.1 row in:\n%s", text)
	}
	// And the server's own answer agrees.
	if m := manifestOf(t, OK[protocol.AgentManifestStatus](t, s.Call("server.agent_manifests", nil), "agent_manifest_status"), "codex"); m.SourceKind != "local override" {
		t.Fatalf("server.agent_manifests after the update: %+v", m)
	}
}
