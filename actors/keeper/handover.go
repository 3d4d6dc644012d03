package keeper

import (
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/emulator"
)

// What the session uses on its own goroutine to hand the keeper its data.

// Detached is saved with nothing shared with the model it describes:
// model.Save points the labels at the model's own fields, which later
// changes rewrite while the keeper marshals the copy.
func Detached(saved model.Saved) model.Saved {
	own := func(p **string) {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	for i := range saved.Workspaces {
		w := &saved.Workspaces[i]
		own(&w.CustomName)
		for j := range w.Tabs {
			t := &w.Tabs[j]
			own(&t.CustomName)
			for key, p := range t.Panes {
				if p.Label != nil {
					own(&p.Label)
					t.Panes[key] = p
				}
			}
		}
	}
	return saved
}

// LineKeys names each pane's kept lines ([advanced]
// persist_scrollback_lines): history/<key>.lines and .screen beside the
// session file, the key recorded in the
// pane's entry of session.json and the pane's across restarts, moves and
// handoffs. The session owns it (a pane gets its key as it starts); nil
// keeps no lines.
type LineKeys struct {
	dir   string
	hand  func(key string, d emulator.HistoryDelta) bool
	rows  int
	keys  map[string]string // by terminal id
	inUse map[string]bool   // the keys of keys
}

// NewLineKeys is nil when no lines are kept (w nil).
func NewLineKeys(w *pane.LinesWriter, sessionFile string) *LineKeys {
	if w == nil {
		return nil
	}
	return &LineKeys{dir: LinesDir(sessionFile), hand: w.Hand, rows: w.Rows(), keys: map[string]string{}, inUse: map[string]bool{}}
}

// Keep is a new pane's part in kept lines (nil when none are kept):
// saved is the key its entry in session.json recorded, restore says to
// show that file's lines in the pane (not for an adopted terminal, nor
// for an agent about to be resumed, whose own screen replaces them).
func (k *LineKeys) Keep(termID, saved string, restore bool) *pane.KeepLines {
	if k == nil {
		return nil
	}
	key := saved
	if !pane.ValidKeptKey(saved) || k.inUse[saved] {
		key, restore = termID, false
		for k.inUse[key] {
			key += "x"
		}
	}
	k.keys[termID], k.inUse[key] = key, true
	kl := &pane.KeepLines{Key: key, Rows: k.rows, Hand: k.hand}
	if restore {
		kl.From = pane.KeptBase(k.dir, key)
	}
	return kl
}

// Key is a pane's key for session.json ("" for none).
func (k *LineKeys) Key(termID string) string {
	if k == nil {
		return ""
	}
	return k.keys[termID]
}

// Live forgets the panes that are gone and returns the keys of the
// others, by terminal id (a map of its own; nil when no lines are kept).
func (k *LineKeys) Live(alive func(termID string) bool) map[string]string {
	if k == nil {
		return nil
	}
	live := make(map[string]string, len(k.keys))
	for termID, key := range k.keys {
		if !alive(termID) {
			delete(k.keys, termID)
			delete(k.inUse, key)
			continue
		}
		live[termID] = key
	}
	return live
}
