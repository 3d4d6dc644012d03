package gorun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// `go run ./cmd/herdr` is the README's first command: the front go run
// builds finds no herdr-full beside it and builds one into the state
// directory. Since Go 1.24 a second go run of the same build runs the
// binary from the build cache, so the front must tell a go-run build by
// where go puts it, not by a "/go-build" in the path (GOCACHE may be
// called anything).

// goRunCache is the build cache of these tests: the environment's when its
// path has no "go-build" in it, else one of their own, named without it
// and kept between runs. A new one is seeded with hard links to the
// environment's entries (seedCache), so that go run finds what the test
// run itself compiled rather than compiling herdr and herdr-full again
// (52 s on an idle 2-core machine, 3 minutes on a busy one). The module
// cache is the environment's, so nothing is downloaded.
func goRunCache(t *testing.T) string {
	t.Helper()
	env := ""
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if env = strings.TrimSpace(string(out)); env != "" && env != "off" && !strings.Contains(env, "go-build") {
			return env
		}
	}
	dir := filepath.Join(os.TempDir(), "herdr-e2e-gorun-cache-"+strconv.Itoa(os.Getuid()))
	if _, err := os.Stat(dir); os.IsNotExist(err) && env != "" && env != "off" {
		n, err := seedCache(env, dir)
		t.Logf("build cache %s seeded with %d entries of %s (%v)", dir, n, env, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// seedCache hard-links the files of the build cache from into a new cache
// to (each entry is a file of its own, so a partial seed, cut short by a
// link across file systems, is a smaller cache, never a wrong one).
func seedCache(from, to string) (int, error) {
	n := 0
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := os.Link(path, filepath.Join(to, rel)); err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}

// goRun runs `go run ./cmd/herdr args...` in the module root with env.
func goRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "./cmd/herdr"}, args...)...)
	cmd.Dir = ModuleRoot
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	t.Logf("go run ./cmd/herdr %s: %.1f s", strings.Join(args, " "), time.Since(start).Seconds())
	code = 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("go run: %v", err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

func TestGoRun_SecondRunWithAnyGOCACHE(t *testing.T) {
	if testing.Short() {
		t.Skip("go run compiles herdr and herdr-full (minutes on a cold build cache); skipped under -short")
	}
	h := NewHome(t)
	env := append(withoutVar(h.Env, "GOCACHE"), "GOCACHE="+goRunCache(t))

	// config check is one of the commands the front hands to herdr-full.
	for run := 1; run <= 2; run++ {
		stdout, stderr, code := goRun(t, env, "config", "check")
		if code != 0 || !strings.Contains(stdout, "config: ok") {
			t.Fatalf("run %d: exit %d\nstdout: %s\nstderr: %s", run, code, stdout, stderr)
		}
		t.Logf("run %d stderr: %s", run, stderr)
		first := strings.Contains(stderr, "building herdr-full (first run")
		if first != (run == 1) {
			t.Errorf("run %d: said it builds herdr-full for the first time: %v\nstderr: %s", run, first, stderr)
		}
	}
	full := filepath.Join(h.Dir, "s", "herdr", "bin", "herdr-full")
	if _, err := os.Stat(full); err != nil {
		t.Errorf("herdr-full was not built into the state directory: %v", err)
	}
}

// withoutVar is env without the variable name.
func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
