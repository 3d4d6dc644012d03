package config

// mcpFields are [mcp]'s scalar keys; allow is decoded apart, since an
// empty list (no tools) differs from the key being absent (every tool).
var mcpFields = []field{
	{key: "allow_start", doc: "Offer the MCP tools that start agents (start_agent, start_agent_in_worktree).",
		ptr: func(c *Config) any { return &c.MCP.AllowStart }},
	{key: "allow_close", doc: "Offer the MCP tools that close panes and workspaces.",
		ptr: func(c *Config) any { return &c.MCP.AllowClose }},
	{key: "allow_close_caller", doc: "Let those tools close the pane herdr mcp runs in (its agent's own pane) and its workspace.",
		ptr: func(c *Config) any { return &c.MCP.AllowCloseCaller }},
}

func (d *decoder) mcp(t map[string]any) {
	d.fields("mcp", t, mcpFields, "allow")
	if v, ok := t["allow"]; ok {
		if list, ok := d.strings("mcp.allow", v); ok {
			d.cfg.MCP.Allow = append([]string{}, list...)
		}
	}
}
