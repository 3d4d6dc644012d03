package server

import (
	"fmt"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/buffers"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/commands"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet"
	"github.com/herdr-go/herdr/actors/gateway"
	"github.com/herdr-go/herdr/actors/integrations"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/loop"
	machinesactor "github.com/herdr-go/herdr/actors/machines"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/review"
	"github.com/herdr-go/herdr/actors/session"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/actors/web"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/actors/worktrees"
)

// registries are the handlers of every owner of a method.
var registries = []kit.Checker{
	gateway.Registry, session.Registry, agents.Registry, clients.Registry, plugins.Registry,
	integrations.Registry, web.Registry, wsactor.Registry, tabactor.Registry, pane.Registry, machinesactor.Registry,
	tasks.Registry, buffers.Registry, events.Registry, commands.Registry, fleet.Registry,
	loop.Registry,
	audit.Registry,
	review.Registry,
	worktrees.Registry,
	reloadRegistry,
}

// checkRegistries compares every owner's handlers with the method table;
// a server whose table and handlers disagree does not start.
func checkRegistries(registries []kit.Checker) error {
	if err := kit.CheckAll(registries...); err != nil {
		return fmt.Errorf("the method table and the handlers disagree:\n%w", err)
	}
	return nil
}
