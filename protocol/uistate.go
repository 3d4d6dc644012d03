package protocol

import (
	"math"
	"slices"
	"strconv"
)

// The interactive client's sidebar state, kept by the clients actor and
// written by the keeper into session.json (sidebar_width,
// sidebar_section_split, collapsed_space_keys), so a client that
// attaches, or a server that restarts, shows the sidebar as the person
// left it.

var uiStateMethods = []Method{
	{Name: "client.ui_state.get", Access: AccessRead, Extension: true, Params: empty, Result: "client_ui_state", Summary: "The session's sidebar state: folded worktree groups, section split, width (extension)", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "client.ui_state.set", Extension: true, Params: func() Params { return &ClientUIStateSetParams{} }, Result: "client_ui_state",
		Summary: "Change the session's sidebar state; the fields left out keep their values (extension)", Owner: OwnerClients, Shape: ShapeAnswer},
}

// ClientUIStateSetParams are the params of client.ui_state.set: each
// field present replaces the session's.
type ClientUIStateSetParams struct {
	// CollapsedSpaceKeys are the repository keys of the folded worktree
	// groups (the whole set).
	CollapsedSpaceKeys *[]string `json:"collapsed_space_keys,omitempty"`
	// SidebarSectionSplit is the share of the sidebar's height the spaces
	// section takes, within (0, 1).
	SidebarSectionSplit *float64 `json:"sidebar_section_split,omitempty"`
	// SidebarWidth is the sidebar's width in columns; the session checks
	// it against [ui] sidebar_min_width and sidebar_max_width.
	SidebarWidth *int `json:"sidebar_width,omitempty"`
}

// MaxCollapsedSpaceKeys bounds collapsed_space_keys.
const MaxCollapsedSpaceKeys = 1024

// Validate implements Params.
func (p *ClientUIStateSetParams) Validate() error {
	if p.CollapsedSpaceKeys == nil && p.SidebarSectionSplit == nil && p.SidebarWidth == nil {
		return ParamError("params", "nothing to set (collapsed_space_keys, sidebar_section_split or sidebar_width)")
	}
	if k := p.CollapsedSpaceKeys; k != nil {
		if *k == nil {
			return ParamError("collapsed_space_keys", "expected an array of strings")
		}
		if len(*k) > MaxCollapsedSpaceKeys {
			return ParamError("collapsed_space_keys", "at most %d keys", MaxCollapsedSpaceKeys)
		}
		for i, key := range *k {
			if err := required("collapsed_space_keys["+strconv.Itoa(i)+"]", key); err != nil {
				return err
			}
			if slices.Index(*k, key) < i {
				return ParamError("collapsed_space_keys["+strconv.Itoa(i)+"]", "%q is given twice", key)
			}
		}
	}
	if s := p.SidebarSectionSplit; s != nil && !(*s > 0 && *s < 1) { // NaN fails too
		return ParamError("sidebar_section_split", "must be between 0 and 1 (exclusive)")
	}
	if w := p.SidebarWidth; w != nil && (*w < 1 || *w > math.MaxUint16) {
		return ParamError("sidebar_width", "must be between 1 and %d columns", math.MaxUint16)
	}
	return nil
}

// ClientUIState is the session's sidebar state (client_ui_state).
// SidebarSectionSplit and SidebarWidth are null while no client has set
// them (the client then uses its own default and config.toml's width).
type ClientUIState struct {
	CollapsedSpaceKeys  []string `json:"collapsed_space_keys"`
	SidebarSectionSplit *float64 `json:"sidebar_section_split"`
	SidebarWidth        *int     `json:"sidebar_width"`
}

func (ClientUIState) ResultType() string { return "client_ui_state" }
