//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// A git that hangs (a lock, a huge repository) answers with an error at
// the timeout instead of holding the workspace's job for ever.
func TestGit_HungGitTimesOut(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	old := GitTimeout
	GitTimeout = 300 * time.Millisecond
	defer func() { GitTimeout = old }()
	start := time.Now()
	_, err := RepoOf(nil, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "timed out") || protocol.AsError(err).Code != protocol.CodeWorktreeListFailed {
		t.Fatalf("a hung git gave %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the timeout took %v", took)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"feature/Big_Idea": "feature-big-idea", "--x--": "x", "ÄÖ": "worktree", "a..b": "a-b"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	if b := NewBranchName(); !strings.HasPrefix(b, "worktree/") || len(strings.Split(b, "-")) != 3 {
		t.Errorf("NewBranchName() = %q", b)
	}
}
