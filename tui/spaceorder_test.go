package tui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// spacesDrawn is the spaces list as drawn: each workspace's first row, its
// indent and its text.
func spacesDrawn(m *model) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range m.side.sidebarItems() {
		if it.kind != "workspace" || seen[it.id] {
			continue
		}
		seen[it.id] = true
		var b strings.Builder
		for _, s := range it.segs[1:] { // after the state icon
			b.WriteString(s.text)
		}
		out = append(out, strconv.Itoa(it.x)+":"+b.String())
	}
	return out
}

// The issue's session: an unrelated workspace, then `worktree create
// --branch feature-x` (a linked worktree), then `worktree open --branch main`
// (the repository's main checkout, opened last). The worktree sits under its
// repository's row, which comes where the group's first member is; folding
// the repository hides its worktree and nothing else.
func TestSidebar_WorktreeUnderItsRepositoryInHerdrsOrder(t *testing.T) {
	m := panelModel(t, "")
	repo := func(linked bool) *protocol.WorkspaceWorktreeInfo {
		return &protocol.WorkspaceWorktreeInfo{RepoKey: "/repo", RepoName: "repo", RepoRoot: "/repo", IsLinkedWorktree: linked}
	}
	m.snap.Workspaces = []protocol.WorkspaceInfo{
		{WorkspaceID: "w1", Number: 1, Label: "notes", Focused: true, TabCount: 1},
		{WorkspaceID: "w2", Number: 2, Label: "feature-x", TabCount: 1, Worktree: repo(true)},
		{WorkspaceID: "w3", Number: 3, Label: "repo", TabCount: 1, Worktree: repo(false)},
		{WorkspaceID: "w4", Number: 4, Label: "scratch", TabCount: 1},
	}
	want := "1:1 notes / 1:▾ 3 repo / 3:↳ 2 feature-x / 1:4 scratch"
	if got := strings.Join(spacesDrawn(m), " / "); got != want {
		t.Errorf("unfolded:\n got %q\nwant %q", got, want)
	}
	m.side.collapsed = map[string]bool{"/repo": true}
	want = "1:1 notes / 1:▸ 3 repo / 1:4 scratch"
	if got := strings.Join(spacesDrawn(m), " / "); got != want {
		t.Errorf("folded:\n got %q\nwant %q", got, want)
	}
	// A folded group still shows its focused worktree (Herdr's rule).
	m.snap.Workspaces[0].Focused, m.snap.Workspaces[1].Focused = false, true
	want = "1:1 notes / 1:▸ 3 repo / 3:↳ 2 feature-x / 1:4 scratch"
	if got := strings.Join(spacesDrawn(m), " / "); got != want {
		t.Errorf("folded, the worktree focused:\n got %q\nwant %q", got, want)
	}
}

// A group's members are gathered under the repository's row however the
// session orders them; a workspace of another repository stays where it is.
func TestSidebar_WorktreeGroupGathersScatteredMembers(t *testing.T) {
	m := panelModel(t, "")
	wt := func(key string, linked bool) *protocol.WorkspaceWorktreeInfo {
		return &protocol.WorkspaceWorktreeInfo{RepoKey: key, RepoName: key, RepoRoot: key, IsLinkedWorktree: linked}
	}
	m.snap.Workspaces = []protocol.WorkspaceInfo{
		{WorkspaceID: "w1", Number: 1, Label: "a", Focused: true, TabCount: 1, Worktree: wt("/a", false)},
		{WorkspaceID: "w2", Number: 2, Label: "b", TabCount: 1, Worktree: wt("/b", false)},
		{WorkspaceID: "w3", Number: 3, Label: "a-fix", TabCount: 1, Worktree: wt("/a", true)},
		{WorkspaceID: "w4", Number: 4, Label: "lonely", TabCount: 1, Worktree: wt("/c", true)},
	}
	want := "1:▾ 1 a / 3:↳ 3 a-fix / 1:2 b / 1:4 lonely"
	if got := strings.Join(spacesDrawn(m), " / "); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// A worktree of a repository with no open workspace is a top-level entry:
// no ↳, which would hang it under the unrelated workspace above it; two
// worktrees of a repository whose main checkout is not open are no group
// either.
func TestSidebar_WorktreeWithoutItsRepositoryIsTopLevel(t *testing.T) {
	m := panelModel(t, "")
	wt := func(key string) *protocol.WorkspaceWorktreeInfo {
		return &protocol.WorkspaceWorktreeInfo{RepoKey: key, RepoName: key, RepoRoot: key, IsLinkedWorktree: true}
	}
	m.snap.Workspaces = []protocol.WorkspaceInfo{
		{WorkspaceID: "w1", Number: 1, Label: "notes", Focused: true, TabCount: 1},
		{WorkspaceID: "w2", Number: 2, Label: "fix", TabCount: 1, Worktree: wt("/api")},
		{WorkspaceID: "w3", Number: 3, Label: "web-a", TabCount: 1, Worktree: wt("/web")},
		{WorkspaceID: "w4", Number: 4, Label: "web-b", TabCount: 1, Worktree: wt("/web")},
	}
	want := "1:1 notes / 1:2 fix / 1:3 web-a / 1:4 web-b"
	if got := strings.Join(spacesDrawn(m), " / "); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
