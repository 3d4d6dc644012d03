package tests

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebDaily_ViewHiddenAndProgramBadges drives the page against a real
// server: before a pane is chosen the pane view (its buttons, the red
// Close, the prompt box) is not on screen; a plain shell shows its
// program rather than an "unknown" status, and a program started in it
// (any foreground job: sleep here) replaces the shell's name.
func TestWebDaily_ViewHiddenAndProgramBadges(t *testing.T) {
	exe := chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webdaily")
	url := strings.TrimSpace(agentCLI(t, s, "web", "url"))
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, shell)

	ctx := browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="`+shell+`"]`))); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	// Nothing of the pane view takes room or shows before a pane is chosen.
	shown := pageList(t, ctx, `["#view", "#focus", "#close", "#prompt", "#replay"].filter((s) => { const e = document.querySelector(s); return e.offsetWidth > 0 || e.offsetHeight > 0 || e.getClientRects().length > 0; })`)
	if len(shown) != 0 {
		t.Errorf("before a pane is chosen these show: %q", shown)
	}

	badge := func() string {
		out, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('li.pane[data-pane="`+shell+`"] .badge') || {}).textContent || ""`))
		return out
	}
	var got string
	WaitFor(t, "the shell's program as its badge", func() bool {
		got = badge()
		return got == "bash" || got == "sh" || got == "zsh"
	})
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".badge.unknown").length`)); n != 0 {
		t.Errorf("%d unknown badges on a page of plain shells", n)
	}

	// A program run in the pane is named once it is in the foreground.
	s.Run(t, shell, "sleep 60")
	WaitFor(t, "sleep as the pane's badge", func() bool { got = badge(); return got == "sleep" })

	// Choosing the pane shows the view; the badge row stays a program.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.pane[data-pane="`+shell+`"]`)), chromedp.WaitVisible(chromedp.CSS(`#close`))); err != nil {
		t.Fatalf("open the pane: %v", err)
	}
}
