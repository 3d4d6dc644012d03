package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/integrations/setup"
)

func runIntegration(t *testing.T, env func(string) string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(testRuntime, append([]string{"integration"}, args...), strings.NewReader(""), &out, &errb, env)
	return out.String(), errb.String(), code
}

func TestIntegration_Status(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	out, _, code := runIntegration(t, env, "status")
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != len(setup.Targets()) || !strings.Contains(out, "antigravity-cli: not installed\n") {
		t.Fatalf("status: %d %q", code, out)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Install("claude", env); err != nil {
		t.Fatal(err)
	}
	claude, _ := setup.Lookup("claude")
	script, _ := claude.MarkerFile(env)
	out, _, code = runIntegration(t, env, "status", "claude")
	if code != 0 || out != "claude: current (v7) ("+script+")\n" {
		t.Errorf("status claude: %d %q", code, out)
	}
	if out, _, _ = runIntegration(t, env, "status", "--outdated-only"); out != "" {
		t.Errorf("--outdated-only with everything current: %q", out)
	}
	b, _ := os.ReadFile(script)
	os.WriteFile(script, bytes.Replace(b, []byte("HERDR_INTEGRATION_VERSION=7"), []byte("HERDR_INTEGRATION_VERSION=5"), 1), 0o755)
	if out, _, _ = runIntegration(t, env, "status", "--outdated-only"); out != "claude: outdated (v5 < v7) ("+script+")\n" {
		t.Errorf("--outdated-only: %q", out)
	}
	if _, errOut, code := runIntegration(t, env, "status", "vim"); code != 2 || !strings.Contains(errOut, `"vim"`) {
		t.Errorf("status vim: %d %q", code, errOut)
	}
	if _, errOut, code := runIntegration(t, env, "install"); code != 2 || !strings.Contains(errOut, "<target>") {
		t.Errorf("install without target: %d %q", code, errOut)
	}
}

// With no server running, install and uninstall write the files here.
func TestIntegration_InstallWithoutServer(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "c"), "XDG_STATE_HOME": filepath.Join(home, "s")}
	if r := run(t, env, "integration", "install", "claude"); r.code != 1 || !strings.Contains(r.stderr, `"integration_install_failed"`) {
		t.Fatalf("without ~/.claude: exit %d %s", r.code, r.stderr)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if r := run(t, env, "integration", "install", "claude"); r.code != 0 || !strings.Contains(r.stdout, "installed claude integration") {
		t.Fatalf("install: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "hooks", "herdr-agent-state.sh")); err != nil {
		t.Fatal(err)
	}
	if r := run(t, env, "integration", "uninstall", "claude"); r.code != 0 {
		t.Fatalf("uninstall: exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "hooks", "herdr-agent-state.sh")); !os.IsNotExist(err) {
		t.Fatalf("the hook is still there: %v", err)
	}
}
