//go:build linux || darwin

package plugins

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A record whose leader has another start stamp and whose session
// carries no run token names a process that is not ours (a pid used
// again): it is left alone and the record removed. A record of a live
// run is what a running command leaves, and is gone when it ends.
func TestEndLeftRuns_OnlyOurs(t *testing.T) {
	dir := t.TempDir()
	other := exec.Command("sleep", "300")
	other.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	b, _ := json.Marshal(runRecord{PID: other.Process.Pid, Start: startStamp(other.Process.Pid) + "0", Token: "not-its-token", Argv: []string{"x"}})
	if err := os.WriteFile(filepath.Join(dir, "1.run"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "2.run"), []byte(`{"pid":5,"pid":6}`), 0o600) // a corrupt record
	var logged bytes.Buffer
	if n := EndLeftRuns(dir, slog.New(slog.NewTextHandler(&logged, nil))); n != 0 {
		t.Fatalf("ended %d processes of a record not ours", n)
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the other program was killed: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 || !strings.Contains(logged.String(), "unreadable") {
		t.Fatalf("records left %v, log %s", left, logged.String())
	}

	// A run in progress is recorded; the record is ours to end.
	started := filepath.Join(dir, "started")
	cmd := NewCommand(Job{Argv: []string{"sh", "-c", "touch " + started + "; exec sleep 300"}, Env: os.Environ(), Records: dir}, time.Hour)
	done := make(chan Outcome, 1)
	go func() { done <- cmd.Run() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		if _, err := os.Stat(started); err == nil && len(entries) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no record of the running command")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := EndLeftRuns(dir, slog.New(slog.NewTextHandler(&logged, nil))); n != 1 || !strings.Contains(logged.String(), "level=WARN") {
		t.Fatalf("ended %d of the recorded run; log %s", n, logged.String())
	}
	select {
	case o := <-done:
		if o.ExitCode != nil {
			t.Fatalf("the run was not killed: %+v", o)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the recorded run was not ended")
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 { // the started marker alone
		t.Fatalf("records left after the run: %v", left)
	}
}
