package workspace

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// Git runs the git commands of the worktree methods and of
// workspace.git_status: argv, never a shell, each bounded by GitTimeout.
// It is called on goroutines of the worktrees actor and of the workspace
// actor, never in a Receive.

// GitTimeout bounds one git command; a hung git (a lock, a huge
// repository) answers with an error instead of waiting for ever.
var GitTimeout = 30 * time.Second

// Repo is what git says of the repository a folder belongs to.
type Repo struct {
	Key      string // the canonical common git directory: one per repository
	Name     string // the main checkout's folder name
	Root     string // the main checkout
	Checkout string // the checkout the folder is in
}

// Linked reports whether the folder's checkout is a linked worktree.
func (r Repo) Linked() bool { return r.Checkout != r.Root }

// Provenance is the checkout's place in its worktree group.
func (r Repo) Provenance() *protocol.WorkspaceWorktreeInfo {
	return &protocol.WorkspaceWorktreeInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, CheckoutPath: r.Checkout, IsLinkedWorktree: r.Linked()}
}

// git runs one git command in dir and returns its standard output; a
// failure carries git's own message.
func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = 2 * time.Second // a helper git started cannot hold the pipes past the timeout
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("git %s timed out after %v", args[0], GitTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", &gitError{msg: msg}
	}
	return stdout.String(), nil
}

// Trust is what one worktree request lets git trust: with
// trust_repository (Allowed), each repository git refuses as owned by
// another user ("detected dubious ownership") is trusted for the rest of
// the request by passing -c safe.directory=<the path git named> to every
// later git command of it; never a wildcard, never written to any git
// config. Without it such a repository answers repository_not_trusted.
// One request's job uses it, on one goroutine; nil trusts nothing.
type Trust struct {
	Allowed bool
	safe    []string // the paths git named, in the order it did
}

// maxTrusted bounds the paths one request trusts: a request touches one
// repository, its main checkout and the checkout it started in.
const maxTrusted = 4

// git runs one git command for the request, trusting what it may.
func (t *Trust) git(dir string, args ...string) (string, error) {
	for {
		var full []string
		if t != nil {
			for _, p := range t.safe {
				full = append(full, "-c", "safe.directory="+p)
			}
		}
		out, err := git(dir, append(full, args...)...)
		path, dubious := dubiousOwnership(err)
		if !dubious {
			return out, err
		}
		if t == nil || !t.Allowed {
			return "", &untrustedError{path: path}
		}
		if slices.Contains(t.safe, path) || len(t.safe) >= maxTrusted {
			return "", err // git refuses even so: its own words
		}
		t.safe = append(t.safe, path)
	}
}

// dubiousOwnership finds, in git's refusal of a repository owned by
// another user, the path it names (LC_ALL=C: git's own English).
func dubiousOwnership(err error) (string, bool) {
	var ge *gitError
	if !errors.As(err, &ge) {
		return "", false
	}
	for _, line := range strings.Split(ge.msg, "\n") {
		for _, lead := range []string{"detected dubious ownership in repository at '", "unsafe repository ('"} {
			if _, rest, ok := strings.Cut(line, lead); ok {
				if i := strings.LastIndexByte(rest, '\''); i > 0 {
					return rest[:i], true
				}
			}
		}
	}
	return "", false
}

// untrustedError is a repository git will not work on without
// trust_repository.
type untrustedError struct{ path string }

func (e *untrustedError) Error() string { return e.path }

// asUntrusted is the wire error of a refusal for ownership, or nil.
func asUntrusted(err error) error {
	var ue *untrustedError
	if !errors.As(err, &ue) {
		return nil
	}
	return protocol.Errorf(protocol.CodeRepositoryNotTrusted, "git refuses the repository at %s: it is owned by another user; pass trust_repository (--trust-repository) to trust it for this request", ue.path)
}

// gitError is git's own complaint.
type gitError struct{ msg string }

func (e *gitError) Error() string { return e.msg }

// RepoOf finds the repository of dir.
func RepoOf(t *Trust, dir string) (Repo, error) {
	out, err := t.git(dir, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel")
	if err != nil {
		if u := asUntrusted(err); u != nil {
			return Repo{}, u
		}
		var ge *gitError
		if errors.As(err, &ge) {
			return Repo{}, protocol.Errorf(protocol.CodeNotGitWorktree, "%s is not in a git checkout: %v", dir, err)
		}
		return Repo{}, protocol.Errorf(protocol.CodeWorktreeListFailed, "%v", err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return Repo{}, protocol.Errorf(protocol.CodeNotGitWorktree, "%s is not in a work tree (a bare repository?)", dir)
	}
	common, top := canonical(lines[0]), canonical(lines[1])
	root := common
	if filepath.Base(common) == ".git" {
		root = filepath.Dir(common)
	}
	return Repo{Key: common, Name: filepath.Base(root), Root: root, Checkout: top}, nil
}

func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// ListWorktrees lists the repository's checkouts, main one first.
func ListWorktrees(t *Trust, repo Repo) ([]protocol.WorktreeInfo, error) {
	out, err := t.git(repo.Root, "worktree", "list", "--porcelain")
	// A checkout another git command is adding at this moment can be
	// half-written (git: "failed to read .git/worktrees/X/commondir"); it
	// is whole a moment later, so the list is asked again a few times.
	for try := 0; try < 5 && err != nil && strings.Contains(err.Error(), "worktrees/"); try++ {
		time.Sleep(20 * time.Millisecond << try)
		out, err = t.git(repo.Root, "worktree", "list", "--porcelain")
	}
	if u := asUntrusted(err); u != nil {
		return nil, u
	}
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeWorktreeListFailed, "git worktree list: %v", err)
	}
	var list []protocol.WorktreeInfo
	var cur *protocol.WorktreeInfo
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "worktree":
			list = append(list, protocol.WorktreeInfo{Path: canonical(val)})
			cur = &list[len(list)-1]
			cur.IsLinkedWorktree = len(list) > 1
			cur.Label = filepath.Base(cur.Path)
		case "branch":
			if cur != nil {
				b := strings.TrimPrefix(val, "refs/heads/")
				cur.Branch, cur.Label = &b, b
			}
		case "detached":
			if cur != nil {
				cur.IsDetached = true
			}
		case "bare":
			if cur != nil {
				cur.IsBare = true
			}
		case "prunable":
			if cur != nil {
				cur.IsPrunable = true
			}
		}
	}
	return list, nil
}

// CreateWorktree checks out branch at path: an existing local branch is
// used as it is, else the branch is made from base (HEAD when empty).
// branch and base are checked here too, whoever the caller: `worktree add
// -b` hands them to a `git branch` of its own, where "--" cannot reach,
// so {"branch":"-D","base":"x"} would delete branch x.
func CreateWorktree(t *Trust, repo Repo, path, branch, base string) error {
	if err := protocol.BranchName("branch", &branch); err != nil {
		return err
	}
	if base != "" {
		if err := protocol.RefName("base", &base); err != nil {
			return err
		}
	}
	// "--" ends the options of every git command below: a value after it
	// is never taken for one.
	args := []string{"worktree", "add", "--", path, branch}
	if _, err := t.git(repo.Root, "show-ref", "--verify", "--quiet", "--", "refs/heads/"+branch); err != nil {
		if u := asUntrusted(err); u != nil {
			return u
		}
		if base == "" {
			base = "HEAD"
		}
		args = []string{"worktree", "add", "-b", branch, "--", path, base}
	}
	if _, err := t.git(repo.Root, args...); err != nil {
		if u := asUntrusted(err); u != nil {
			return u
		}
		return protocol.Errorf(protocol.CodeWorktreeCreateFailed, "git worktree add: %v", err)
	}
	return nil
}

// RemoveWorktree removes the checkout at path (the branch stays). A
// checkout with changes needs force.
func RemoveWorktree(t *Trust, repo Repo, path string, force bool) error {
	args := []string{"worktree", "remove", "--", path}
	if force {
		args = []string{"worktree", "remove", "--force", "--", path}
	}
	if _, err := t.git(repo.Root, args...); err != nil {
		if u := asUntrusted(err); u != nil {
			return u
		}
		if msg := err.Error(); strings.Contains(msg, "modified or untracked files") || strings.Contains(msg, "use --force") {
			return protocol.Errorf(protocol.CodeDirtyWorktree, "%s has changes; remove it with force to discard them", path)
		}
		return protocol.Errorf(protocol.CodeWorktreeRemoveFailed, "git worktree remove: %v", err)
	}
	return nil
}

// Slug makes a folder name of a branch: lowercase ASCII letters and
// digits, every other run one '-', trimmed ("worktree" if nothing is left).
func Slug(branch string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(branch) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return "worktree"
	}
	return s
}

var (
	branchAdjectives = []string{"brave", "calm", "clear", "green", "lucky", "quiet", "rapid", "silver"}
	branchNouns      = []string{"river", "cloud", "field", "forest", "harbor", "meadow", "stone", "valley"}
)

// NewBranchName is a fresh branch name: worktree/<adjective>-<noun>-<4 hex>.
func NewBranchName() string {
	pick := func(words []string) string {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(words))))
		return words[n.Int64()]
	}
	var suffix [2]byte
	_, _ = rand.Read(suffix[:])
	return fmt.Sprintf("worktree/%s-%s-%s", pick(branchAdjectives), pick(branchNouns), hex.EncodeToString(suffix[:]))
}
