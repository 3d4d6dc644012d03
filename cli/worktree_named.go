package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/herdr-go/herdr/protocol"
)

// removeWorktreeNamed is `worktree remove <path>|<branch>`: it lists the
// repository's worktrees (worktree.list), finds the one at that path or on
// that branch, and removes its workspace, both on one connection. A name
// that is an existing folder is a path, its repository the one listed;
// otherwise it is a branch of the repository at cwd (default: the current
// folder).
func (a *app) removeWorktreeNamed(name, cwd string, p protocol.WorktreeRemoveParams) int {
	const id = "cli:worktree:remove"
	path, isPath := existingDir(name)
	src := path
	if !isPath {
		if cwd == "" {
			wd, err := a.getwd()
			if err != nil {
				return a.fail(id, protocol.Errorf(protocol.CodeInvalidRequest, "cannot read the current folder: %v", err))
			}
			cwd = wd
		}
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return a.fail(id, protocol.Errorf(protocol.CodeInvalidRequest, "bad --cwd %q: %v", cwd, err))
		}
		src = abs
	}
	c, sock, code := a.connect(id)
	if c == nil {
		return code
	}
	defer c.Close()
	line, resp, err := roundTrip(c, id, "worktree.list", protocol.WorktreeListParams{
		WorktreeSource: protocol.WorktreeSource{Cwd: &src, TrustRepository: p.TrustRepository}})
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	var list protocol.WorktreeList
	if err := protocol.Unmarshal(resp.Result, &list); err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInternal, "unreadable worktree.list result: %v", err))
	}
	w, ok := findWorktree(list.Worktrees, name, path, isPath)
	switch {
	case !ok:
		what := "on branch"
		if isPath {
			what = "at"
		}
		return a.fail(id, protocol.Errorf(protocol.CodeWorktreeNotFound, "no worktree of %s %s %s", list.Source.RepoRoot, what, protocol.Printable(name)))
	case !w.IsLinkedWorktree:
		return a.fail(id, protocol.Errorf(protocol.CodeNotLinkedWorktree, "%s is the repository's main checkout, not a linked worktree", w.Path))
	case w.OpenWorkspaceID == nil:
		return a.fail(id, protocol.Errorf(protocol.CodeWorktreeNotFound, "the worktree at %s is not open as a workspace (git worktree remove removes it)", w.Path))
	}
	p.WorkspaceID = *w.OpenWorkspaceID
	line, resp, err = roundTrip(c, id, "worktree.remove", p)
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	return a.printLine(line, resp)
}

// existingDir is name's absolute, link-resolved path when it is a folder.
func existingDir(name string) (string, bool) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", false
	}
	return samePathKey(abs), true
}

// samePathKey resolves links so /tmp and /private/tmp compare equal.
func samePathKey(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// findWorktree picks the worktree at path (isPath) or on branch name.
func findWorktree(ws []protocol.WorktreeInfo, name, path string, isPath bool) (protocol.WorktreeInfo, bool) {
	for _, w := range ws {
		if isPath && samePathKey(w.Path) == path {
			return w, true
		}
		if !isPath && w.Branch != nil && (*w.Branch == name || *w.Branch == "refs/heads/"+name) {
			return w, true
		}
	}
	return protocol.WorktreeInfo{}, false
}
