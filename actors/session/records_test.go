package session

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// recordsAgree reports, from inside the session, how its records
// (view.Records) differ from its model: a terminal of the model without a
// record, a record of no terminal of the model, a record of another pane.
func recordsAgree(t *testing.T, h *harness) string {
	t.Helper()
	var diff string
	res, err := h.system.Root.RequestFuture(h.session, &script{run: func(s *Session, _ actor.Context) *kit.Reply {
		var model, recs []string
		for _, w := range s.m.Workspaces() {
			for _, tb := range w.Tabs() {
				for _, p := range s.m.TabPanes(tb) {
					model = append(model, p.TermID())
					if r := s.recs.Of(p); r == nil || r.Pane != p || r.PID == nil {
						diff += fmt.Sprintf("terminal %s: record %+v\n", p.TermID(), r)
					}
				}
			}
		}
		for r := range s.recs.All() {
			recs = append(recs, r.TermID())
		}
		slices.Sort(model)
		slices.Sort(recs)
		if !slices.Equal(model, recs) {
			diff += fmt.Sprintf("the model's terminals %q, the records' %q\n", model, recs)
		}
		return kit.OK()
	}}, 5*time.Second).Result()
	if err != nil || res.(*kit.Reply).Err != nil {
		t.Fatalf("script: %v %v", err, res)
	}
	return diff
}

// The records are the model's panes' and no other: a failed call that
// had put a record (layout.apply whose second pane cannot start, after
// its first started) leaves none behind, a split puts one, a close drops
// it.
func TestRecords_FollowTheModelThroughDiscards(t *testing.T) {
	failDir := t.TempDir()
	h, _, l := newRecordedAs(t, failDir, func(s *Session) actor.Actor { return scripted{s} })
	if d := recordsAgree(t, h); d != "" {
		t.Fatalf("at start:\n%s", d)
	}
	r := h.call("layout.apply", fmt.Sprintf(`{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,`+
		`"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":%q}}}`, failDir))
	if r.Err == nil || protocol.AsError(r.Err).Code != "layout_apply_failed" {
		t.Fatalf("layout.apply with a pane that cannot start: %v, want layout_apply_failed", r.Err)
	}
	h.settled(l)
	if d := recordsAgree(t, h); d != "" {
		t.Errorf("after a failed layout.apply:\n%s", d)
	}
	split := h.call("pane.split", `{"target_pane_id":"w1:p1","direction":"down"}`)
	if split.Err != nil {
		t.Fatal(split.Err)
	}
	if d := recordsAgree(t, h); d != "" {
		t.Errorf("after a split:\n%s", d)
	}
	if r := h.call("pane.close", `{"pane_id":"`+split.Result.(protocol.PaneInfoResult).Pane.PaneID+`"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	if d := recordsAgree(t, h); d != "" {
		t.Errorf("after a close:\n%s", d)
	}
}
