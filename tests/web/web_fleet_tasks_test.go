package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/board"
	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWebTasks_FleetBoard: a server in a fleet (it runs the hub) shows the
// fleet's board beside its own in the same columns: a fleet task claimed
// by member gamma (over the hub, as gamma's dispatcher would) in running
// with "machine gamma", an unclaimed one in ready marked fleet, and the
// local task of the same id apart from the fleet's; a click shows the
// fleet task's activity (task.get with fleet); gamma's report, which
// comes as no event on this server, moves it to review on the page.
func TestWebTasks_FleetBoard(t *testing.T) {
	exe := Chromium(t)
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n\n[fleet]\nname = \"alpha\"\nhub = true\nuser = \"herdr\"\npassword = \"pw\"\nlisten = \""+addr+"\"\n")
	s := h.Start(t, "webfleet")
	WaitFor(t, "alpha joining its hub", func() bool {
		st := OK[protocol.FleetStatus](t, s.CallT(t, "fleet.status", map[string]any{}), "fleet_status")
		return st.Hub.State == protocol.FleetHubConnected && len(st.Members) == 1
	})
	AgentCLI(t, s, "task", "create", "--title", "Local chore")
	AgentCLI(t, s, "task", "create", "--fleet", "--title", "Train <i>model</i>")
	AgentCLI(t, s, "task", "create", "--fleet", "--title", "Evaluate")

	nc, err := nats.Connect("nats://"+addr, nats.UserInfo("herdr", "pw"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := board.Open(c, js, board.Config{LeaseTTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	_, lease, err := b.Claim(c, "task-1", board.Member{Name: "gamma", Capacity: 1})
	if err != nil {
		t.Fatal(err)
	}

	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	ctx := Browser(t, exe)
	claimed := `#board .col[data-status="running"] li.task.fleet[data-task="task-1"][data-machine="gamma"]`
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#taskstoggle`)), chromedp.Click(chromedp.CSS(`#taskstoggle`)),
		chromedp.WaitVisible(chromedp.CSS(claimed))); err != nil {
		t.Fatalf("the board never showed fleet task-1 running on gamma: %v", err)
	}
	rows := pageList(t, ctx, `[...document.querySelectorAll("#board li.task")].map((l) => l.dataset.status + ":" + (l.dataset.fleet ? "fleet/" : "") + l.dataset.task + "@" + (l.dataset.machine || ""))`)
	if want := "ready:task-1@ ready:fleet/task-2@ running:fleet/task-1@gamma"; strings.Join(rows, " ") != want {
		t.Fatalf("rows %q, want %q", rows, want)
	}
	if row := PageText(t, ctx, claimed); !strings.Contains(row, "Train <i>model</i>") || !strings.Contains(row, "machine gamma") {
		t.Errorf("fleet task-1's row %q: want its title as text and its member", row)
	}
	if row := PageText(t, ctx, `li.task.fleet[data-task="task-2"]`); !strings.Contains(row, "fleet") {
		t.Errorf("fleet task-2's row %q: want it marked fleet", row)
	}
	if err := chromedp.Do(ctx, Tap(claimed),
		chromedp.WaitVisible(chromedp.CSS(`#activity[data-task="task-1"][data-fleet="true"] ol li`))); err != nil {
		t.Fatal(err)
	}
	if act := PageText(t, ctx, `#activity`); !strings.Contains(act, "fleet, machine gamma") || !strings.Contains(act, "claimed by machine gamma") {
		t.Errorf("fleet task-1's activity %q: want its member and its claim", act)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#tasks i").length`)); n != 0 {
		t.Errorf("a fleet task's title became %d elements", n)
	}

	if _, err := b.Report(c, lease, protocol.TaskReview, "ready for review"); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "fleet task-1 in the review column", func() bool {
		return strings.Contains(PageText(t, ctx, `#board .col[data-status="review"]`), "Train <i>model</i>")
	})
}
