//go:build unix

package plugins

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A plugin command running when its server is killed -9, with a child in
// a process group of its own, does not outlive the next server's start:
// that server finds the run's record and ends both, saying so at warn.
// The timeout is an hour, so only the sweep can have ended them.
func TestPluginCommands_EndedAfterTheServerIsKilled(t *testing.T) {
	h := NewHome(t)
	h.Env = append(h.Env, "HERDR_PLUGIN_TIMEOUT_MS=3600000")
	dir := WritePlugin(t, filepath.Join(h.Dir, "crash"), PluginManifest("test.crash",
		"[[actions]]\nid = \"hang\"\ntitle = \"Hang\"\n"+
			"command = [\"sh\", \"-c\", \"set -m; sleep 7311 & echo $! > child.pid; echo $$ > lead.pid; wait\"]\n"))
	s := h.Start(t, "crash")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "test.crash.hang"}), "plugin_action_invoked")
	lead, child := pidFrom(t, filepath.Join(dir, "lead.pid")), pidFrom(t, filepath.Join(dir, "child.pid"))
	s.Kill(t)
	if !runningPid(lead, "sh") || !runningPid(child, "sleep 7311") {
		t.Fatalf("the run ended with the killed server already (lead %d, child %d): nothing to test", lead, child)
	}

	h.Start(t, "crash")
	for what, pid := range map[string]int{"the command": lead, "its child in a group of its own": child} {
		WaitFor(t, what+" (pid "+strconv.Itoa(pid)+") to be ended by the next server", func() bool { return !runningPid(pid, "s") })
	}
	if log := h.ServerLog("crash"); !strings.Contains(log, "level=WARN") || !strings.Contains(log, "plugin command a previous server left running") {
		t.Fatalf("the sweep is not in the log at warn:\n%s", log)
	}
}
