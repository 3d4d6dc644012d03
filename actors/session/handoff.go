package session

import (
	"github.com/herdr-go/herdr/actors/session/model"
)

// Live handoff: the server asks the session for its topology, with each
// pane's terminal id, so the new server keeps them (and the panes
// supervisor for the pane actors to freeze, panes.List). The new server's
// session restores that topology, adopting each terminal (Options.Adopt)
// instead of starting a shell.

// HandoffExport asks for the session's topology; the answer is a *Handoff.
type HandoffExport struct{}

// Keeping implements kit.Keeping.
func (*HandoffExport) Keeping() {}

// Handoff is the session's part of a live handoff.
type Handoff struct {
	Saved model.Saved
}
