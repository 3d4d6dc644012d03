package session

import (
	"os"
	"path/filepath"

	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The session's answers render their records as the View does
// (actors/session/view/render.go): from the session's own state plus the
// facts each pane last told it, with no asks and no /proc access.

func (s *Session) workspaceInfo(w *workspace) protocol.WorkspaceInfo {
	number := 0
	for i, x := range s.m.Workspaces() {
		if x == w {
			number = i + 1
		}
	}
	return view.WorkspaceInfo(s.m, w, number, w.PaneCount(), rollup(s.workspacePanes(w)))
}

func (s *Session) tabInfo(t *tab) protocol.TabInfo {
	return view.TabInfo(s.m, t, len(t.Root().Leaves()), rollup(s.tabPanes(t)))
}

func (s *Session) paneInfo(p *paneRec) protocol.PaneInfo { return view.PaneInfo(s.paneIn(p), &p.shown) }

func (s *Session) layoutSnapshot(t *tab) protocol.PaneLayoutSnapshot { return view.Layout(s.m, t) }

// deriveLabel names a workspace after its git repository folder, else its
// cwd's base name, "~" for the home directory.
func deriveLabel(cwd, home string) string {
	if cwd == "" {
		return "~"
	}
	for dir := cwd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Base(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir || dir == home {
			break
		}
		dir = parent
	}
	if cwd == home {
		return "~"
	}
	return filepath.Base(cwd)
}
