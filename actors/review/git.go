package review

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// The git work of review, run on a job's goroutine. Every value a caller
// gave that reaches git's argv is checked first (a base is a ref name, no
// leading '-') or follows "--" as a literal pathspec; the branch comes
// from git itself.

// branchOf is the branch checked out at checkout.
func branchOf(checkout string) (string, error) {
	out, err := wsactor.Git(checkout, "symbolic-ref", "--short", "-q", "HEAD")
	b := strings.TrimSpace(out)
	if err != nil || b == "" {
		return "", protocol.Errorf(protocol.CodeNoReviewBranch, "%s has no branch checked out (detached HEAD?): %s", checkout, wsactor.GitMessage(err))
	}
	return b, nil
}

// bases is what a branch is compared with and merged into.
type bases struct {
	repo     wsactor.Repo
	base     string // the base branch (or ref)
	checkout string // the checkout that has base checked out ("" none)
}

// baseOf finds the base of the branch at checkout: the named one, or the
// branch of the repository's main checkout.
func baseOf(checkout, branch, base string) (bases, error) {
	repo, err := wsactor.RepoOf(nil, checkout)
	if err != nil {
		return bases{}, err
	}
	if !repo.Linked() {
		return bases{}, protocol.Errorf(protocol.CodeNoReviewBranch, "%s is the main checkout of %s, not a linked worktree: it has no base to review against", checkout, repo.Root)
	}
	trees, err := wsactor.ListWorktrees(nil, repo)
	if err != nil {
		return bases{}, err
	}
	b := bases{repo: repo, base: base}
	if base == "" {
		if len(trees) == 0 || trees[0].Branch == nil {
			return bases{}, protocol.Errorf(protocol.CodeNoReviewBranch, "the main checkout %s has no branch checked out; name the base (base)", repo.Root)
		}
		b.base = *trees[0].Branch
	}
	if b.base == branch {
		return bases{}, protocol.Errorf(protocol.CodeNoReviewBranch, "%s is on %s, its own base; name another base", checkout, branch)
	}
	for _, t := range trees {
		if t.Branch != nil && *t.Branch == b.base {
			b.checkout = t.Path
		}
	}
	if _, err := wsactor.Git(checkout, "rev-parse", "--verify", "--quiet", b.base+"^{commit}"); err != nil {
		return bases{}, protocol.Errorf(protocol.CodeNoReviewBranch, "the base %q is no commit of %s", b.base, repo.Root)
	}
	return b, nil
}

// diffRange is the commits a diff covers: from the merge-base to head.
type diffRange struct{ mergeBase, head string }

func rangeOf(checkout, base string) (diffRange, error) {
	head, err := wsactor.Git(checkout, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return diffRange{}, protocol.Errorf(protocol.CodeNoReviewBranch, "%s: no commit: %s", checkout, wsactor.GitMessage(err))
	}
	mb, err := wsactor.Git(checkout, "merge-base", base, "HEAD")
	if err != nil {
		return diffRange{}, protocol.Errorf(protocol.CodeNoReviewBranch, "%s has no common commit with %s: %s", checkout, base, wsactor.GitMessage(err))
	}
	return diffRange{mergeBase: strings.TrimSpace(mb), head: strings.TrimSpace(head)}, nil
}

// diffFiles lists the files the range changes, at most MaxDiffFiles
// (truncated says there were more).
func diffFiles(checkout string, r diffRange) (files []protocol.DiffFile, truncated bool, err error) {
	status, err := wsactor.Git(checkout, "diff", "--no-ext-diff", "--no-textconv", "-M", "--name-status", "-z", r.mergeBase, r.head)
	if err != nil {
		return nil, false, protocol.Errorf(protocol.CodeInternal, "git diff --name-status: %s", wsactor.GitMessage(err))
	}
	nums, err := wsactor.Git(checkout, "diff", "--no-ext-diff", "--no-textconv", "-M", "--numstat", "-z", r.mergeBase, r.head)
	if err != nil {
		return nil, false, protocol.Errorf(protocol.CodeInternal, "git diff --numstat: %s", wsactor.GitMessage(err))
	}
	files = parseNameStatus(status)
	counts := parseNumstat(nums)
	for i := range files {
		if c, ok := counts[files[i].Path]; ok {
			files[i].Additions, files[i].Deletions, files[i].Binary = c.add, c.del, c.binary
		}
	}
	if len(files) > protocol.MaxDiffFiles {
		return files[:protocol.MaxDiffFiles], true, nil
	}
	return files, false, nil
}

// parseNameStatus reads `git diff --name-status -z`: a status, then one
// path (two for a rename or copy: old, new).
func parseNameStatus(out string) []protocol.DiffFile {
	f := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	var files []protocol.DiffFile
	for i := 0; i < len(f); {
		st := f[i]
		if st == "" {
			break
		}
		code := st[:1]
		if (code == "R" || code == "C") && i+2 < len(f) {
			files = append(files, protocol.DiffFile{Status: code, OldPath: f[i+1], Path: f[i+2]})
			i += 3
			continue
		}
		if i+1 >= len(f) {
			break
		}
		files = append(files, protocol.DiffFile{Status: code, Path: f[i+1]})
		i += 2
	}
	return files
}

type lineCounts struct {
	add, del int
	binary   bool
}

// parseNumstat reads `git diff --numstat -z`: "added\tdeleted\tpath\0", or
// for a rename "added\tdeleted\t\0old\0new\0"; "-" counts a binary file.
func parseNumstat(out string) map[string]lineCounts {
	m := map[string]lineCounts{}
	f := strings.Split(out, "\x00")
	for i := 0; i < len(f); i++ {
		parts := strings.SplitN(f[i], "\t", 3)
		if len(parts) != 3 {
			continue
		}
		path := parts[2]
		if path == "" && i+2 < len(f) { // a rename: old, then new
			path = f[i+2]
			i += 2
		}
		c := lineCounts{binary: parts[0] == "-" && parts[1] == "-"}
		c.add, _ = strconv.Atoi(parts[0])
		c.del, _ = strconv.Atoi(parts[1])
		m[path] = c
	}
	return m
}

// diffText is the unified diff of the range, at most MaxDiffBytes (cut
// at a line's end). Binary files are named by git, not dumped (no
// --binary).
func diffText(checkout string, r diffRange) (string, bool, error) {
	out, truncated, err := wsactor.GitBounded(checkout, protocol.MaxDiffBytes, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", r.mergeBase, r.head)
	if err != nil {
		return "", false, protocol.Errorf(protocol.CodeInternal, "git diff: %s", wsactor.GitMessage(err))
	}
	if truncated {
		if i := strings.LastIndexByte(out, '\n'); i >= 0 {
			out = out[:i+1]
		}
	}
	return out, truncated, nil
}

// uncommitted lists the tracked files of checkout with changes no commit
// has (at most 10 named).
func uncommitted(checkout string) ([]string, error) {
	out, err := wsactor.Git(checkout, "status", "--porcelain", "--untracked-files=no", "-z")
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "git status in %s: %s", checkout, wsactor.GitMessage(err))
	}
	var files []string
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) > 3 {
			files = append(files, rec[3:])
		}
	}
	return files, nil
}

// hunks are the line ranges of a file's hunks, first and last line
// inclusive, on the side its comments number.
type hunks [][2]int

func (h hunks) holds(line int) bool {
	for _, r := range h {
		if line >= r[0] && line <= r[1] {
			return true
		}
	}
	return false
}

// fileHunks reads the hunks of one file of the range: the new side's
// lines, the old side's for a deleted file. The path follows "--" as a
// literal pathspec.
func fileHunks(checkout string, r diffRange, f protocol.DiffFile) (hunks, error) {
	args := []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", r.mergeBase, r.head, "--", ":(literal)" + f.Path}
	if f.OldPath != "" {
		args = append(args, ":(literal)"+f.OldPath)
	}
	out, _, err := wsactor.GitBounded(checkout, 4*protocol.MaxDiffBytes, args...)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "git diff %s: %s", f.Path, wsactor.GitMessage(err))
	}
	return parseHunks(out, f.Status == "D"), nil
}

// parseHunks reads the "@@ -a,b +c,d @@" headers of a unified diff.
func parseHunks(diff string, oldSide bool) hunks {
	var h hunks
	for _, line := range strings.Split(diff, "\n") {
		rest, ok := strings.CutPrefix(line, "@@ -")
		if !ok {
			continue
		}
		oldR, rest, _ := strings.Cut(rest, " +")
		newR, _, _ := strings.Cut(rest, " @@")
		spec := newR
		if oldSide {
			spec = oldR
		}
		start, n := hunkRange(spec)
		if n > 0 {
			h = append(h, [2]int{start, start + n - 1})
		}
	}
	return h
}

// hunkRange reads "start,count" (count 1 when omitted).
func hunkRange(s string) (int, int) {
	a, b, found := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0
	}
	n := 1
	if found {
		if n, err = strconv.Atoi(b); err != nil {
			return 0, 0
		}
	}
	return start, n
}

// merge merges branch into the base at its checkout (git merge --no-ff),
// refusing a dirty base; a conflict is aborted and named. Nothing is
// changed when it fails.
func merge(b bases, branch, why string) (string, error) {
	if b.checkout == "" {
		return "", protocol.Errorf(protocol.CodeMergeFailed, "the base %s is not checked out in any checkout of %s; check it out to merge into it", b.base, b.repo.Root)
	}
	dirty, err := uncommitted(b.checkout)
	if err != nil {
		return "", err
	}
	if len(dirty) > 0 {
		return "", protocol.Errorf(protocol.CodeDirtyBase, "the base checkout %s (%s) has uncommitted changes (%s); commit or stash them first: nothing was merged", b.checkout, b.base, names(dirty))
	}
	msg := fmt.Sprintf("Merge branch '%s' into %s\n\n%s", branch, b.base, why)
	_, err = wsactor.Git(b.checkout, "merge", "--no-ff", "--no-edit", "-m", msg, "refs/heads/"+branch)
	if err == nil {
		head, err := wsactor.Git(b.checkout, "rev-parse", "--verify", "HEAD")
		return strings.TrimSpace(head), err
	}
	conflicts, _ := wsactor.Git(b.checkout, "diff", "--name-only", "--diff-filter=U", "-z")
	files := strings.FieldsFunc(conflicts, func(r rune) bool { return r == 0 })
	if _, aerr := wsactor.Git(b.checkout, "rev-parse", "-q", "--verify", "MERGE_HEAD"); aerr == nil {
		if _, aerr := wsactor.Git(b.checkout, "merge", "--abort"); aerr != nil {
			return "", protocol.Errorf(protocol.CodeMergeFailed, "merging %s into %s failed (%s) and the merge could not be aborted in %s: %s", branch, b.base, wsactor.GitMessage(err), b.checkout, wsactor.GitMessage(aerr))
		}
	}
	if len(files) > 0 {
		return "", protocol.Errorf(protocol.CodeMergeConflict, "merging %s into %s conflicts in %s; the merge was aborted and %s is as it was", branch, b.base, names(files), b.checkout)
	}
	return "", protocol.Errorf(protocol.CodeMergeFailed, "git merge of %s into %s in %s: %s; nothing was merged", branch, b.base, b.checkout, wsactor.GitMessage(err))
}

// names lists files for a message: at most 10, then how many more.
func names(files []string) string {
	if len(files) <= 10 {
		return strings.Join(files, ", ")
	}
	return strings.Join(files[:10], ", ") + fmt.Sprintf(" and %d more", len(files)-10)
}

// pushCommand is the command that pushes branch for a pull request: to
// its upstream's remote, else origin (or the only remote).
func pushCommand(checkout, branch string) string {
	remote := "origin"
	if out, err := wsactor.Git(checkout, "config", "--get", "branch."+branch+".remote"); err == nil && strings.TrimSpace(out) != "" {
		remote = strings.TrimSpace(out)
	} else if out, err := wsactor.Git(checkout, "remote"); err == nil {
		if list := strings.Fields(out); len(list) == 1 {
			remote = list[0]
		}
	}
	return "git -C " + shellWord(filepath.Clean(checkout)) + " push -u " + shellWord(remote) + " " + shellWord(branch)
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
