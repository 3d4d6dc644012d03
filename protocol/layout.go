package protocol

import (
	"math"
	"slices"
	"strings"
)

var layoutMethods = []Method{
	{Name: "pane.swap", Since: "0.6.9", Params: func() Params { return &PaneSwapParams{} }, Result: "pane_swap", Summary: "Swap a pane with its neighbour or with another pane of the tab", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.move", Since: "0.7.0", Params: func() Params { return &PaneMoveParams{} }, Result: "pane_move", Summary: "Move a running pane to another tab, a new tab or a new workspace", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.zoom", Since: "0.6.9", Params: func() Params { return &PaneZoomParams{} }, Result: "pane_zoom", Summary: "Zoom a pane to fill its tab, or unzoom", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.layout", Access: AccessRead, Since: "0.6.9", CLI: "pane layout", CLIHelp: `: the tab area, every pane's rectangle, every split's
rectangle and ratio, the focused pane and whether the tab is zoomed. The pane is <pane>, --pane, the calling pane
with --current, else the server's focused pane.`, Params: func() Params { return &PaneOptionalTarget{} }, Result: "pane_layout", Summary: "The computed layout of a pane's tab", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.neighbor", Access: AccessRead, Since: "0.6.9", CLI: "pane neighbor --direction left|right|up|down [--pane ID|--current]", CLIHelp: ` (--pane, the calling pane with --current, else
the server's focused pane). neighbor_pane_id is absent when nothing is there.
Nothing changes.`, CLIExample: "  herdr pane neighbor --direction right --pane w1:p1", Params: func() Params { return &PaneDirectionParams{} }, Result: "pane_neighbor", Summary: "The pane beside a pane in a direction", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.edges", Access: AccessRead, Since: "0.6.9", CLI: "pane edges", CLIHelp: ` (left, right, up, down). The pane is <pane>, --pane, the calling pane
with --current, else the server's focused pane.`, Params: func() Params { return &PaneOptionalTarget{} }, Result: "pane_edges", Summary: "Which edges of the tab area a pane touches", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.focus_direction", Since: "0.6.9", Params: func() Params { return &PaneDirectionParams{} }, Result: "pane_focus_direction", Summary: "Focus the pane beside a pane", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.resize", Since: "0.6.9", CLI: "pane resize --direction left|right|up|down [--amount F] [--pane ID|--current]", CLIHelp: ` nearest to the pane across that direction:
right and down move it right or down, left and up move it left or up, by
--amount (a fraction of the split, default 0.05). Ratios stay within 0.1-0.9;
when nothing moves the result says changed:false, reason unchanged.`, CLIExample: "  herdr pane resize --direction right --amount 0.1 --current", Params: func() Params { return &PaneResizeParams{} }, Result: "pane_resize", Summary: "Move the border of a pane's split", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.input.set", Since: "0.8.2", Params: func() Params { return &PaneInputSetParams{} }, Result: "ok", Summary: "Choose where right clicks on a pane go", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "layout.export", Access: AccessRead, Since: "0.7.0", Params: func() Params { return &LayoutExportParams{} }, Result: "layout_export", Summary: "Export a tab's layout as a portable tree", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "layout.apply", Since: "0.7.0", Params: func() Params { return &LayoutApplyParams{} }, Result: "layout_apply", Summary: "Create a tab from a layout tree", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "layout.select", Extension: true, CLI: "layout select", Params: func() Params { return &LayoutSelectParams{} }, Answer: LayoutSelected{}, Summary: "Arrange a tab's panes in one of tmux's layouts (extension)", CLIHelp: ": " + strings.Join(LayoutPresets, ", ") + ", the first pane the main one.", CLIExample: "  herdr layout select tiled\n  herdr layout select main-vertical --tab w1:t2", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "layout.set_split_ratio", Since: "0.7.2", Params: func() Params { return &LayoutSetSplitRatioParams{} }, Result: "layout_split_ratio_set", Summary: "Set the ratio of one split of a tab", Owner: OwnerSession, Shape: ShapeAnswer},
}

var directions = []string{"left", "right", "up", "down"}

// PaneOptionalTarget names a pane, defaulting to the focused one.
type PaneOptionalTarget struct {
	PaneID *string `json:"pane_id,omitempty" cli:"[<pane>|--pane|--current]"`
}

// Validate implements Params.
func (p *PaneOptionalTarget) Validate() error { return nil }

// PaneDirectionParams are the params of pane.neighbor and pane.focus_direction.
type PaneDirectionParams struct {
	Direction string  `json:"direction" cli:"--direction,required,oneof=left|right|up|down" help:"direction: left, right, up or down (required)"`
	PaneID    *string `json:"pane_id,omitempty" cli:"--pane|--current"`
}

// Validate implements Params.
func (p *PaneDirectionParams) Validate() error {
	if err := required("direction", p.Direction); err != nil {
		return err
	}
	return oneOf("direction", p.Direction, directions...)
}

// PaneSwapParams are the params of pane.swap: a direction, or a source and a target.
type PaneSwapParams struct {
	Direction    *string `json:"direction,omitempty"`
	PaneID       *string `json:"pane_id,omitempty"`
	SourcePaneID *string `json:"source_pane_id,omitempty"`
	TargetPaneID *string `json:"target_pane_id,omitempty"`
}

// Validate implements Params.
func (p *PaneSwapParams) Validate() error {
	if p.Direction != nil {
		return oneOf("direction", *p.Direction, directions...)
	}
	if p.TargetPaneID == nil || *p.TargetPaneID == "" {
		return ParamError("direction", "give a direction, or source_pane_id and target_pane_id")
	}
	return nil
}

// PaneMoveDestination says where pane.move puts a pane.
type PaneMoveDestination struct {
	Type         string   `json:"type"`
	TabID        string   `json:"tab_id,omitempty"`
	Split        string   `json:"split,omitempty"`
	Ratio        *float64 `json:"ratio,omitempty"`
	TargetPaneID *string  `json:"target_pane_id,omitempty"`
	WorkspaceID  *string  `json:"workspace_id,omitempty"`
	Label        *string  `json:"label,omitempty"`
	TabLabel     *string  `json:"tab_label,omitempty"`
}

// PaneMoveParams are the params of pane.move.
type PaneMoveParams struct {
	PaneID      string              `json:"pane_id"`
	Destination PaneMoveDestination `json:"destination"`
	Focus       bool                `json:"focus,omitempty"`
}

// Validate implements Params.
func (p *PaneMoveParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	d := p.Destination
	if err := required("destination.type", d.Type); err != nil {
		return err
	}
	if err := oneOf("destination.type", d.Type, "tab", "new_tab", "new_workspace"); err != nil {
		return err
	}
	if d.Type == "tab" {
		if err := required("destination.tab_id", d.TabID); err != nil {
			return err
		}
		if err := required("destination.split", d.Split); err != nil {
			return err
		}
		if err := oneOf("destination.split", d.Split, "right", "down"); err != nil {
			return err
		}
		return validRatio("destination.ratio", d.Ratio)
	}
	return nil
}

// PaneZoomParams are the params of pane.zoom.
type PaneZoomParams struct {
	Mode   string  `json:"mode,omitempty"`
	PaneID *string `json:"pane_id,omitempty"`
}

// Validate implements Params.
func (p *PaneZoomParams) Validate() error {
	if p.Mode == "" {
		p.Mode = "toggle"
	}
	return oneOf("mode", p.Mode, "toggle", "on", "off")
}

// PaneResizeParams are the params of pane.resize.
type PaneResizeParams struct {
	Direction string   `json:"direction" cli:"--direction,required,oneof=left|right|up|down" help:"direction: left, right, up or down (required)"`
	Amount    *float64 `json:"amount,omitempty" cli:"--amount,default=0.05" help:"how far to move the border, as a fraction of the split"`
	PaneID    *string  `json:"pane_id,omitempty" cli:"--pane|--current"`
}

// Validate implements Params.
func (p *PaneResizeParams) Validate() error {
	if err := required("direction", p.Direction); err != nil {
		return err
	}
	if err := oneOf("direction", p.Direction, directions...); err != nil {
		return err
	}
	if p.Amount != nil && (math.IsNaN(*p.Amount) || math.Abs(*p.Amount) > 0.5) {
		return ParamError("amount", "must be a fraction of at most 0.5, got %v", *p.Amount)
	}
	return nil
}

// PaneInputSetParams are the params of pane.input.set.
type PaneInputSetParams struct {
	PaneID     string `json:"pane_id"`
	RightClick string `json:"right_click"`
}

// Validate implements Params.
func (p *PaneInputSetParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := required("right_click", p.RightClick); err != nil {
		return err
	}
	return oneOf("right_click", p.RightClick, "herdr", "pane")
}

// LayoutNode is a portable layout tree: a pane leaf or a split.
type LayoutNode struct {
	Type      string            `json:"type"`
	PaneID    *string           `json:"pane_id,omitempty"`
	Label     *string           `json:"label,omitempty"`
	Cwd       *string           `json:"cwd,omitempty"`
	Command   []string          `json:"command,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Direction string            `json:"direction,omitempty"`
	Ratio     *float64          `json:"ratio,omitempty"`
	First     *LayoutNode       `json:"first,omitempty"`
	Second    *LayoutNode       `json:"second,omitempty"`
}

// maxLayoutPanes bounds a declarative layout.
const maxLayoutPanes = 64

// Validate checks a layout tree's shape; field names use a JSON path.
func (n *LayoutNode) Validate(path string, depth int, panes *int) error {
	if depth > 16 {
		return Errorf("invalid_layout", "%s: layout is nested too deeply", path)
	}
	switch n.Type {
	case "pane":
		*panes++
		if *panes > maxLayoutPanes {
			return Errorf("invalid_layout", "layout has more than %d panes", maxLayoutPanes)
		}
		if n.Command != nil && len(n.Command) == 0 {
			return Errorf("invalid_layout", "%s.command: must not be empty", path)
		}
		return validEnv(n.Env)
	case "split":
		if err := oneOf(path+".direction", n.Direction, "right", "down"); err != nil {
			return Errorf("invalid_layout", "%s", AsError(err).Message)
		}
		if n.Ratio == nil {
			return Errorf("invalid_layout", "%s.ratio: missing", path)
		}
		if err := validRatio(path+".ratio", n.Ratio); err != nil {
			return err
		}
		if n.First == nil || n.Second == nil {
			return Errorf("invalid_layout", "%s: a split needs first and second", path)
		}
		if err := n.First.Validate(path+".first", depth+1, panes); err != nil {
			return err
		}
		return n.Second.Validate(path+".second", depth+1, panes)
	}
	return Errorf("invalid_layout", "%s.type: expected pane or split, got %q", path, n.Type)
}

// LayoutDescription is a tab's portable layout.
type LayoutDescription struct {
	WorkspaceID   string     `json:"workspace_id"`
	TabID         string     `json:"tab_id"`
	Zoomed        bool       `json:"zoomed"`
	FocusedPaneID string     `json:"focused_pane_id"`
	Root          LayoutNode `json:"root"`
}

// LayoutExportParams are the params of layout.export.
type LayoutExportParams struct {
	PaneID *string `json:"pane_id,omitempty"`
	TabID  *string `json:"tab_id,omitempty"`
}

// Validate implements Params.
func (p *LayoutExportParams) Validate() error { return nil }

// LayoutApplyParams are the params of layout.apply.
type LayoutApplyParams struct {
	Root        *LayoutNode `json:"root"`
	Focus       bool        `json:"focus,omitempty"`
	TabID       *string     `json:"tab_id,omitempty"`
	TabLabel    *string     `json:"tab_label,omitempty"`
	WorkspaceID *string     `json:"workspace_id,omitempty"`
}

// Validate implements Params.
func (p *LayoutApplyParams) Validate() error {
	if p.Root == nil {
		return ParamError("root", "missing required field")
	}
	panes := 0
	return p.Root.Validate("root", 0, &panes)
}

// LayoutPresets are tmux's layouts, in the order its next-layout cycles
// them; layout.select arranges a tab as one.
var LayoutPresets = []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"}

// LayoutSelectParams are the params of layout.select: the tab given, else
// the tab of the pane given, else the focused tab.
type LayoutSelectParams struct {
	Layout string  `json:"layout" cli:"<layout>"`
	TabID  *string `json:"tab_id,omitempty" cli:"--tab" help:"the tab to arrange (default: the pane's, else the focused one)"`
	PaneID *string `json:"pane_id,omitempty" cli:"--pane" help:"arrange this pane's tab"`
}

// Validate implements Params.
func (p *LayoutSelectParams) Validate() error {
	if p.Layout == "" {
		return ParamError("layout", "missing required field")
	}
	if !slices.Contains(LayoutPresets, p.Layout) {
		return ParamError("layout", "unknown layout %q (one of %s)", p.Layout, strings.Join(LayoutPresets, ", "))
	}
	return nil
}

// LayoutSelected answers layout.select: the tab's new layout.
type LayoutSelected struct {
	TabID   string             `json:"tab_id"`
	Layout  string             `json:"layout_name"`
	Changed bool               `json:"changed"`
	Panes   PaneLayoutSnapshot `json:"layout"`
}

// ResultType implements Result.
func (LayoutSelected) ResultType() string { return "layout_selected" }

// LayoutSetSplitRatioParams are the params of layout.set_split_ratio.
type LayoutSetSplitRatioParams struct {
	Path   []bool   `json:"path"`
	Ratio  *float64 `json:"ratio"`
	PaneID *string  `json:"pane_id,omitempty"`
	TabID  *string  `json:"tab_id,omitempty"`
}

// Validate implements Params.
func (p *LayoutSetSplitRatioParams) Validate() error {
	if p.Path == nil {
		return ParamError("path", "missing required field")
	}
	if p.Ratio == nil {
		return ParamError("ratio", "missing required field")
	}
	return validRatio("ratio", p.Ratio)
}

func validRatio(field string, r *float64) error {
	if r != nil && (math.IsNaN(*r) || *r <= 0 || *r >= 1) {
		return Errorf(CodeInvalidRatio, "%s must be between 0 and 1, got %v", field, *r)
	}
	return nil
}

// PaneSwapResult describes a swap.
type PaneSwapResult struct {
	Changed       bool               `json:"changed"`
	Reason        *string            `json:"reason,omitempty"`
	SourcePaneID  string             `json:"source_pane_id"`
	TargetPaneID  *string            `json:"target_pane_id,omitempty"`
	FocusedPaneID string             `json:"focused_pane_id"`
	Layout        PaneLayoutSnapshot `json:"layout"`
}

// PaneMoveResult describes a move.
type PaneMoveResult struct {
	Changed             bool                `json:"changed"`
	Reason              *string             `json:"reason,omitempty"`
	Pane                PaneInfo            `json:"pane"`
	PreviousPaneID      string              `json:"previous_pane_id"`
	PreviousTabID       string              `json:"previous_tab_id"`
	PreviousWorkspaceID string              `json:"previous_workspace_id"`
	SourceLayout        *PaneLayoutSnapshot `json:"source_layout,omitempty"`
	TargetLayout        PaneLayoutSnapshot  `json:"target_layout"`
	CreatedTab          *TabInfo            `json:"created_tab,omitempty"`
	CreatedWorkspace    *WorkspaceInfo      `json:"created_workspace,omitempty"`
	ClosedTabID         *string             `json:"closed_tab_id,omitempty"`
	ClosedWorkspaceID   *string             `json:"closed_workspace_id,omitempty"`
	FocusedPaneID       string              `json:"focused_pane_id"`
}

// PaneZoomResult describes a zoom change.
type PaneZoomResult struct {
	Changed       bool               `json:"changed"`
	ZoomChanged   bool               `json:"zoom_changed"`
	FocusChanged  bool               `json:"focus_changed"`
	Reason        *string            `json:"reason,omitempty"`
	PaneID        string             `json:"pane_id"`
	FocusedPaneID string             `json:"focused_pane_id"`
	Zoomed        bool               `json:"zoomed"`
	Layout        PaneLayoutSnapshot `json:"layout"`
}

// PaneNeighborResult names the pane beside another.
type PaneNeighborResult struct {
	PaneID         string             `json:"pane_id"`
	Direction      string             `json:"direction"`
	NeighborPaneID *string            `json:"neighbor_pane_id,omitempty"`
	Layout         PaneLayoutSnapshot `json:"layout"`
}

// PaneEdgesResult says which edges of the tab area a pane touches.
type PaneEdgesResult struct {
	PaneID string             `json:"pane_id"`
	Left   bool               `json:"left"`
	Right  bool               `json:"right"`
	Up     bool               `json:"up"`
	Down   bool               `json:"down"`
	Layout PaneLayoutSnapshot `json:"layout"`
}

// PaneFocusDirectionResult describes a directional focus move.
type PaneFocusDirectionResult struct {
	Changed       bool               `json:"changed"`
	Reason        *string            `json:"reason,omitempty"`
	SourcePaneID  string             `json:"source_pane_id"`
	FocusedPaneID *string            `json:"focused_pane_id,omitempty"`
	Layout        PaneLayoutSnapshot `json:"layout"`
}

// PaneResizeResult describes a resize.
type PaneResizeResult struct {
	Changed       bool               `json:"changed"`
	Reason        *string            `json:"reason,omitempty"`
	PaneID        string             `json:"pane_id"`
	FocusedPaneID string             `json:"focused_pane_id"`
	Layout        PaneLayoutSnapshot `json:"layout"`
}

// PaneSwap answers pane.swap.
type PaneSwap struct {
	Swap PaneSwapResult `json:"swap"`
}

// PaneMove answers pane.move.
type PaneMove struct {
	MoveResult PaneMoveResult `json:"move_result"`
}

// PaneZoom answers pane.zoom.
type PaneZoom struct {
	Zoom PaneZoomResult `json:"zoom"`
}

// PaneLayout answers pane.layout.
type PaneLayout struct {
	Layout PaneLayoutSnapshot `json:"layout"`
}

// PaneNeighbor answers pane.neighbor.
type PaneNeighbor struct {
	Neighbor PaneNeighborResult `json:"neighbor"`
}

// PaneEdges answers pane.edges.
type PaneEdges struct {
	Edges PaneEdgesResult `json:"edges"`
}

// PaneFocusDirection answers pane.focus_direction.
type PaneFocusDirection struct {
	Focus PaneFocusDirectionResult `json:"focus"`
}

// PaneResize answers pane.resize.
type PaneResize struct {
	Resize PaneResizeResult `json:"resize"`
}

// LayoutExport answers layout.export.
type LayoutExport struct {
	Layout LayoutDescription `json:"layout"`
}

// LayoutApply answers layout.apply.
type LayoutApply struct {
	Layout LayoutDescription `json:"layout"`
}

// LayoutSplitRatioSet answers layout.set_split_ratio.
type LayoutSplitRatioSet struct {
	Layout LayoutDescription `json:"layout"`
}

func (PaneSwap) ResultType() string            { return "pane_swap" }
func (PaneMove) ResultType() string            { return "pane_move" }
func (PaneZoom) ResultType() string            { return "pane_zoom" }
func (PaneLayout) ResultType() string          { return "pane_layout" }
func (PaneNeighbor) ResultType() string        { return "pane_neighbor" }
func (PaneEdges) ResultType() string           { return "pane_edges" }
func (PaneFocusDirection) ResultType() string  { return "pane_focus_direction" }
func (PaneResize) ResultType() string          { return "pane_resize" }
func (LayoutExport) ResultType() string        { return "layout_export" }
func (LayoutApply) ResultType() string         { return "layout_apply" }
func (LayoutSplitRatioSet) ResultType() string { return "layout_split_ratio_set" }
