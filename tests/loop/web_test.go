package loop

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWebInbox_AnswersFromAPhone: in a real chromium at a phone's
// viewport (390×844), the dashboard's inbox shows the blocked fake
// Claude's question and choices full width with nothing scrolling
// sideways; a tap on a choice of a question the agent no longer asks is
// refused on the card and types nothing; the new question's card is
// drawn and its tap answers the agent end to end. The tree shows the
// agent's queued prompts. With HERDR_WEB_SHOTS set, the phone's
// screenshot is kept there as web-inbox.png.
func TestWebInbox_AnswersFromAPhone(t *testing.T) {
	t.Parallel()
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "phone")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	pane, log := startFake(t, s)
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane}), "agent_queue")
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.add", map[string]any{"target": pane, "text": "then run the linter"}), "agent_queue")
	cue(t, s, pane, "b")
	waitStatus(t, s, pane, protocol.StatusBlocked)

	ctx := Browser(t, exe)
	card := `article.ask[data-pane="` + pane + `"]`
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3)),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="`+pane+`"][data-queue="1"] .badge.queue`)),
		chromedp.WaitVisible(chromedp.CSS(`#inboxtoggle.hot`)),
		chromedp.Click(chromedp.CSS(`#inboxtoggle`)),
		chromedp.WaitVisible(chromedp.CSS(card+` button.choice[data-key="2"]`))); err != nil {
		t.Fatal(err)
	}
	question, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card+` pre.question`)))
	if err != nil || !strings.Contains(question, "rm -rf build") {
		t.Fatalf("the card's question: %q, %v", question, err)
	}
	// The phone layout: the tree steps aside, a choice spans the card,
	// nothing scrolls sideways.
	layout, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`({
		nav: document.querySelector("nav").getBoundingClientRect().height,
		choice: document.querySelector("button.choice").getBoundingClientRect().width,
		tall: document.querySelector("button.choice").getBoundingClientRect().height,
		page: document.documentElement.scrollWidth,
		view: window.innerWidth })`))
	if err != nil {
		t.Fatal(err)
	}
	if layout["view"] != 390 || layout["nav"] != 0 || layout["choice"] < 300 || layout["tall"] < 44 || layout["page"] > layout["view"] {
		t.Fatalf("phone layout: %v", layout)
	}
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		KeepShot(t, "web-inbox.png", png)
	}

	// The agent asks another question behind the page's back: the stale
	// card's tap is refused where the person looks, and nothing is typed.
	// The page stops reading the inbox meanwhile (as a phone that lost its
	// link would), else its 3 s poll may replace the card before the tap.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.heldRefresh = refreshInbox, refreshInbox = async () => {}, true)`)); err != nil {
		t.Fatal(err)
	}
	cue(t, s, pane, "c")
	WaitFor(t, "the second question on screen", func() bool {
		return strings.Contains(s.Read(t, pane, "visible", 0).Text, "git push --force")
	})
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(card+` button.choice[data-key="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(card+` .result.err`))); err != nil {
		t.Fatal(err)
	}
	if l := logLines(t, log); len(l) != 0 {
		t.Fatalf("an answer to a changed question was typed: %q", l)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(refreshInbox = window.heldRefresh, refreshInbox(), true)`)); err != nil {
		t.Fatal(err)
	}
	// The inbox is read again: the new question, three choices; its tap answers.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(card+` button.choice[data-key="3"]`)),
		chromedp.Click(chromedp.CSS(card+` button.choice[data-key="2"]`))); err != nil {
		t.Fatal(err)
	}
	waitLog(t, log, "answer 2")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#inboxlist .note.empty`))); err != nil {
		t.Fatal(err)
	}
}
