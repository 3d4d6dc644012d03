package session

import (
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
)

// The topology lives in the model package, and the record of each
// terminal beside it in the read side's (view.Records, which renders and
// publishes them); these names keep the session's code short.
type (
	workspace = model.Workspace
	tab       = model.Tab
	paneRec   = view.Record
)
