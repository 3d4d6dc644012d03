package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The read side finds a call's owner as the session resolves its target:
// for every id form of every pane, workspace and tab, the pane's actor
// and current id (kit.PaneFinder.PaneActor), its terminal for the agents
// actor (AgentTerm), and the workspace's and tab's records (Workspace,
// Tab) are the ones the session's own answers give; an unknown id is
// left to the session.
func TestReadSide_FindsOwnersAsTheSessionResolves(t *testing.T) {
	h, rs := newReadHarness(t)
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	h.call("pane.split", `{"direction":"right"}`)
	h.call("tab.create", `{}`)
	call := func(method, params string) *kit.Call {
		t.Helper()
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		return &kit.Call{ID: "t", Method: method, Params: p}
	}
	// Settled: the read side answers once the session's mailbox is idle.
	deadline := time.Now().Add(5 * time.Second)
	for pid, _ := rs.PaneActor(call("pane.send_text", `{"pane_id":"w1:p1","text":""}`)); pid == nil; pid, _ = rs.PaneActor(call("pane.send_text", `{"pane_id":"w1:p1","text":""}`)) {
		if time.Now().After(deadline) {
			t.Fatal("the read side never found w1:p1")
		}
		time.Sleep(time.Millisecond) // until the mailbox is idle
	}
	snap := h.call("session.snapshot", `{}`).Result.(protocol.SessionSnapshotResult).Snapshot
	// The read side says "can't say" while a message is in the session's
	// mailbox (the caller then asks the session): each lookup is asked
	// again until the mailbox is idle.
	settled := func(found func() bool) {
		deadline := time.Now().Add(2 * time.Second)
		for !found() && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
	checked := 0
	for _, p := range snap.Panes {
		for _, id := range []string{p.PaneID, fmt.Sprintf("p_%s", p.PaneID[len(p.WorkspaceID)+2:])} {
			got := h.call("pane.get", fmt.Sprintf(`{"pane_id":%q}`, id))
			var pid *actor.PID
			var paneID, term string
			var ok bool
			settled(func() bool {
				pid, paneID = rs.PaneActor(call("pane.send_text", fmt.Sprintf(`{"pane_id":%q,"text":""}`, id)))
				term, ok = rs.AgentTerm(call("pane.report_metadata", fmt.Sprintf(`{"pane_id":%q,"source":"t"}`, id)), protocol.TargetPane)
				return got.Err != nil || pid != nil && ok
			})
			if got.Err != nil {
				if pid != nil || ok {
					t.Errorf("%s: the session says %v, the read side found %v / %q", id, got.Err, pid, term)
				}
				continue
			}
			want := got.Result.(protocol.PaneInfoResult).Pane
			if pid == nil || paneID != want.PaneID || !ok || term != want.TerminalID {
				t.Errorf("%s: the read side found %v %q, terminal %q (%v); the session resolves it to %s, terminal %s", id, pid, paneID, term, ok, want.PaneID, want.TerminalID)
			}
			checked++
		}
	}
	for _, w := range snap.Workspaces {
		for _, id := range []string{w.WorkspaceID, fmt.Sprint(w.Number)} {
			want := h.call("workspace.get", fmt.Sprintf(`{"workspace_id":%q}`, id)).Result.(protocol.WorkspaceInfoResult).Workspace
			var info protocol.WorkspaceInfo
			var ok bool
			settled(func() bool {
				info, _, ok = rs.Workspace(call("workspace.rename", fmt.Sprintf(`{"workspace_id":%q,"label":"x"}`, id)))
				return ok
			})
			if !ok || fmt.Sprint(info) != fmt.Sprint(want) {
				t.Errorf("workspace %s: the read side found %+v (%v), the session answers %+v", id, info, ok, want)
			}
			checked++
		}
	}
	for _, tb := range snap.Tabs {
		want := h.call("tab.get", fmt.Sprintf(`{"tab_id":%q}`, tb.TabID)).Result.(protocol.TabInfoResult).Tab
		var info protocol.TabInfo
		var ok bool
		settled(func() bool {
			info, ok = rs.Tab(call("tab.rename", fmt.Sprintf(`{"tab_id":%q,"label":"x"}`, tb.TabID)))
			return ok
		})
		if !ok || fmt.Sprint(info) != fmt.Sprint(want) {
			t.Errorf("tab %s: the read side found %+v (%v), the session answers %+v", tb.TabID, info, ok, want)
		}
		checked++
	}
	if checked < 8 {
		t.Fatalf("checked %d ids", checked)
	}
	if pid, _ := rs.PaneActor(call("pane.send_text", `{"pane_id":"w9:p9","text":""}`)); pid != nil {
		t.Error("an unknown pane was found")
	}
	if _, _, ok := rs.Workspace(call("workspace.rename", `{"workspace_id":"w9","label":"x"}`)); ok {
		t.Error("an unknown workspace was found")
	}
}
