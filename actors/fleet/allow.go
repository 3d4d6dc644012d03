package fleet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// readMethods are the methods [fleet] allow = "read" lets other members
// call: each reads or waits and changes nothing on this server. A method
// not named here (a new one too) is refused to a read-only member's
// callers until it is added.
var readMethods = []string{
	"agent.explain", "agent.get", "agent.list", "agent.read", "agent.view.get", "agent.wait",
	"buffer.get", "buffer.list",
	"events.wait", "fleet.status",
	"integration.list", "layout.export", "machine.list",
	"pane.current", "pane.edges", "pane.get", "pane.history", "pane.layout", "pane.link.resolve",
	"pane.list", "pane.neighbor", "pane.process_info", "pane.read", "pane.selection.read", "pane.wait_for_output",
	"ping", "plugin.action.list", "plugin.list", "plugin.log.list",
	"server.agent_manifests", "session.snapshot",
	"tab.get", "tab.list", "task.get", "task.list",
	"workspace.count", "workspace.get", "workspace.git_status", "workspace.list", "worktree.list",
}

// allowed says whether [fleet] allow lets other members call method:
// nil allows every method.
func allowed(allow []string, method string) bool {
	if allow == nil {
		return true
	}
	return slices.Contains(allow, method) || (slices.Contains(allow, config.FleetAllowRead) && slices.Contains(readMethods, method))
}

// notAllowed is the refusal of a call [fleet] allow does not let in,
// naming the setting as a local refusal names its switch.
func notAllowed(name, method string, allow []string) *protocol.Error {
	setting := fmt.Sprintf("%q", strings.Join(allow, `", "`))
	switch len(allow) {
	case 0:
		setting = "[]"
	case 1:
	default:
		setting = "[" + setting + "]"
	}
	return protocol.Errorf(protocol.CodeNotAllowed, "member %q does not let other members call %s: its [fleet] allow = %s", name, method, setting)
}
