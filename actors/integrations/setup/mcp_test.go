package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// Claude Code: herdr mcp joins the user's MCP servers in ~/.claude.json
// (user scope), every other member kept; installed twice it is the same
// file; uninstall removes herdr's entry alone.
func TestMCP_ClaudeUserSettings(t *testing.T) {
	home, env := fakeEnv(t, nil)
	write(t, filepath.Join(home, ".claude", "settings.json"), "{}\n")
	path := filepath.Join(home, ".claude.json")
	user := `{
  "numStartups": 3,
  "mcpServers": {
    "playwright": {"type": "stdio", "command": "npx", "args": ["@playwright/mcp@latest"]}
  },
  "projects": {"/p": {"mcpServers": {}}}
}
`
	write(t, path, user)
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	var got struct {
		NumStartups int `json:"numStartups"`
		MCPServers  map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
		Projects map[string]any `json:"projects"`
	}
	after := read(t, path)
	if err := json.Unmarshal([]byte(after), &got); err != nil {
		t.Fatal(err)
	}
	h := got.MCPServers["herdr"]
	if got.NumStartups != 3 || got.Projects["/p"] == nil || got.MCPServers["playwright"].Command != "npx" || h.Command != "herdr" || len(h.Args) != 1 || h.Args[0] != "mcp" {
		t.Fatalf("after install:\n%s", after)
	}
	msgs, err := Install("claude", env)
	if err != nil || read(t, path) != after || !strings.Contains(strings.Join(msgs, "\n"), "MCP server already registered in "+path) {
		t.Fatalf("second install: %v %v\n%s", msgs, err, read(t, path))
	}
	if _, err := Uninstall("claude", env); err != nil {
		t.Fatal(err)
	}
	var back map[string]map[string]any
	json.Unmarshal([]byte(read(t, path)), &back)
	if _, ok := back["mcpServers"]["herdr"]; ok || back["mcpServers"]["playwright"] == nil {
		t.Fatalf("after uninstall:\n%s", read(t, path))
	}
}

// A user's own server named herdr is not herdr's to replace or remove;
// CLAUDE_CONFIG_DIR moves .claude.json into that folder.
func TestMCP_ClaudeForeignEntryAndConfigDir(t *testing.T) {
	home, env := fakeEnv(t, nil)
	write(t, filepath.Join(home, ".claude", "settings.json"), "{}\n")
	path := filepath.Join(home, ".claude.json")
	foreign := `{"mcpServers": {"herdr": {"command": "/opt/other/herdr-bridge", "args": ["serve"]}}}` + "\n"
	write(t, path, foreign)
	if _, err := Install("claude", env); err == nil || !strings.Contains(err.Error(), "not herdr mcp") {
		t.Fatalf("install over a foreign entry: %v", err)
	}
	if _, err := Uninstall("claude", env); err != nil || read(t, path) != foreign {
		t.Fatalf("uninstall touched a foreign entry (%v):\n%s", err, read(t, path))
	}

	cfgDir := filepath.Join(t.TempDir(), "claude-cfg")
	_, env2 := fakeEnv(t, map[string]string{"CLAUDE_CONFIG_DIR": cfgDir, "HERDR_BIN_PATH": "/usr/local/bin/herdr"})
	write(t, filepath.Join(cfgDir, "settings.json"), "{}\n")
	if _, err := Install("claude", env2); err != nil {
		t.Fatal(err)
	}
	if s := read(t, filepath.Join(cfgDir, ".claude.json")); !strings.Contains(s, `"command": "/usr/local/bin/herdr"`) {
		t.Fatalf(".claude.json in CLAUDE_CONFIG_DIR:\n%s", s)
	}
}

// Codex: [mcp_servers.herdr] in a herdr-managed block of config.toml,
// the user's lines kept; uninstall gives the file back as it was, but for
// the features switch the hooks need.
func TestMCP_CodexConfigToml(t *testing.T) {
	home, env := fakeEnv(t, nil)
	path := filepath.Join(home, ".codex", "config.toml")
	user := "# mine\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"
	write(t, path, user)
	if _, err := Install("codex", env); err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Model      string `toml:"model"`
		MCPServers map[string]struct {
			Command string   `toml:"command"`
			Args    []string `toml:"args"`
		} `toml:"mcp_servers"`
	}
	after := read(t, path)
	if err := toml.Unmarshal([]byte(after), &cfg); err != nil {
		t.Fatalf("%v\n%s", err, after)
	}
	if cfg.Model != "o3" || cfg.MCPServers["docs"].Command != "docs-mcp" || cfg.MCPServers["herdr"].Command != "herdr" || cfg.MCPServers["herdr"].Args[0] != "mcp" ||
		!strings.HasPrefix(after, "# mine\nmodel = \"o3\"\n") {
		t.Fatalf("after install:\n%s", after)
	}
	if _, err := Install("codex", env); err != nil || read(t, path) != after {
		t.Fatalf("second install changed the file (%v):\n%s", err, read(t, path))
	}
	if _, err := Uninstall("codex", env); err != nil {
		t.Fatal(err)
	}
	if s := read(t, path); strings.Contains(s, "mcp_servers.herdr") || !strings.Contains(s, "[mcp_servers.docs]") {
		t.Fatalf("after uninstall:\n%s", s)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
