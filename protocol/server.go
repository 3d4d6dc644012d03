package protocol

var serverMethods = []Method{
	{Name: "ping", Params: empty, Result: "pong", Summary: "Check the server and read its version and protocol"},
	{Name: "server.stop", Params: empty, Result: "ok", Summary: "Stop the server and every pane"},
	{Name: "server.reload_config", Params: empty, Result: "config_reload", Summary: "Reload config.toml and report diagnostics"},
}

var sessionMethods = []Method{
	{Name: "session.snapshot", Params: empty, Result: "session_snapshot", Summary: "One consistent view of workspaces, tabs, panes and layouts"},
}
