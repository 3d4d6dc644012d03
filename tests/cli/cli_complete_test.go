//go:build unix

package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// completionOffer runs cobra's hidden completion command as a shell does on a tab
// press (`herdr __complete WORDS… ""`) and returns the offered words (the
// descriptions after a tab dropped) and the directive line.
func completionOffer(t *testing.T, env []string, words ...string) ([]string, string) {
	t.Helper()
	out, stderr, code := RunCLI(t, env, append([]string{"__complete"}, words...)...)
	if code != 0 {
		t.Fatalf("herdr __complete %q: exit %d\n%s", words, code, stderr)
	}
	var offered []string
	directive := ""
	for _, line := range Lines(out) {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, ":") {
			directive = line
			continue
		}
		word, _, _ := strings.Cut(line, "\t")
		offered = append(offered, word)
	}
	return offered, directive
}

// Completion of an argument or a flag that names a workspace, tab, pane,
// agent target or plugin asks the running server for its live ids.
func TestComplete_LiveIDs(t *testing.T) {
	s := StartServer(t)
	first := s.CreateWorkspace(t, map[string]any{"label": "alpha"})
	second := s.CreateWorkspace(t, map[string]any{"label": "beta"})
	dir := WritePlugin(t, filepath.Join(s.Home.Dir, "pl"), PluginManifest("test.complete", ""))
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	session := []string{"--session", s.Name}

	panes := s.PaneIDs(t)
	if len(panes) < 2 {
		t.Fatalf("pane.list %v: want the two root panes", panes)
	}
	got, directive := completionOffer(t, s.Env, append(session, "pane", "read", "")...)
	if !slices.Equal(sortedIDs(got), sortedIDs(panes)) {
		t.Errorf("pane read <TAB> offered %q, want the live panes %q", got, panes)
	}
	if directive != ":4" { // no file names as well
		t.Errorf("pane read <TAB> directive %q, want :4", directive)
	}

	wantWS := []string{first.Workspace.WorkspaceID, second.Workspace.WorkspaceID}
	if got, _ := completionOffer(t, s.Env, append(session, "pane", "list", "--workspace", "")...); !slices.Equal(sortedIDs(got), sortedIDs(wantWS)) {
		t.Errorf("pane list --workspace <TAB> offered %q, want %q", got, wantWS)
	}
	wantTabs := []string{first.Tab.TabID, second.Tab.TabID}
	if got, _ := completionOffer(t, s.Env, append(session, "tab", "close", "")...); !slices.Equal(sortedIDs(got), sortedIDs(wantTabs)) {
		t.Errorf("tab close <TAB> offered %q, want %q", got, wantTabs)
	}

	// The prefix typed so far narrows the offer.
	if got, _ := completionOffer(t, s.Env, append(session, "pane", "read", panes[0])...); !slices.Equal(got, []string{panes[0]}) {
		t.Errorf("pane read %s<TAB> offered %q", panes[0], got)
	}
	// Only the positions that name a pane: `pane read P <TAB>` offers nothing.
	if got, _ := completionOffer(t, s.Env, append(session, "pane", "read", panes[0], "")...); len(got) != 0 {
		t.Errorf("pane read %s <TAB> offered %q, want nothing", panes[0], got)
	}

	if got, _ := completionOffer(t, s.Env, append(session, "plugin", "action", "list", "--plugin", "")...); !slices.Equal(got, []string{"test.complete"}) {
		t.Errorf("plugin action list --plugin <TAB> offered %q, want [test.complete]", got)
	}
	if got, _ := completionOffer(t, s.Env, append(session, "plugin", "disable", "")...); !slices.Equal(got, []string{"test.complete"}) {
		t.Errorf("plugin disable <TAB> offered %q, want [test.complete]", got)
	}

	// No agent runs in /bin/sh panes: an agent target offers nothing, not
	// every pane.
	if got, _ := completionOffer(t, s.Env, append(session, "agent", "read", "")...); len(got) != 0 {
		t.Errorf("agent read <TAB> offered %q with no agent running", got)
	}
}

// With no server, completion offers nothing and says nothing: a tab press
// must not print an error into the shell.
func TestComplete_NoServer(t *testing.T) {
	h := NewHome(t)
	out, stderr, code := RunCLI(t, h.Env, "__complete", "--session", "none", "pane", "read", "")
	if code != 0 || strings.TrimSpace(out) != ":4" {
		t.Errorf("no server: exit %d, stdout %q, want only the directive :4", code, out)
	}
	if strings.Contains(stderr, "server_not_running") || strings.Contains(stderr, "error") {
		t.Errorf("no server: stderr %q", stderr)
	}
}

func sortedIDs(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
