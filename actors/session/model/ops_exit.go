package model

import "github.com/herdr-go/herdr/protocol"

// PaneExited closes a pane whose program ended or whose actor failed:
// pane_exited, then what closing it does (ClosePane).
func (tx *Tx) PaneExited(env Env, p *Pane) Out {
	var out Out
	out.emit(env, protocol.PaneRefEvent{Kind: "pane_exited", PaneID: p.ID(), WorkspaceID: p.WS().ID()}, p)
	tx.forget(env, &out, p)
	tx.detach(env, &out, p)
	return out
}
