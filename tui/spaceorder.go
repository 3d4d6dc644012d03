package tui

import "github.com/herdr-go/herdr/protocol"

// spaceRow is one workspace of the spaces list in the order drawn.
type spaceRow struct {
	w        protocol.WorkspaceInfo
	indented bool   // a member of a worktree group, under its repository's row
	toggle   string // the repo key folded or unfolded from this row (a group's parent)
}

// spaceOrder is the spaces list in Herdr's order: the session's order, except
// that a worktree group (two or more workspaces of one repository, one of them
// its main checkout) is drawn where its first member is, as the main
// checkout's row followed by the other members, indented, in the session's
// order. A folded group shows only its parent, and the focused member when
// that is one of its other members.
func (sb *sidebar) spaceOrder() []spaceRow {
	groups := sb.worktreeGroups()
	members := map[string][]protocol.WorkspaceInfo{}
	for _, w := range sb.h.snapshot().Workspaces {
		if wt := w.Worktree; wt != nil && groups[wt.RepoKey] != "" {
			members[wt.RepoKey] = append(members[wt.RepoKey], w)
		}
	}
	var out []spaceRow
	emitted := map[string]bool{}
	for _, w := range sb.h.snapshot().Workspaces {
		wt := w.Worktree
		if wt == nil || groups[wt.RepoKey] == "" {
			out = append(out, spaceRow{w: w})
			continue
		}
		key := wt.RepoKey
		if emitted[key] {
			continue
		}
		emitted[key] = true
		parent := groups[key]
		for _, p := range members[key] {
			if p.WorkspaceID == parent {
				out = append(out, spaceRow{w: p, toggle: key})
			}
		}
		for _, c := range members[key] {
			if c.WorkspaceID == parent || (sb.collapsed[key] && !(c.Focused && sb.h.fleet().selected == "")) {
				continue
			}
			out = append(out, spaceRow{w: c, indented: true})
		}
	}
	return out
}

// worktreeGroups maps the repo key of each worktree group to its parent, the
// first workspace of its main checkout: a group is two or more workspaces of
// one repository, one of them on the main checkout (Herdr's rule).
func (sb *sidebar) worktreeGroups() map[string]string {
	count, parent := map[string]int{}, map[string]string{}
	for _, w := range sb.h.snapshot().Workspaces {
		if wt := w.Worktree; wt != nil {
			count[wt.RepoKey]++
			if !wt.IsLinkedWorktree && parent[wt.RepoKey] == "" {
				parent[wt.RepoKey] = w.WorkspaceID
			}
		}
	}
	out := map[string]string{}
	for k, id := range parent {
		if count[k] >= 2 {
			out[k] = id
		}
	}
	return out
}
