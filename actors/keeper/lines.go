package keeper

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
)

// The panes' kept lines and the trim, from what the session publishes:
// every linesDelay the keeper looks at the newest View (Options.Reads),
// never entering the session's mailbox. The number of panes there arms
// the trim when it moved; a pane whose record changed since the last look
// (its facts: output, screen, title) is asked for its lines, and so is a
// pane new since the last look. The lines keys come with each Save (the
// session names a pane's key as it starts it): only a pane a save has
// named is asked, so its lines are never handed under a key the writer
// would drop, and the files of keys no save names any more go.

// lineState is what the keeper last saw of the panes.
type lineState struct {
	keys map[string]string     // the lines key of each pane, by terminal id, as of the last Save
	told bool                  // the lines writer was told a set of keys
	seen map[string]*view.Pane // each pane's record at the last look, by terminal id
}

// keepKeys takes the keys of a Save: the lines writer is told the set
// when it changed (its files of other keys go).
func (k *Keeper) keepKeys(keys map[string]string) {
	if k.opts.Lines == nil || keys == nil {
		return
	}
	same := k.lines.told && len(keys) == len(k.lines.keys)
	for term, key := range keys {
		if same && k.lines.keys[term] != key {
			same = false
		}
	}
	k.lines.keys, k.lines.told = keys, true
	if same {
		return
	}
	live := make(map[string]bool, len(keys))
	for _, key := range keys {
		live[key] = true
	}
	k.opts.Lines.Keep(live)
}

// look reads the newest View: the trim's count of panes, and the panes to
// ask for their lines.
func (k *Keeper) look(ctx actor.Context) {
	v := k.opts.Reads.Newest()
	if v == nil {
		return
	}
	k.panesNow(ctx, len(v.Panes))
	if k.opts.Lines == nil {
		return
	}
	for _, pid := range k.lines.due(v) {
		ctx.Send(pid, &pane.SaveLines{})
	}
}

// due is the panes of v a save named whose record is new or changed since
// the last look (a pane no save named yet waits for one).
func (l *lineState) due(v *view.View) []*actor.PID {
	var out []*actor.PID
	seen := make(map[string]*view.Pane, len(l.keys))
	for i := range v.Panes {
		rec := v.Rec(i)
		term := rec.Info.TerminalID
		if _, named := l.keys[term]; !named || rec.PID == nil {
			continue
		}
		seen[term] = rec
		if l.seen[term] != rec {
			out = append(out, rec.PID)
		}
	}
	l.seen = seen
	return out
}
