package web

import (
	"bytes"
	"image"
	"image/color"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWebDaily_ViewHiddenAndProgramBadges drives the page against a real
// server: before a pane is chosen the pane view (its buttons, the red
// Close, the prompt box) is not on screen; a plain shell shows its
// program rather than an "unknown" status, and a program started in it
// (any foreground job: sleep here) replaces the shell's name.
func TestWebDaily_ViewHiddenAndProgramBadges(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webdaily")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, shell)

	ctx := Browser(t, exe)
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
	if err := chromedp.Do(ctx, Tap(`li.pane[data-pane="`+shell+`"]`), chromedp.WaitVisible(chromedp.CSS(`#close`))); err != nil {
		t.Fatalf("open the pane: %v", err)
	}
}

// TestWebDaily_ScreenshotsAtPhoneAndDesktop draws the page of a session
// with one plain shell at a phone's size and a desktop's, before a pane
// is chosen, and compares each screenshot with its committed reference
// (tests/testdata/web): the same size, and at most shotTolerance of the
// pixels differing visibly (fonts and the version string may move a
// little; a pane view or a badge that appears does not pass).
// HERDR_UPDATE_SHOTS=1 writes the references instead.
func TestWebDaily_ScreenshotsAtPhoneAndDesktop(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webshots")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "label": "api"}).RootPane.PaneID
	s.WaitPrompt(t, shell)

	for _, size := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1280, 800}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := Browser(t, exe)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(url),
				chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="`+shell+`"] .badge.program`)),
				chromedp.WaitVisible(chromedp.CSS(`#machines li`)), chromedp.WaitVisible(chromedp.CSS(`#taskstoggle`))); err != nil {
				t.Fatalf("the page never settled: %v", err)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			compareShot(t, "dashboard-"+size.name+".png", png)
		})
	}
}

// shotTolerance is the fraction of pixels a screenshot may differ by.
const shotTolerance = 0.01

// compareShot compares png with the reference of that name.
func compareShot(t *testing.T, name string, png []byte) {
	t.Helper()
	ref := filepath.Join("..", "testdata", "web", name)
	if os.Getenv("HERDR_UPDATE_SHOTS") != "" {
		if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ref, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote reference %s", ref)
		return
	}
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatalf("reference %s: %v (HERDR_UPDATE_SHOTS=1 writes it)", ref, err)
	}
	got, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	exp, _, err := image.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != exp.Bounds() {
		KeepShot(t, name, png)
		t.Fatalf("%s: %v, reference %v", name, got.Bounds(), exp.Bounds())
	}
	differ, b := 0, got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if visiblyDifferent(got.At(x, y), exp.At(x, y)) {
				differ++
			}
		}
	}
	frac := float64(differ) / float64(b.Dx()*b.Dy())
	t.Logf("%s: %.4f of the pixels differ from the reference", name, frac)
	if frac > shotTolerance {
		KeepShot(t, name, png)
		t.Errorf("%s: %.2f%% of the pixels differ from %s (at most %.0f%%)", name, frac*100, ref, shotTolerance*100)
	}
}

// visiblyDifferent says two pixels differ by more than a rounding: the
// palette is dark, and the pane view's screen (#11111b) is only 13 a
// channel from the page (#1e1e2e).
func visiblyDifferent(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) uint32 {
		if x > y {
			return (x - y) >> 8
		}
		return (y - x) >> 8
	}
	return d(r1, r2) > 8 || d(g1, g2) > 8 || d(b1, b2) > 8
}
