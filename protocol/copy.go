package protocol

// Protocol 22's copy-mode and link methods work on a pane's text as copy
// mode sees it: the kept history followed by the screen, one row per
// terminal line. Row 0 is the oldest history line still kept; the screen's
// top row is row MaxOffsetFromBottom (PaneInfo.scroll); columns are cells.
// The text moves as the pane prints and as old history is dropped, so
// every answer carries the pane's content revision, and a call that names
// a revision other than the current one is refused with
// stale_content rather than applied to moved text.

// PaneTextPoint is one cell of a pane's text.
type PaneTextPoint struct {
	Row uint32 `json:"row"`
	Col uint16 `json:"col"`
}

// PaneTextRange is a run of text from Start to End, both cells included.
type PaneTextRange struct {
	Start PaneTextPoint `json:"start"`
	End   PaneTextPoint `json:"end"`
}

// Copy motions (pane.copy_motion).
const (
	MotionLineEnd              = "line_end"
	MotionFirstNonBlank        = "first_non_blank"
	MotionNextWordStart        = "next_word_start"
	MotionPreviousWordStart    = "previous_word_start"
	MotionNextWordEnd          = "next_word_end"
	MotionNextBigWordStart     = "next_big_word_start"
	MotionPreviousBigWordStart = "previous_big_word_start"
	MotionNextBigWordEnd       = "next_big_word_end"
	MotionPreviousParagraph    = "previous_paragraph"
	MotionNextParagraph        = "next_paragraph"
)

// CopyMotions lists every motion pane.copy_motion takes.
var CopyMotions = []string{
	MotionLineEnd, MotionFirstNonBlank, MotionNextWordStart, MotionPreviousWordStart, MotionNextWordEnd,
	MotionNextBigWordStart, MotionPreviousBigWordStart, MotionNextBigWordEnd, MotionPreviousParagraph, MotionNextParagraph,
}

// Search directions (pane.copy_search).
const (
	SearchForward  = "forward"
	SearchBackward = "backward"
)

// PaneScrollParams are the params of pane.scroll: put the pane's view
// OffsetFromBottom lines above the live screen (0: the live screen),
// clamped to the history. It answers the pane's pane_info, whose scroll
// shows where the view went.
type PaneScrollParams struct {
	PaneID           string `json:"pane_id"`
	OffsetFromBottom uint64 `json:"offset_from_bottom"`
}

// Validate implements Params.
func (p *PaneScrollParams) Validate() error { return required("pane_id", p.PaneID) }

// PaneSelectionReadParams are the params of pane.selection.read: the text
// from Anchor to Cursor (either may come first), both cells included.
type PaneSelectionReadParams struct {
	PaneID          string        `json:"pane_id"`
	Anchor          PaneTextPoint `json:"anchor"`
	Cursor          PaneTextPoint `json:"cursor"`
	ContentRevision *uint64       `json:"content_revision,omitempty"`
}

// Validate implements Params.
func (p *PaneSelectionReadParams) Validate() error { return required("pane_id", p.PaneID) }

// PaneSelection answers pane.selection.read.
type PaneSelection struct {
	PaneID string `json:"pane_id"`
	Text   string `json:"text"`
}

func (PaneSelection) ResultType() string { return "pane_selection" }

// PaneCopyMotionParams are the params of pane.copy_motion: where Motion
// takes a cursor at Cursor.
type PaneCopyMotionParams struct {
	PaneID          string        `json:"pane_id"`
	Cursor          PaneTextPoint `json:"cursor"`
	Motion          string        `json:"motion"`
	ContentRevision *uint64       `json:"content_revision,omitempty"`
}

// Validate implements Params.
func (p *PaneCopyMotionParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := required("motion", p.Motion); err != nil {
		return err
	}
	return oneOf("motion", p.Motion, CopyMotions...)
}

// PaneCopyMotion answers pane.copy_motion with the moved cursor.
type PaneCopyMotion struct {
	PaneID          string        `json:"pane_id"`
	Cursor          PaneTextPoint `json:"cursor"`
	ContentRevision uint64        `json:"content_revision"`
}

func (PaneCopyMotion) ResultType() string { return "pane_copy_motion" }

// PaneCopySearchParams are the params of pane.copy_search: find Query in
// the whole text, the next match from Cursor in Direction (wrapping
// around); Previous is the match the caller is on, so searching again from
// the same cursor moves past it.
type PaneCopySearchParams struct {
	PaneID          string         `json:"pane_id"`
	Query           string         `json:"query"`
	Direction       string         `json:"direction"`
	Cursor          PaneTextPoint  `json:"cursor"`
	ContentRevision *uint64        `json:"content_revision"`
	Previous        *PaneTextRange `json:"previous,omitempty"`
}

// Validate implements Params.
func (p *PaneCopySearchParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := required("query", p.Query); err != nil {
		return err
	}
	if err := required("direction", p.Direction); err != nil {
		return err
	}
	if err := oneOf("direction", p.Direction, SearchForward, SearchBackward); err != nil {
		return err
	}
	if len(p.Query) > CopySearchMaxQuery {
		return ParamError("query", "longer than %d bytes", CopySearchMaxQuery)
	}
	if p.ContentRevision == nil {
		return ParamError("content_revision", "missing required field")
	}
	return nil
}

// PaneCopySearch answers pane.copy_search. Matches holds the matches
// around the current one (at most CopySearchMaxMatches), Total counts
// them all; Current indexes Matches and CurrentGlobal counts from the
// first match of the whole text. Both are absent when nothing matched.
type PaneCopySearch struct {
	PaneID          string          `json:"pane_id"`
	ContentRevision uint64          `json:"content_revision"`
	Matches         []PaneTextRange `json:"matches"`
	Total           uint64          `json:"total"`
	Current         *uint32         `json:"current,omitempty"`
	CurrentGlobal   *uint64         `json:"current_global,omitempty"`
}

func (PaneCopySearch) ResultType() string { return "pane_copy_search" }

// CopySearchMaxMatches bounds the matches one pane.copy_search answer
// lists (Total still counts every one); CopySearchMaxQuery bounds the
// query's bytes.
const (
	CopySearchMaxMatches = 1024
	CopySearchMaxQuery   = 4096
)

// PaneEditScrollbackParams are the params of pane.edit_scrollback.
type PaneEditScrollbackParams = PaneTarget

// PaneLinkParams are the params of pane.link.resolve and
// pane.link.activate: the cell at ViewportRow and Col of the pane's view,
// the view being OffsetFromBottom lines above the live screen (the pane's
// own view when absent).
type PaneLinkParams struct {
	PaneID           string  `json:"pane_id"`
	ViewportRow      uint16  `json:"viewport_row"`
	Col              uint16  `json:"col"`
	OffsetFromBottom *uint64 `json:"offset_from_bottom,omitempty"`
	ContentRevision  *uint64 `json:"content_revision,omitempty"`
}

// Validate implements Params.
func (p *PaneLinkParams) Validate() error { return required("pane_id", p.PaneID) }

// PaneLinkRegion is one row's part of a link, in viewport rows; a link
// wrapped over several rows has a region on each.
type PaneLinkRegion struct {
	Row      uint16 `json:"row"`
	StartCol uint16 `json:"start_col"`
	EndCol   uint16 `json:"end_col"`
}

// PaneLinkResolved answers pane.link.resolve: the regions of the link
// under the cell (none when there is none) and its target.
type PaneLinkResolved struct {
	Regions []PaneLinkRegion `json:"regions"`
	URL     *string          `json:"url,omitempty"`
}

func (PaneLinkResolved) ResultType() string { return "pane_link_resolved" }

// PaneLinkActivated answers pane.link.activate: whether a plugin's link
// handler took the link, and the link. An unhandled link is the caller's
// to open (the client's opener); the server opens no browser.
type PaneLinkActivated struct {
	Handled bool    `json:"handled"`
	URL     *string `json:"url,omitempty"`
}

func (PaneLinkActivated) ResultType() string { return "pane_link_activated" }

func (p *PaneScrollParams) TargetID() string        { return p.PaneID }
func (p *PaneSelectionReadParams) TargetID() string { return p.PaneID }
func (p *PaneCopyMotionParams) TargetID() string    { return p.PaneID }
func (p *PaneCopySearchParams) TargetID() string    { return p.PaneID }
func (p *PaneLinkParams) TargetID() string          { return p.PaneID }

// copyMethods are the copy-mode and link methods the pane actor answers.
// pane.scroll's pane_info is completed by the session (the pane scrolls,
// then hands the call to the session, which knows the rest of PaneInfo);
// pane.link.activate's link goes from the pane through the session (which
// fills in the plugin context) to the plugins actor, which runs a
// matching [[link_handlers]] action or answers that none took it.
var copyMethods = []Method{
	{Name: "pane.scroll", Since: "0.9.0", Params: func() Params { return &PaneScrollParams{} }, Result: "pane_info", Summary: "Put a pane's view this many lines above its live screen (clamped)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.selection.read", Access: AccessRead, Since: "0.9.0", Params: func() Params { return &PaneSelectionReadParams{} }, Result: "pane_selection", Summary: "Read the text between two points of a pane's history and screen", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.copy_motion", Access: AccessRead, Since: "0.9.0", Params: func() Params { return &PaneCopyMotionParams{} }, Result: "pane_copy_motion", Summary: "Where a copy-mode motion takes a cursor in a pane's text", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.copy_search", Access: AccessRead, Since: "0.9.0", Params: func() Params { return &PaneCopySearchParams{} }, Result: "pane_copy_search", Summary: "Search a pane's whole history and screen from a cursor", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.link.resolve", Access: AccessRead, Since: "0.9.0", Params: func() Params { return &PaneLinkParams{} }, Result: "pane_link_resolved", Summary: "The link (OSC 8 or a URL in the text) on a cell of a pane's view", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.link.activate", Since: "0.9.0", Params: func() Params { return &PaneLinkParams{} }, Result: "pane_link_activated", Summary: "Give the link on a cell of a pane's view to a plugin's link handler", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer},
}
