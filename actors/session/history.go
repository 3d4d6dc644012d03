package session

import (
	"path/filepath"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
)

// Pane history across restarts ([experimental] pane_history, off by
// default as in Herdr: it writes what terminals showed to disk). Each
// pane's lines are kept in history/<key>.gz beside session.json; the key
// is recorded in the pane's entry of session.json and stays the pane's
// across restarts, moves and handoffs. linesDelay after a change to the
// session or to a pane's screen, every pane is asked for its
// lines (SaveLines: it answers only when they changed since it last did);
// the panes hand them to the writer (pane.LinesWriter), which packs and
// writes them off every actor and removes the files of closed panes. When
// the server stops, each pane hands its lines once more as it stops, and
// the session waits for the writer when its panes are gone. A restored
// pane reads its file itself and shows the lines above its new shell.

// linesDelay is how long after a change the panes are asked for their
// lines. Far longer than saveDelay: a copy of a long history costs
// milliseconds on the pane's actor, and a busy pane's screen changes all
// the time, so its lines are copied at most once per linesDelay.
const linesDelay = 5 * time.Second

// linesDue is the kept-lines timer going off.
type linesDue struct{}

// linesKeeper is the session's part in kept lines.
type linesKeeper struct {
	dir    string
	writer *pane.LinesWriter
	root   *actor.RootContext
	keys   map[string]string // each pane's key, by terminal id
	inUse  map[string]bool   // the keys of keys
	timer  uint64            // the pending linesDue, 0 for none
}

// startLines sets kept lines up when pane_history is on and the session
// is kept in a file (and the scrollback is not off).
func (s *Session) startLines(ctx actor.Context) {
	if !s.cfg.Experimental.PaneHistory || s.opts.SessionFile == "" || s.cfg.Advanced.ScrollbackLimitBytes < 0 {
		return
	}
	dir := filepath.Join(filepath.Dir(s.opts.SessionFile), "history")
	s.lines = &linesKeeper{dir: dir, writer: pane.NewLinesWriter(dir, s.opts.Log), root: ctx.ActorSystem().Root,
		keys: map[string]string{}, inUse: map[string]bool{}}
}

// keepLines is a new pane's part in kept lines (nil when none are kept):
// saved is the key its entry in session.json recorded, restore says to
// show that file's lines in the pane (not for an adopted terminal, nor
// for an agent about to be resumed, whose own screen replaces them).
func (s *Session) keepLines(termID, saved string, restore bool) *pane.KeepLines {
	k := s.lines
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
	kl := &pane.KeepLines{Key: key, Hand: k.writer.Hand}
	if restore {
		kl.From = pane.KeptPath(k.dir, key)
	}
	return kl
}

// keptKey is the key of a pane's lines for session.json ("" for none).
func (s *Session) keptKey(termID string) string {
	if s.lines == nil {
		return ""
	}
	return s.lines.keys[termID]
}

// linesChanged arms the kept-lines timer when a pane's screen changed.
func (s *Session) linesChanged(ctx actor.Context, p *paneRec, f *pane.Facts) {
	if f.Revision != p.facts.Revision {
		s.linesSoon(ctx)
	}
}

// linesSoon arms the kept-lines timer unless it is pending.
func (s *Session) linesSoon(ctx actor.Context) {
	if k := s.lines; k != nil && k.timer == 0 {
		k.timer = s.timers.After(ctx, linesDelay, &linesDue{})
	}
}

// saveLines tells the writer which panes are left (the files of the
// others go) and asks every pane for its lines.
func (s *Session) saveLines() {
	k := s.lines
	if k == nil {
		return
	}
	s.timers.Cancel(k.timer)
	k.timer = 0
	live := make(map[string]bool, len(s.terms))
	for termID, key := range k.keys {
		if s.terms[termID] == nil {
			delete(k.keys, termID)
			delete(k.inUse, key)
			continue
		}
		live[key] = true
	}
	k.writer.Keep(live)
	for _, p := range s.terms {
		if p.pid != nil {
			k.root.Send(p.pid, &pane.SaveLines{})
		}
	}
}

// closeLines waits for the writer once the panes, which hand their lines
// as the server stops, are gone.
func (s *Session) closeLines() {
	if s.lines == nil {
		return
	}
	if !s.lines.writer.Close(5 * time.Second) {
		s.opts.Log.Error("pane history still being written at exit", "dir", s.lines.dir)
	}
	s.lines = nil
}
