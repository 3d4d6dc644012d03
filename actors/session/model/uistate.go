package model

import "slices"

// UIState is the interactive client's sidebar as session.json keeps it:
// the folded worktree groups (by repository key), the share of the
// sidebar's height its spaces section takes, and its width. It is not the
// topology's: the clients actor holds it (client.ui_state.*) and the
// keeper writes it into every save.
type UIState struct {
	CollapsedSpaceKeys []string
	SectionSplit       *float64 // nil: never set (Herdr writes 0.4)
	Width              *int     // nil: config.toml's [ui] sidebar_width
}

// defaultSectionSplit is what Herdr writes while nothing moved the split.
const defaultSectionSplit = 0.4

// RestoreUI takes a saved file's sidebar state, dropping what no client
// could have set (a Herdr-written file may hold nulls: they are "unset").
// A nil file is the state of a new session.
func RestoreUI(s *Saved) UIState {
	var ui UIState
	if s == nil {
		return ui
	}
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

// SaveInto writes the sidebar state into a file being saved; the file
// shares nothing with ui.
func (ui UIState) SaveInto(s *Saved) {
	s.CollapsedSpaceKeys = append([]string{}, ui.CollapsedSpaceKeys...)
	split := defaultSectionSplit
	if ui.SectionSplit != nil {
		split = *ui.SectionSplit
	}
	s.SidebarSectionSplit = &split
	s.SidebarWidth = nil
	if ui.Width != nil {
		w := *ui.Width
		s.SidebarWidth = &w
	}
}

// Clone is ui sharing nothing with it.
func (ui UIState) Clone() UIState {
	out := UIState{CollapsedSpaceKeys: slices.Clone(ui.CollapsedSpaceKeys)}
	if ui.SectionSplit != nil {
		v := *ui.SectionSplit
		out.SectionSplit = &v
	}
	if ui.Width != nil {
		v := *ui.Width
		out.Width = &v
	}
	return out
}
