package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWeb_FourAgents watches four fake agents (claude, codex, gemini,
// opencode) from one browser tab: all four working, then codex blocked
// while the others work, each shown live; codex is answered through the
// page's prompt box, goes idle on the server and on the page, and its
// history replays in the page to its last screen. With HERDR_WEB_SHOTS
// set, the dashboard's screenshot is kept there as web-shot.png.
func TestWeb_FourAgents(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n[experimental]\npane_history = true\n")
	s := h.Start(t, "four")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))

	bin := Mkdir(t, s, "bin")
	screens := AgentScreens(t)
	if strings.Contains(screens, "'") {
		t.Skipf("module path %q cannot be quoted for sh", screens)
	}
	scripts := map[string]string{"claude": FakeClaudeCLI}
	agents := []string{"claude", "codex", "gemini", "opencode"}
	for _, a := range agents[1:] {
		scripts[a] = fmt.Sprintf(FakeAgentCLI, filepath.Join(screens, a))
	}
	env := map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	pane := map[string]string{}
	for _, a := range agents {
		if err := os.WriteFile(filepath.Join(bin, a), []byte(scripts[a]), 0o755); err != nil {
			t.Fatal(err)
		}
		pane[a] = s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "env": env, "label": a}).RootPane.PaneID
	}
	for _, a := range agents {
		s.WaitPrompt(t, pane[a])
		s.Run(t, pane[a], a)
	}
	s.WaitLine(t, pane["claude"], "claude ready")
	cue := func(a, line string) {
		OK[protocol.OK](t, s.Call("pane.send_input", map[string]any{"pane_id": pane[a], "text": line, "keys": []string{"Enter"}}), "ok")
	}
	cue("claude", "w")

	ctx := Browser(t, exe)
	start := time.Now()
	row := func(a, status string) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="` + pane[a] + `"][data-status="` + status + `"]`))
	}
	// shown is each agent's status as the page draws it.
	shown := func() map[string]string {
		byPane, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll("li.pane")].map((l) => [l.dataset.pane, l.dataset.status]))`))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, a := range agents {
			out[a] = byPane[pane[a]]
		}
		return out
	}
	counts := func() string {
		c, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#counts`)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	for _, a := range agents {
		if err := chromedp.Do(ctx, row(a, "working")); err != nil {
			t.Fatalf("%s never shown working (page shows %v): %v", a, shown(), err)
		}
	}
	if c := counts(); c != "4 working · 0 blocked · 0 done" {
		t.Errorf("header with all four working: %q", c)
	}

	// codex asks for permission; the page shows it blocked, pushed by the
	// bus, while the other three still work.
	cue("codex", "next")
	if err := chromedp.Do(ctx, row("codex", "blocked")); err != nil {
		t.Fatalf("codex never shown blocked (page shows %v): %v", shown(), err)
	}
	want := map[string]string{"claude": "working", "codex": "blocked", "gemini": "working", "opencode": "working"}
	if got := shown(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("page shows %v, want %v", got, want)
	}
	if c := counts(); c != "3 working · 1 blocked · 0 done" {
		t.Errorf("header with codex blocked: %q", c)
	}

	// Answer codex from the page: open its pane, type into the prompt box
	// and send. The fake codex reads the line and finishes its turn.
	if err := chromedp.Do(ctx, Tap(`li.pane[data-pane="`+pane["codex"]+`"]`),
		chromedp.WaitVisible(chromedp.CSS(`#term div`)),
		chromedp.SetValue(chromedp.CSS(`#prompttext`), "1"),
		chromedp.Click(chromedp.CSS(`#prompt button[type="submit"]`))); err != nil {
		t.Fatalf("answer codex from the page: %v", err)
	}
	var after protocol.AgentStatus
	WaitFor(t, "codex to finish its turn after the page's answer", func() bool {
		after = OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": pane["codex"]}), "pane_info").Pane.AgentStatus
		return after == protocol.StatusIdle || after == protocol.StatusDone
	})
	if err := chromedp.Do(ctx, row("codex", string(after))); err != nil {
		t.Fatalf("codex never shown %s (page shows %v): %v", after, shown(), err)
	}
	if msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#msg`))); err != nil || msg != "sent" {
		t.Errorf("prompt box status %q (%v), want sent", msg, err)
	}
	WaitFor(t, "codex's last screen drawn in the browser", func() bool {
		term, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#term`)))
		return strings.Contains(term, "Fixed the race in app_test.go")
	})
	want["codex"] = string(after)
	if got := shown(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the answer the page shows %v, want %v", got, want)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100 makes a PNG
	if err != nil {
		t.Fatal(err)
	}
	KeepShot(t, "web-shot.png", png)

	// Replay what codex did: the history ends on the screen it ends on now,
	// having passed through the permission prompt.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#replay`)),
		chromedp.WaitVisible(chromedp.CSS(`#screen.replaying`))); err != nil {
		t.Fatalf("replay: %v", err)
	}
	WaitFor(t, "the replay to end on codex's last screen", func() bool {
		m, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#msg`)))
		term, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#term`)))
		return m == "replay finished" && strings.Contains(term, "Fixed the race in app_test.go")
	})
	t.Logf("browser part took %v", time.Since(start).Round(time.Millisecond))
}
