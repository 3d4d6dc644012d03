package protocol

var agentMethods = []Method{
	{Name: "agent.list", Params: empty, Result: "agent_list", Summary: "List panes that run a recognised agent"},
	{Name: "agent.get", Params: func() Params { return &AgentTarget{} }, Result: "agent_info", Summary: "Describe one agent, by pane id or name"},
	{Name: "server.agent_manifests", Params: empty, Result: "agent_manifest_status", Summary: "The agent detection manifests in use"},
	{Name: "server.reload_agent_manifests", Params: empty, Result: "agent_manifest_reload", Summary: "Reload agent manifests, local overrides included"},
}

// AgentTarget names an agent: the pane id hosting it, or its name.
type AgentTarget struct {
	Target string `json:"target"`
}

// Validate implements Params.
func (p *AgentTarget) Validate() error { return required("target", p.Target) }

// AgentManifestInfo describes one agent detection manifest.
type AgentManifestInfo struct {
	Agent                        string  `json:"agent"`
	Source                       string  `json:"source"`
	SourceKind                   string  `json:"source_kind"`
	ActiveVersion                *string `json:"active_version,omitempty"`
	LocalOverrideShadowingRemote bool    `json:"local_override_shadowing_remote"`
	Warning                      *string `json:"warning,omitempty"`
}

// AgentList answers agent.list.
type AgentList struct {
	Agents []AgentInfo `json:"agents"`
}

// AgentInfoResult answers agent.get.
type AgentInfoResult struct {
	Agent AgentInfo `json:"agent"`
}

// AgentManifestStatus answers server.agent_manifests.
type AgentManifestStatus struct {
	Manifests []AgentManifestInfo `json:"manifests"`
}

// AgentManifestReload answers server.reload_agent_manifests.
type AgentManifestReload struct {
	Manifests []AgentManifestInfo `json:"manifests"`
}

func (AgentList) ResultType() string           { return "agent_list" }
func (AgentInfoResult) ResultType() string     { return "agent_info" }
func (AgentManifestStatus) ResultType() string { return "agent_manifest_status" }
func (AgentManifestReload) ResultType() string { return "agent_manifest_reload" }
