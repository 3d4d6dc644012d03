package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The front (cmd/herdr) links neither the actor runtime nor the
// interactive client, nor crypto or image packages: that is what makes one
// `herdr pane …` call cheap.
func TestFront_LinksNoRuntime(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/herdr")
	cmd.Dir = ModuleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	for _, heavy := range []string{"github.com/asynkron/protoactor-go/actor", "charm.land/bubbletea/v2",
		"github.com/herdr-go/herdr/tui", "github.com/herdr-go/herdr/emulator", "github.com/herdr-go/herdr/actors/server",
		"google.golang.org/protobuf/proto", "github.com/prometheus/client_golang/prometheus",
		// Their inits ran at every call: crypto/rand and crypto/sha256 brought
		// the FIPS module, image/png compress/flate and hash/crc32.
		"crypto/internal/fips140", "crypto/sha256", "crypto/rand", "image/png", "compress/flate", "hash/crc32"} {
		if slices.Contains(deps, heavy) {
			t.Errorf("cmd/herdr links %s", heavy)
		}
	}
	if !slices.Contains(deps, "github.com/herdr-go/herdr/cli") {
		t.Errorf("cmd/herdr does not link the command line: %v", deps)
	}
}

// A front with no herdr-full beside it still runs every scripted command;
// what needs herdr-full says so in one line and exits 1, and
// $HERDR_FULL_BINARY names another one, which gets the command line as
// given and whose exit status becomes the front's.
func TestFront_HandsOverToHerdrFull(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in herdr-full is a shell script")
	}
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	alone := filepath.Join(t.TempDir(), "herdr")
	bin, err := os.ReadFile(HerdrBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, args ...string) (string, string, int) {
		cmd := exec.Command(alone, append([]string{"--session", s.Name}, args...)...)
		cmd.Env = env
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}

	out, stderr, code := run(s.Env, "pane", "list")
	if code != 0 || !strings.Contains(out, "w1:p1") {
		t.Fatalf("pane list from a lone front: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, args := range [][]string{{"server"}, {"config", "check"}} {
		out, stderr, code := run(s.Env, args...)
		if code != 1 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "herdr-full") || !strings.Contains(stderr, "is missing") {
			t.Errorf("herdr %v from a lone front: exit %d, stdout %q, stderr %q; want one line saying herdr-full is missing, exit 1", args, code, out, stderr)
		}
	}

	dir := t.TempDir()
	got := filepath.Join(dir, "args")
	stand := filepath.Join(dir, "full")
	script := "#!/bin/sh\necho \"$@\" > " + ShellQuoted(got) + "\nexit 7\n"
	if err := os.WriteFile(stand, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(append(slices.Clone(s.Env), "HERDR_FULL_BINARY="+stand), "server")
	if code != 7 {
		t.Fatalf("herdr server handed to a herdr-full that exits 7: exit %d, stderr %q", code, stderr)
	}
	if b, err := os.ReadFile(got); err != nil || strings.TrimSpace(string(b)) != "--session "+s.Name+" server" {
		t.Fatalf("herdr-full got %q (%v), want the command line as given", b, err)
	}
	// Nothing else moved: the running server still answers.
	OK[protocol.Pong](t, s.Call("ping", nil), "pong")
}
