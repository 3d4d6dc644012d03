package view

import (
	"sync"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/protocol"
)

// What the bus answers events.wait from (events.ReadSide): the wait's ids
// resolved from the newest View, once that View shows every message the
// session was sent before the wait came.

// waiters are the functions AfterCaughtUp holds until the session has
// handled the messages posted before each was given. They are the read
// side's bookkeeping, not the session's state: the session's goroutine
// runs them, the bus's adds them.
type waiters struct {
	mu   sync.Mutex
	list []caughtUpWaiter
}

type caughtUpWaiter struct {
	mark int64 // r.posted when it was given
	f    func()
}

// ready says the session handled every message posted before mark and a
// View is published.
func (r *ReadSide) ready(mark int64) bool {
	return r.shown.Load() >= mark && r.cur.Load() != nil
}

// AfterCaughtUp implements events.ReadSide.
func (r *ReadSide) AfterCaughtUp(f func()) bool {
	mark := r.posted.Load()
	if r.ready(mark) {
		return true
	}
	r.waits.mu.Lock()
	r.waits.list = append(r.waits.list, caughtUpWaiter{mark: mark, f: f})
	r.pending.Add(1)
	r.waits.mu.Unlock()
	r.wake() // the session may have caught up meanwhile
	return false
}

// wake runs the waiters the session has caught up with; the session
// calls it after each message and each publish.
func (r *ReadSide) wake() {
	if r.pending.Load() == 0 {
		return
	}
	var run []func()
	r.waits.mu.Lock()
	keep := r.waits.list[:0]
	for _, w := range r.waits.list {
		if r.ready(w.mark) {
			run = append(run, w.f)
		} else {
			keep = append(keep, w)
		}
	}
	clear(r.waits.list[len(keep):])
	r.waits.list = keep
	r.pending.Store(int32(len(keep)))
	r.waits.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// ResolveWait implements events.ReadSide: as the session resolved a
// wait's match, from the newest View. The one exception to not-found is
// the id of the entity a workspace_created or tab_created wait waits for,
// which cannot exist yet and is kept as given, a legacy tab form made
// canonical by its syntax (FutureTabID). A pane_output_changed wait
// without a revision waits for the pane's next one.
func (r *ReadSide) ResolveWait(m *protocol.EventMatch) (events.Match, error) {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	match := events.Match{Kind: m.Event, Label: str(m.Label), Agent: str(m.Agent), AgentStatus: str(m.AgentStatus)}
	if m.MinRevision != nil {
		match.MinRevision = *m.MinRevision
	}
	v := r.Newest()
	if v == nil {
		return match, protocol.Errorf(protocol.CodeInternal, "events.wait: the session has published nothing yet")
	}
	if id := str(m.WorkspaceID); id != "" {
		w, err := v.ResolveWorkspace(id)
		switch {
		case err == nil:
			match.WorkspaceID = v.Spaces[w].Info.WorkspaceID
		case m.Event == "workspace_created":
			match.WorkspaceID = id
		default:
			return match, err
		}
	}
	if id := str(m.TabID); id != "" {
		t, err := v.ResolveTab(id)
		switch {
		case err == nil:
			match.TabID = v.Tabs[t].Info.TabID
		case m.Event == "tab_created":
			match.TabID = v.FutureTabID(id)
		default:
			return match, err
		}
	}
	if m.PaneID != nil {
		i, err := v.ResolvePane(*m.PaneID)
		if err != nil {
			return match, err
		}
		p := v.Rec(i)
		match.TermID = p.Info.TerminalID
		if m.Event == "pane_output_changed" {
			// A wait for a change waits for the next one unless the caller
			// names a revision: min_revision to reach, or seen_revision to pass.
			switch {
			case m.MinRevision != nil:
			case m.SeenRevision != nil:
				match.MinRevision = *m.SeenRevision + 1
			default:
				match.MinRevision = p.Info.Revision + 1
			}
		}
	}
	return match, nil
}

// ResolvePanes implements events.ReadSide: an events.subscribe's pane ids
// resolved as the session resolved them, all from the newest View.
func (r *ReadSide) ResolvePanes(ids []string) ([]events.PaneRef, error) {
	out := make([]events.PaneRef, len(ids))
	v := r.Newest()
	if v == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "events.subscribe: the session has published nothing yet")
	}
	for i, id := range ids {
		if id == "" {
			continue
		}
		n, err := v.ResolvePane(id)
		if err != nil {
			return nil, err
		}
		p := v.Rec(n)
		out[i] = events.PaneRef{PaneID: p.Info.PaneID, WorkspaceID: p.Info.WorkspaceID, TabID: p.Info.TabID,
			TermID: p.Info.TerminalID, PID: p.PID, Status: StatusEvent(&p.Info)}
	}
	return out, nil
}
