package view

import (
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/protocol"
)

// ManifestInfos is each manifest of c as the View shows it
// (server.agent_manifests) and a reload answers it
// (server.reload_agent_manifests).
func ManifestInfos(c *rules.Catalog) []protocol.AgentManifestInfo {
	out := []protocol.AgentManifestInfo{}
	for _, m := range c.Infos() {
		info := protocol.AgentManifestInfo{Agent: m.Agent, Source: m.Source, SourceKind: m.SourceKind}
		if m.ActiveVersion != "" {
			info.ActiveVersion = protocol.Ptr(m.ActiveVersion)
		}
		if m.Warning != "" {
			info.Warning = protocol.Ptr(m.Warning)
		}
		out = append(out, info)
	}
	return out
}
