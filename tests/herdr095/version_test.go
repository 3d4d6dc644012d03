package herdr095

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// wire sends one raw request line on a fresh connection and returns the
// raw answer line, as a client written against Herdr sees it.
func wire(t *testing.T, s *Server, line string) string {
	t.Helper()
	c := s.Dial(t)
	defer c.Close()
	raw, err := c.RoundTrip([]byte(line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return string(raw)
}

// TestHerdr095_PingIsHerdr095WithOurBuildBeside: ping reports the Herdr
// version whose wire the server speaks, its capabilities as Herdr 0.9.5
// lists them, and our own build only in a field of its own, after
// Herdr's; `herdr --version` prints both.
func TestHerdr095_PingIsHerdr095WithOurBuildBeside(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	got := wire(t, s, `{"id":"v1","method":"ping","params":{}}`)
	const head = `{"id":"v1","result":{"type":"pong","version":"0.9.5","protocol":22,"capabilities":{"live_handoff":true,"detached_server_daemon":true,"endpoint_protocol_generation":1,"surface_interest":true,"health_check":true,"ssh_agent_registration":true},"pid":`
	if !strings.HasPrefix(got, head) {
		t.Fatalf("ping answered\n%s\nwant it to begin\n%s", got, head)
	}
	tail := regexp.MustCompile(`,"started_at":"[0-9TZ:-]+","build":"herdr-go [^"]+"}}$`)
	if !tail.MatchString(got) || !strings.Contains(got, `"build":"`+protocol.Build()+`"`) {
		t.Fatalf("ping answered %s, want it to end with started_at and build %q", got, protocol.Build())
	}
	out, _, code := s.CLIT(t, "--version")
	if code != 0 || out != "herdr 0.9.5 ("+protocol.Build()+")\n" {
		t.Fatalf("herdr --version: exit %d, %q", code, out)
	}
}

// TestHerdr095_PluginForHerdr09Links: a plugin written for Herdr 0.9
// (min_herdr_version = "0.9.0", and "0.9.5") links; one for a later
// Herdr is still refused with plugin_requires_newer_herdr.
func TestHerdr095_PluginForHerdr09Links(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	write := func(id, min string) string {
		dir := filepath.Join(t.TempDir(), id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		manifest := "id = \"" + id + "\"\nname = \"N\"\nversion = \"1.0.0\"\nmin_herdr_version = \"" + min + "\"\n"
		if err := os.WriteFile(filepath.Join(dir, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, min := range []string{"0.9.0", "0.9.5"} {
		id := "compat.v" + strings.ReplaceAll(min, ".", "")
		got := OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": write(id, min)}), "plugin_linked")
		if got.Plugin.PluginID != id || got.Plugin.MinHerdrVersion != min {
			t.Errorf("linked %+v, want %s", got.Plugin, id)
		}
	}
	Fail(t, s.Call("plugin.link", map[string]any{"path": write("compat.future", "0.9.6")}), protocol.CodePluginTooNew)
}
