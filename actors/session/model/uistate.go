package model

import "slices"

// UIState is the interactive client's sidebar as session.json keeps it:
// the folded worktree groups (by repository key), the share of the
// sidebar's height its spaces section takes, and its width. It is the
// session's, not the topology's, but is saved and restored with it.
type UIState struct {
	CollapsedSpaceKeys []string
	SectionSplit       *float64 // nil: never set (Herdr writes 0.4)
	Width              *int     // nil: config.toml's [ui] sidebar_width
}

// defaultSectionSplit is what Herdr writes while nothing moved the split.
const defaultSectionSplit = 0.4

// restoreUI takes a saved file's sidebar state, dropping what no client
// could have set (a Herdr-written file may hold nulls: they are "unset").
func restoreUI(s *Saved) UIState {
	var ui UIState
	for _, k := range s.CollapsedSpaceKeys {
		if k != "" && !slices.Contains(ui.CollapsedSpaceKeys, k) {
			ui.CollapsedSpaceKeys = append(ui.CollapsedSpaceKeys, k)
		}
	}
	if v := s.SidebarSectionSplit; v != nil && *v > 0 && *v < 1 {
		split := *v
		ui.SectionSplit = &split
	}
	if v := s.SidebarWidth; v != nil && *v > 0 {
		w := *v
		ui.Width = &w
	}
	return ui
}

// saveUI writes the sidebar state into a file being saved.
func (ui UIState) saveUI(s *Saved) {
	s.CollapsedSpaceKeys = append([]string{}, ui.CollapsedSpaceKeys...)
	split := defaultSectionSplit
	if ui.SectionSplit != nil {
		split = *ui.SectionSplit
	}
	s.SidebarSectionSplit = &split
	if ui.Width != nil {
		w := *ui.Width
		s.SidebarWidth = &w
	}
}
