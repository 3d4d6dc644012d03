package session

import (
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detector/rules"
)

// Reconfigure hands the session what a reload applied (the reloads actor
// owns server.reload_config and server.reload_agent_manifests,
// actors/server/reload.go): the configuration new panes start with
// (shell, scrollback), or the agent catalog new panes detect with and the
// View shows (server.agent_manifests). It arrives before the reload is
// answered, so a write sent after the answer starts its panes with it.
type Reconfigure struct {
	Config  *config.Config // nil: unchanged
	Catalog *rules.Catalog // nil: unchanged
}

// Fact implements kit.Fact.
func (*Reconfigure) Fact() {}
