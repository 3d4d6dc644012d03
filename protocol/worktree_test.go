package protocol

import (
	"os/exec"
	"testing"
)

// BranchName agrees with git's own `check-ref-format --branch` on names
// good and bad, option-like ones first.
func TestBranchName_AgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	names := []string{
		"main", "feature/Big_Idea", "worktree/brave-river-0a1b", "v1.2.3", "ümlaut", "a-b", "x@y", "a.b/c.d",
		"-D", "--unset-upstream", "--lock", "-q", "-", "HEAD", "a..b", "a~1", "a^", "a:b", "a?", "a*", "a[b",
		"a\\b", "a b", "a\tb", "a\x1bb", "a\x7f", "a@{0}", "x.lock", "a/x.lock/b", ".hidden", "a/.b", "a/", "/a",
		"a//b", "a.", "a/b.",
	}
	for _, name := range names {
		gitSays := exec.Command("git", "check-ref-format", "--branch", name).Run() == nil
		n := name
		if weSay := BranchName("branch", &n) == nil; weSay != gitSays {
			t.Errorf("%q: BranchName accepts=%v, git accepts=%v", name, weSay, gitSays)
		}
	}
	// git takes "@" for HEAD's branch there; as a name it would not be one.
	at := "@"
	if BranchName("branch", &at) == nil {
		t.Error(`"@" accepted`)
	}
}

func TestRefName_AllowsHEADAndRefusesOptions(t *testing.T) {
	for _, ok := range []string{"HEAD", "main", "origin/main", "refs/tags/v1", "0123abcd"} {
		if err := RefName("base", &ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"-D", "--lock", "main~1", "a..b", "HEAD^", "@{-1}"} {
		err := RefName("base", &bad)
		if err == nil || AsError(err).Code != CodeInvalidParams {
			t.Errorf("%q: %v, want %s", bad, err, CodeInvalidParams)
		}
	}
}
