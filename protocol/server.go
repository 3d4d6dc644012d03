package protocol

var serverMethods = []Method{
	{Name: "ping", Access: AccessRead, Since: "0.2.0", Params: empty, Result: "pong", Summary: "Check the server and read its version and protocol", Owner: OwnerGateway, Shape: ShapeAnswer},
	{Name: "server.stop", Since: "0.5.0", Params: empty, Result: "ok", Summary: "Stop the server and every pane", Owner: OwnerGateway, Shape: ShapeAnswer},
	{Name: "server.reload_config", Since: "0.5.2", Params: empty, Result: "config_reload", Summary: "Reload config.toml and report diagnostics", Owner: OwnerReloads, Shape: ShapeAnswer},
	{Name: "server.live_handoff", Since: "0.6.3", Params: func() Params { return &ServerLiveHandoffParams{} }, Result: "ok",
		Summary: "Hand every pane, its program still running, to a new server process", Owner: OwnerGateway, Shape: ShapeAnswer},
	{Name: "server.ssh_agent.register", Since: "0.9.2", Params: func() Params { return &ServerSSHAgentRegisterParams{} }, Result: "ok",
		Summary: "Lend the server this client's ssh agent socket for as long as this connection stays open", Owner: OwnerGateway, Shape: ShapeAnswer},
}

// ServerSSHAgentRegisterParams are the params of server.ssh_agent.register
// (Herdr 0.9.2): SocketPath is the client's agent socket (its
// SSH_AUTH_SOCK) on the server's host. The gateway checks it, not the
// decoder, so a bad path is answered invalid_ssh_agent as in Herdr.
type ServerSSHAgentRegisterParams struct {
	SocketPath *string `json:"socket_path"`
}

// Validate implements Params: socket_path must be there; what it names is
// the gateway's to check.
func (p *ServerSSHAgentRegisterParams) Validate() error {
	if p.SocketPath == nil {
		return ParamError("socket_path", "missing required field")
	}
	return nil
}

// ServerLiveHandoffParams are the params of server.live_handoff.
// ImportExe is the binary of the new server (default: this one's).
// ExpectedProtocol and ExpectedVersion, when given, must be what the new
// binary reports, or nothing is handed off.
type ServerLiveHandoffParams struct {
	ExpectedProtocol *uint32 `json:"expected_protocol,omitempty"`
	ExpectedVersion  *string `json:"expected_version,omitempty"`
	ImportExe        *string `json:"import_exe,omitempty"`
}

// Validate implements Params.
func (p *ServerLiveHandoffParams) Validate() error { return absolute("import_exe", p.ImportExe) }

var sessionMethods = []Method{
	{Name: "session.snapshot", Since: "0.7.2", Pipeline: true, Params: fleetParams, Result: "session_snapshot", Summary: "One consistent view of workspaces, tabs, panes and layouts", Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
}
