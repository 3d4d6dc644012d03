//go:build unix

package fleet

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The interactive client's fleet view (issue 31) over a real sshd: the
// local server's machines actor reaches "build", the client lists build's
// workspace under its own header, and choosing it streams build's pane and
// types there through the client's own ssh link.
func TestTUIFleet_RemoteWorkspaceInTheSidebarStreamsAndTakesInput(t *testing.T) {
	remote := NewHome(t)
	rsrv := remote.Start(t, "e2e")
	ws := rsrv.CreateWorkspace(t, map[string]any{"focus": true, "label": "farws"})
	pane := ws.RootPane.PaneID
	rsrv.WaitPrompt(t, pane)
	r := StartSSHRemote(t, remote)

	local := NewHome(t)
	local.Env = r.LocalEnv(local)
	if _, errOut, code := RunCLI(t, local.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	local.Start(t, "main")

	c := Attach(t, local, "main", local.Dir)
	c.WaitText(t, "build · online")
	c.WaitText(t, "farws")
	// Navigate mode: down from the local workspace is build's.
	c.Type(TuiPrefix + "g")
	c.WaitText(t, "NAVIGATE")
	c.Type("\x1b[B")
	c.WaitText(t, "build · farws")
	c.Type("\x1b")
	c.WaitScreen(t, "navigate mode to end", func(s string) bool { return !strings.Contains(s, "NAVIGATE") })
	// Keys typed while the client's link to build is still connecting are
	// refused with a toast; type once it is live.
	c.WaitScreen(t, "the remote pane live", func(s string) bool { return !strings.Contains(s, "connecting") })
	c.Type("echo fleet-$((6*7))\r")
	rsrv.WaitLine(t, pane, "fleet-42")
	c.WaitText(t, "fleet-42")

	// The machine goes away: it stays listed, offline, and the selection
	// stays on its workspace; back, it takes input again.
	r.Kill(t)
	c.WaitText(t, "build · offline")
	c.WaitText(t, "build · farws")
	r.Restart(t)
	c.WaitText(t, "build · online")
	c.WaitScreen(t, "the remote pane to reconnect", func(s string) bool { return !strings.Contains(s, "reconnecting") })
	c.Type("echo back-$((6*7))\r")
	rsrv.WaitLine(t, pane, "back-42")
	c.WaitText(t, "back-42")
}

// A workspace made on the machine after the client attached appears in
// its sidebar, without a reattach, and one closed there goes away.
func TestTUIFleet_RemoteWorkspacesMadeLaterAppear(t *testing.T) {
	remote := NewHome(t)
	rsrv := remote.Start(t, "e2e")
	rsrv.CreateWorkspace(t, map[string]any{"label": "firstws"})
	r := StartSSHRemote(t, remote)

	local := NewHome(t)
	local.Env = r.LocalEnv(local)
	if _, errOut, code := RunCLI(t, local.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	local.Start(t, "main")
	c := Attach(t, local, "main", local.Dir)
	c.WaitText(t, "build · online")
	c.WaitText(t, "firstws")

	later := rsrv.CreateWorkspace(t, map[string]any{"label": "laterws"}).Workspace.WorkspaceID
	c.WaitText(t, "laterws")
	rsrv.CallT(t, "workspace.close", map[string]any{"workspace_id": later})
	c.WaitScreen(t, "the closed remote workspace to go", func(s string) bool { return !strings.Contains(s, "laterws") })
}
