package config

import (
	"slices"
	"strings"
	"testing"
)

// [mcp]: allow absent offers every tool (nil), an empty list none; the
// switches default on, the caller's pane protected; a wrong type is a
// diagnostic that keeps the default.
func TestMCPSection(t *testing.T) {
	def := Default().MCP
	if def.Allow != nil || !def.AllowStart || !def.AllowClose || def.AllowCloseCaller {
		t.Fatalf("defaults %+v", def)
	}
	cfg, diags, _ := Parse([]byte("[mcp]\nallow = []\nallow_close = false\nallow_close_caller = true\n"))
	if len(diags) != 0 || cfg.MCP.Allow == nil || len(cfg.MCP.Allow) != 0 || cfg.MCP.AllowClose || !cfg.MCP.AllowStart || !cfg.MCP.AllowCloseCaller {
		t.Fatalf("parsed %+v %v", cfg.MCP, diags)
	}
	cfg, _, _ = Parse([]byte("[mcp]\nallow = [\"read_pane\", \"list_agents\"]\n"))
	if !slices.Equal(cfg.MCP.Allow, []string{"read_pane", "list_agents"}) {
		t.Fatalf("allow %v", cfg.MCP.Allow)
	}
	cfg, diags, _ = Parse([]byte("[mcp]\nallow = \"read_pane\"\nallow_start = 1\nwhat = 2\n"))
	if cfg.MCP.Allow != nil || !cfg.MCP.AllowStart || len(diags) != 3 || !strings.Contains(strings.Join(diags, "\n"), "unknown key mcp.what") {
		t.Fatalf("bad values: %+v %v", cfg.MCP, diags)
	}
	if !strings.Contains(DefaultFile(), "[mcp]\n") {
		t.Fatal("the default file has no [mcp]")
	}
}
