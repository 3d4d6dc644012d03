package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// An override reports source_kind "local override", the seeds' spelling
// (server.agent_manifests), and a bundled manifest "bundled".
func TestLoadCatalog_SourceKindSpelling(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "codex.toml"), []byte(overrideCodex), 0o600); err != nil {
		t.Fatal(err)
	}
	c, warnings := LoadCatalog(dir)
	if len(warnings) != 0 {
		t.Fatal(warnings)
	}
	kinds := map[string]string{}
	for _, in := range c.Infos() {
		kinds[in.Agent] = in.SourceKind
	}
	if kinds["codex"] != "local override" || kinds["amp"] != "bundled" {
		t.Fatalf("source kinds: codex %q, amp %q", kinds["codex"], kinds["amp"])
	}
}
