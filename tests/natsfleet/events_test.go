package natsfleet

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fleetSub is an events.subscribe with "machines":"all" for workspace
// creations, from since_seq when since is not nil.
type fleetSub struct {
	c     *protocol.Client
	lines chan string
}

func subscribeAll(t *testing.T, s *Server, since *uint64) *fleetSub {
	t.Helper()
	c := s.Dial(t)
	params := map[string]any{"machines": "all", "subscriptions": []map[string]any{{"type": "workspace_created"}}}
	if since != nil {
		params["since_seq"] = *since
	}
	req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": params})
	if err := c.WriteLine(req); err != nil {
		t.Fatal(err)
	}
	OK[protocol.SubscriptionStarted](t, ReadResponse(t, c), "subscription_started")
	f := &fleetSub{c: c, lines: make(chan string, 256)}
	go func() {
		defer close(f.lines)
		for {
			line, err := c.ReadLine()
			if err != nil {
				return
			}
			f.lines <- string(line)
		}
	}()
	return f
}

// next is the next event line naming a workspace of machine whose label is
// label; it fails the test after WaitTimeout.
func (f *fleetSub) next(t *testing.T, machine, label string) (line string, seq uint64) {
	t.Helper()
	deadline := time.After(WaitTimeout)
	for {
		select {
		case line, ok := <-f.lines:
			if !ok {
				t.Fatalf("the fleet subscription ended waiting for %s's workspace %s", machine, label)
			}
			if !strings.Contains(line, `"label":"`+label+`"`) {
				continue
			}
			var ev struct {
				Event string `json:"event"`
				Seq   uint64 `json:"seq"`
				Data  struct {
					Machine *protocol.MachineRef `json:"machine"`
					Ws      struct {
						WorkspaceID string `json:"workspace_id"`
					} `json:"workspace"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("event line %s: %v", line, err)
			}
			if ev.Data.Machine == nil || ev.Data.Machine.ID != machine || ev.Seq == 0 {
				t.Fatalf("%s's workspace %s came as %s: want it qualified by machine %q with a seq", machine, label, line, machine)
			}
			return line, ev.Seq
		case <-deadline:
			t.Fatalf("no workspace_created of %s's workspace %s on the fleet subscription", machine, label)
		}
	}
}

// A fleet subscriber on beta gets alpha's events, qualified by alpha's
// name as a saved machine's are; disconnected, it misses alpha's next
// events, and resumed from the sequence after its last it gets them all,
// in order. Beta killed and started again replays from the stream what
// alpha did while it was down.
func TestNATSFleet_EventsFromMembersAndResume(t *testing.T) {
	a, url := hub(t)
	b := join(t, "beta", url, "s3cret")
	waitMembers(t, b, "alpha", "beta")
	waitMembers(t, a, "alpha", "beta")

	sub := subscribeAll(t, b, nil)
	a.CreateWorkspace(t, map[string]any{"label": "first", "cwd": a.Home.Dir})
	line, last := sub.next(t, "alpha", "first")
	if !strings.Contains(line, `"workspace_id":"alpha/`) {
		t.Fatalf("alpha's workspace id is not qualified: %s", line)
	}
	sub.c.Close()

	// Away: alpha makes two workspaces.
	for _, label := range []string{"second", "third"} {
		a.CreateWorkspace(t, map[string]any{"label": label, "cwd": a.Home.Dir})
	}
	// Back, from the sequence after the last one seen.
	since := last
	again := subscribeAll(t, b, &since)
	_, s2 := again.next(t, "alpha", "second")
	_, s3 := again.next(t, "alpha", "third")
	if !(last < s2 && s2 < s3) {
		t.Fatalf("resumed out of order: seen %d, then %d and %d", last, s2, s3)
	}
	// A member's pane named in a fleet subscription: its agent's status
	// changes come from the stream, the pane id qualified.
	pane := AgentWorkspace(t, a)
	a.WaitPrompt(t, pane)
	q := "alpha/" + pane
	sc := b.Dial(t)
	req, _ := json.Marshal(map[string]any{"id": "st", "method": "events.subscribe", "params": map[string]any{
		"machines": "all", "subscriptions": []map[string]any{{"type": "pane.agent_status_changed", "pane_id": q}}}})
	if err := sc.WriteLine(req); err != nil {
		t.Fatal(err)
	}
	OK[protocol.SubscriptionStarted](t, ReadResponse(t, sc), "subscription_started")
	AgentCLI(t, a, "agent", "start", "a1", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	if out, errOut, code := b.CLI("agent", "prompt", "alpha/a1", "w"); code != 0 {
		t.Fatalf("agent prompt alpha/a1 from beta: exit %d, %s %s", code, out, errOut)
	}
	for {
		line, err := sc.ReadLine()
		if err != nil {
			t.Fatalf("the status subscription for %s: %v", q, err)
		}
		if strings.Contains(string(line), `"working"`) {
			if !strings.Contains(string(line), `"pane_id":"`+q+`"`) {
				t.Fatalf("alpha's status change lacks its qualified pane: %s", line)
			}
			break
		}
	}
	// A kind a member does not stream for one pane is refused, saying so.
	bad := b.CallT(t, "events.subscribe", map[string]any{"machines": "all", "subscriptions": []map[string]any{{"type": "pane.output_matched", "pane_id": q, "source": "visible", "match": map[string]any{"type": "substring", "value": "x"}}}})
	if bad.Error == nil || bad.Error.Code != protocol.CodeNotSupported {
		t.Fatalf("a pane.output_matched subscription on alpha's pane: %+v", bad.Error)
	}

	// Beta's own events are not alpha's: a workspace of beta's comes
	// unqualified on the same subscription.
	b.CreateWorkspace(t, map[string]any{"label": "mine", "cwd": b.Home.Dir})
	for mine := false; !mine; {
		select {
		case l, ok := <-again.lines:
			if !ok {
				t.Fatal("the resumed subscription ended")
			}
			if strings.Contains(l, `"label":"mine"`) {
				if strings.Contains(l, `"machine"`) {
					t.Fatalf("beta's own workspace came qualified: %s", l)
				}
				mine = true
			}
		case <-time.After(WaitTimeout):
			t.Fatal("beta's own workspace_created never came")
		}
	}

	// Beta down (kill -9) while alpha makes a workspace: started again,
	// beta reads the stream on from where it was, so a fleet subscriber
	// of the new beta (from its bus's start) gets what it missed.
	again.c.Close()
	b.Kill(t)
	a.CreateWorkspace(t, map[string]any{"label": "while-away", "cwd": a.Home.Dir})
	b = b.Home.Start(t, "e2e")
	zero := uint64(0)
	subscribeAll(t, b, &zero).next(t, "alpha", "while-away")
}
