package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestList_StatesAndAvailability lists every target on an empty HOME (none
// installed; only the one whose folder the install makes is available),
// then installs claude (current), ages pi's marker (outdated) and makes
// oh-my-pi's agent folder (available: the install makes its extensions).
func TestList_StatesAndAvailability(t *testing.T) {
	home, env := fakeEnv(t, nil)
	byTarget := func() map[string]protocol.IntegrationInfo {
		out := map[string]protocol.IntegrationInfo{}
		for _, i := range List(env) {
			out[i.Target] = i
		}
		return out
	}
	list := List(env)
	if len(list) != len(protocol.IntegrationTargets) {
		t.Fatalf("%d entries, want one per target (%d)", len(list), len(protocol.IntegrationTargets))
	}
	for i, info := range list {
		if info.Target != protocol.IntegrationTargets[i] {
			t.Errorf("entry %d is %s, want %s (the schema's order)", i, info.Target, protocol.IntegrationTargets[i])
		}
		if info.State != protocol.IntegrationNotInstalled || info.Command == "" || info.Label == "" {
			t.Errorf("%+v on an empty HOME", info)
		}
		if want := info.Target == "mastracode"; info.Available != want {
			t.Errorf("%s available = %v on an empty HOME, want %v", info.Target, info.Available, want)
		}
	}
	if got := byTarget()["cursor"].Command; got != "cursor-agent" {
		t.Errorf("cursor command %q", got)
	}
	if got := byTarget()["antigravity_cli"]; got.Label != "antigravity-cli" || got.Command != "agy" {
		t.Errorf("antigravity %+v", got)
	}

	for _, d := range []string{".claude", ".pi/agent/extensions", ".omp/agent"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, target := range []string{"claude", "pi"} {
		if _, err := Install(target, env); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(home, ".pi/agent/extensions/herdr-agent-state.ts")
	body := read(t, marker)
	write(t, marker, strings.Replace(body, "HERDR_INTEGRATION_VERSION=", "HERDR_INTEGRATION_VERSION=1 old=", 1))

	got := byTarget()
	for target, want := range map[string]protocol.IntegrationInfo{
		"claude": {State: protocol.IntegrationCurrent, Available: true},
		"pi":     {State: protocol.IntegrationOutdated, Available: true},
		"omp":    {State: protocol.IntegrationNotInstalled, Available: true},
		"codex":  {State: protocol.IntegrationNotInstalled, Available: false},
	} {
		if g := got[target]; g.State != want.State || g.Available != want.Available {
			t.Errorf("%s: state %s available %v, want %s %v", target, g.State, g.Available, want.State, want.Available)
		}
	}
}
