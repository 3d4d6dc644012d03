package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const overrideCodex = `id = "codex"
version = "2099.01.01.1"
min_engine_version = 3
[[rules]]
id = "everything_blocked"
state = "blocked"
priority = 1
contains = ["x"]
`

const overrideAlias = `id = "claude"
version = "2099.02.02.1"
aliases = ["claude-code"]
[[rules]]
id = "anything"
state = "working"
contains = ["x"]
`

func TestLoadCatalog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	codexPath := write("codex.toml", overrideCodex)
	claudePath := write("claude-code.toml", overrideAlias) // file named by alias
	badPath := write("gemini.toml", "id = \"gemini\"\nversion = \"9\"\n[[rules]]\nid = \"r\"\nstate = \"idle\"\nregex = ['(']\n")
	wrongPath := write("pi.toml", strings.Replace(overrideCodex, `"codex"`, `"amp"`, 1))
	write("notes.txt", "ignored")

	c, warnings := LoadCatalog(dir)
	if len(warnings) != 2 {
		t.Fatalf("warnings = %v, want 2", warnings)
	}
	byPath := map[string]Warning{}
	for _, w := range warnings {
		byPath[w.Path] = w
	}
	if w, ok := byPath[badPath]; !ok || !strings.Contains(w.Error(), badPath) || !strings.Contains(w.Error(), "regex[0]: invalid regex") || w.Agent != "gemini" {
		t.Errorf("invalid override warning = %+v", w)
	}
	if w, ok := byPath[wrongPath]; !ok || !strings.Contains(w.Error(), "does not match agent \"pi\"") {
		t.Errorf("mismatched override warning = %+v", w)
	}

	m, ok := c.Get("codex")
	if !ok || m.Version() != "2099.01.01.1" || m.Source() != codexPath {
		t.Fatalf("codex override not active: %v %+v", ok, m)
	}
	if r := m.Evaluate(Input{Lines: []string{"x"}}); r.State != StateBlocked {
		t.Errorf("override rules not used: %q", r.State)
	}
	if m, ok := c.Get("Claude-Code"); !ok || m.Version() != "2099.02.02.1" {
		t.Errorf("alias-named override not active for claude")
	}
	for _, agent := range []string{"gemini", "pi"} {
		if m, ok := c.Get(agent); !ok || m.Source() != SourceBundled {
			t.Errorf("%s: bundled manifest not kept after bad override", agent)
		}
	}
	if _, ok := c.Get("gemini-cli"); !ok {
		t.Errorf("manifest alias gemini-cli not resolved")
	}
	if _, ok := c.Get("vim"); ok {
		t.Errorf("Get(vim) found a manifest")
	}

	infos := c.Infos()
	for i := 1; i < len(infos); i++ {
		if infos[i-1].Agent >= infos[i].Agent {
			t.Fatalf("Infos not sorted: %q before %q", infos[i-1].Agent, infos[i].Agent)
		}
	}
	got := map[string]ManifestInfo{}
	for _, in := range infos {
		got[in.Agent] = in
	}
	want := map[string]ManifestInfo{
		"codex":  {Agent: "codex", Source: codexPath, SourceKind: SourceLocal, ActiveVersion: "2099.01.01.1"},
		"claude": {Agent: "claude", Source: claudePath, SourceKind: SourceLocal, ActiveVersion: "2099.02.02.1"},
		"amp":    {Agent: "amp", Source: SourceBundled, SourceKind: SourceBundled, ActiveVersion: got["amp"].ActiveVersion},
	}
	for agent, w := range want {
		if got[agent] != w {
			t.Errorf("Infos[%s] = %+v, want %+v", agent, got[agent], w)
		}
	}
	if g := got["gemini"]; g.SourceKind != SourceBundled || !strings.Contains(g.Warning, badPath) {
		t.Errorf("Infos[gemini] = %+v, want bundled with a warning", g)
	}
	if got["amp"].ActiveVersion == "" {
		t.Errorf("amp has no version")
	}
}

func TestLoadCatalog_NoOverrides(t *testing.T) {
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "missing")} {
		c, warnings := LoadCatalog(dir)
		if len(warnings) != 0 {
			t.Errorf("LoadCatalog(%q) warnings = %v", dir, warnings)
		}
		if len(c.Infos()) < 8 {
			t.Errorf("LoadCatalog(%q) has %d manifests", dir, len(c.Infos()))
		}
		for _, in := range c.Infos() {
			if in.SourceKind != SourceBundled || in.Source != SourceBundled {
				t.Errorf("%+v is not bundled", in)
			}
		}
	}
}
