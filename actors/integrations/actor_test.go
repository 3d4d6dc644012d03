package integrations

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// TestActor_InstallUninstall asks the actor for both methods, back to
// back, and gets each answer from its file work.
func TestActor_InstallUninstall(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }))
	defer system.Shutdown()
	pid := system.Root.Spawn(Props(env, nil))
	install := system.Root.RequestFuture(pid, &kit.Call{ID: "1", Method: "integration.install", Params: &protocol.IntegrationInstallParams{Target: "codex"}}, 5*time.Second)
	uninstall := system.Root.RequestFuture(pid, &kit.Call{ID: "2", Method: "integration.uninstall", Params: &protocol.IntegrationUninstallParams{Target: "codex"}}, 5*time.Second)
	failed := system.Root.RequestFuture(pid, &kit.Call{ID: "3", Method: "integration.install", Params: &protocol.IntegrationInstallParams{Target: "claude"}}, 5*time.Second)

	res, err := install.Result()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := res.(*kit.Reply).Result.(protocol.IntegrationInstalled)
	if !ok || got.Target != "codex" || !strings.Contains(strings.Join(got.Details.Messages, "\n"), "installed codex integration") {
		t.Fatalf("install reply %+v", res)
	}
	res, err = uninstall.Result()
	if err != nil {
		t.Fatal(err)
	}
	un, ok := res.(*kit.Reply).Result.(protocol.IntegrationUninstalled)
	if !ok || un.Target != "codex" || !strings.Contains(strings.Join(un.Details.Messages, "\n"), "uninstalled codex integration") {
		t.Fatalf("uninstall reply %+v", res)
	}
	if left, _ := filepath.Glob(filepath.Join(home, ".codex", "herdr-agent-state.*")); len(left) != 0 {
		t.Errorf("hook left after uninstall: %v", left)
	}
	res, err = failed.Result()
	if err != nil {
		t.Fatal(err)
	}
	var pe *protocol.Error
	if e, ok := res.(*kit.Reply).Err.(*protocol.Error); ok {
		pe = e
	}
	if pe == nil || pe.Code != protocol.CodeIntegrationInstallFailed || !strings.Contains(pe.Message, ".claude") {
		t.Errorf("install without ~/.claude: %+v", res)
	}
}
