package web

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

func TestWeb_DashboardInABrowser(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n[experimental]\npane_history = true\n")
	s := h.Start(t, "web")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	base, token, ok := strings.Cut(url, "?token=")
	if !ok || len(token) != 64 {
		t.Fatalf("herdr web url printed %q", url)
	}
	tokenFile := filepath.Join(h.Dir, "s", "herdr", "sessions", "web", "web-token")
	if b, err := os.ReadFile(tokenFile); err != nil || strings.TrimSpace(string(b)) != token {
		t.Fatalf("token file %s: %q %v", tokenFile, b, err)
	} else if fi, _ := os.Stat(tokenFile); fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", fi.Mode())
	}

	// Without the token the page and the socket are refused; with it, a
	// WebSocket from another origin is refused too.
	for _, path := range []string{"", "ws", "app.js"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /%s without the token: %d, want 401", path, resp.StatusCode)
		}
	}
	upgrade := func(query, origin string) int {
		req, _ := http.NewRequest(http.MethodGet, base+"ws"+query, nil)
		for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
			"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": origin} {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := upgrade("", strings.TrimSuffix(base, "/")); code != http.StatusUnauthorized {
		t.Errorf("WebSocket without the token: %d, want 401", code)
	}
	if code := upgrade("?token="+token, "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("WebSocket from another origin: %d, want 403", code)
	}

	agent := AgentWorkspace(t, s)
	s.Run(t, agent, "claude")
	s.WaitLine(t, agent, "claude ready")
	shell := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, shell)

	ctx := Browser(t, exe)
	row := func(pane, status string) string {
		return `li.pane[data-pane="` + pane + `"][data-status="` + status + `"]`
	}
	cue := func(c string) {
		OK[protocol.OK](t, s.Call("pane.send_input", map[string]any{"pane_id": agent, "text": c, "keys": []string{"Enter"}}), "ok")
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="`+shell+`"]`))); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	// The agent's status changes live, pushed by the bus: working, then blocked.
	cue("w")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(row(agent, "working")))); err != nil {
		t.Fatalf("working never shown: %v", err)
	}
	cue("b")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(row(agent, "blocked")))); err != nil {
		t.Fatalf("blocked never shown: %v", err)
	}

	// Open the shell, type into it, and see the answer in the pane.
	if err := chromedp.Do(ctx, Tap(`li.pane[data-pane="`+shell+`"]`),
		chromedp.WaitVisible(chromedp.CSS(`#term div`)),
		chromedp.SendKeys(chromedp.CSS(`#keys`), "echo hi"+kb.Enter)); err != nil {
		t.Fatalf("type into the pane: %v", err)
	}
	s.WaitLine(t, shell, "hi")
	var shown string
	WaitFor(t, "hi drawn in the browser", func() bool {
		shown, _ = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#term`)))
		return HasLine(shown, "hi")
	})
	// A method that would start a program is not the page's to call.
	refused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("workspace.create", {}).then(() => "ran", (e) => e.message)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(refused, "not available to the web dashboard") {
		t.Errorf("workspace.create from the page: %q", refused)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100 makes a PNG
	if err != nil {
		t.Fatal(err)
	}
	KeepShot(t, "dashboard.png", png)

	// Replay the pane's history in the page: it ends on the same screen.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#replay`)),
		chromedp.WaitVisible(chromedp.CSS(`#screen.replaying`))); err != nil {
		t.Fatalf("replay: %v", err)
	}
	WaitFor(t, "the replay to draw the typed command", func() bool {
		shown, _ = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#term`)))
		return strings.Contains(shown, "echo hi") && HasLine(shown, "hi")
	})

	// A burst of input from the page: the first writes go through, the
	// rest get rate_limited (the page's bucket holds 60), and once the
	// bucket refills the page can type again.
	burst, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](`Promise.allSettled(Array.from({ length: 150 },
		() => call("pane.send_text", { pane_id: state.open, text: "#" }))).then((rs) => {
		const n = {};
		for (const r of rs) { const k = r.status === "fulfilled" ? "ok" : r.reason.code; n[k] = (n[k] || 0) + 1; }
		return n;
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if burst["ok"] < 60 || burst["rate_limited"] == 0 || burst["ok"]+burst["rate_limited"] != 150 {
		t.Errorf("150 writes at once from the page: %v, want at least 60 ok and the rest rate_limited", burst)
	}
	t.Logf("150 writes at once from the page: %v", burst)
	WaitFor(t, "the accepted writes in the shell", func() bool {
		return strings.Count(s.Read(t, shell, "visible", 0).Text, "#") >= burst["ok"]
	})
	WaitFor(t, "the page to type again after the burst", func() bool {
		again, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("pane.send_text", { pane_id: state.open, text: "#" }).then(() => "ok", (e) => e.code)`, chromedp.EvalAwaitPromise))
		return err == nil && again == "ok"
	})
	t.Logf("browser part took %v", time.Since(start).Round(time.Millisecond))
}

// A recording of a scripted pane, fed through the emulator, ends on the
// pane's own final screen; so does the pane's history.
func TestWeb_RecordingReplaysToSameScreen(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[experimental]\npane_history = true\n")
	s := h.Start(t, "rec")
	p := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, p)
	cast := filepath.Join(h.Dir, "pane.cast")

	if e := RawCall(t, s, "pane.record.start", map[string]any{"pane_id": p, "path": "relative.cast"}, nil); e == nil || e.Code != protocol.CodeInvalidParams {
		t.Fatalf("relative path: %+v", e)
	}
	var started protocol.PaneRecordStarted
	if e := RawCall(t, s, "pane.record.start", map[string]any{"pane_id": p, "path": cast}, &started); e != nil {
		t.Fatalf("record.start: %+v", e)
	}
	if e := RawCall(t, s, "pane.record.start", map[string]any{"pane_id": p, "path": cast}, nil); e == nil || e.Code != protocol.CodeRecordFailed {
		t.Fatalf("second start: %+v", e)
	}
	s.Run(t, p, `printf '\033[2J\033[H\033[1;31mred\033[0m 日本語 ok\n\033[10;20Hmoved\n'; seq 1 80; echo part1`)
	s.WaitLine(t, p, "part1")
	// The file shows what was recorded so far while the recording runs.
	WaitFor(t, "part1 in the cast file before the recording stops", func() bool {
		b, _ := os.ReadFile(cast)
		return strings.HasPrefix(string(b), `{"version":2`) && strings.Contains(string(b), "part1")
	})
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 90, "rows": 24}), "ok")
	s.Run(t, p, `printf '\033[44mblue\033[0m\n'; seq 1 5; echo part2`)
	s.WaitLine(t, p, "part2")
	want := s.Read(t, p, "visible", 0).Text
	// Stop once the screen is quiet: the prompt after part2 is drawn.
	WaitFor(t, "a quiet screen", func() bool {
		time.Sleep(100 * time.Millisecond)
		now := s.Read(t, p, "visible", 0).Text
		ok := now == want
		want = now
		return ok
	})
	var stopped protocol.PaneRecordStopped
	if e := RawCall(t, s, "pane.record.stop", map[string]any{"pane_id": p}, &stopped); e != nil || stopped.Ended != "stopped" || stopped.Events == 0 {
		t.Fatalf("record.stop: %+v %+v", stopped, e)
	}
	f, err := os.Open(cast)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := replayCast(t, f); got != want {
		t.Errorf("the recording replays to\n%s\nthe pane shows\n%s", got, want)
	}

	out := filepath.Join(h.Dir, "history.cast")
	AgentCLI(t, s, "pane", "history", p, "--output", out)
	hf, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer hf.Close()
	if got := replayCast(t, hf); got != want {
		t.Errorf("the history replays to\n%s\nthe pane shows\n%s", got, want)
	}
}

// `herdr pane record <p> --output F.cast --duration 1` records what the
// pane prints for a second, then stops and prints the summary; the file
// replays to a screen showing that output. The pane prints a line every
// 0.1 s throughout, so whenever the recording starts it has output.
func TestWeb_PaneRecordCLI(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "reccli")
	p := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, p)
	cast := filepath.Join(h.Dir, "cli.cast")
	s.Run(t, p, `for i in $(seq 1 40); do printf '\033[1;32mtick\033[0m 日本語 %s\n' $i; sleep 0.1; done`)
	s.WaitLine(t, p, "tick 日本語 1")

	// Run without the schema check of s.CLI: pane_record_stopped is an
	// extension result the reference schema does not know (as rawCall).
	cmd := exec.Command(HerdrBin, "--session", s.Name, "pane", "record", p, "--output", cast, "--duration", "1")
	var out, errOut strings.Builder
	cmd.Env, cmd.Stdout, cmd.Stderr = s.Env, &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil || errOut.String() != "" {
		t.Fatalf("herdr pane record: %v, stdout %q, stderr %q", err, out.String(), errOut.String())
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("herdr pane record --duration 1 returned after %v", took)
	}
	stopped := OK[protocol.PaneRecordStopped](t, CLIResponse(t, out.String()), "pane_record_stopped")
	if stopped.Path != cast || stopped.Ended != "stopped" || stopped.Events == 0 || stopped.Bytes == 0 {
		t.Errorf("summary %+v, want path %s, ended stopped, events and bytes", stopped, cast)
	}
	f, err := os.Open(cast)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head, evs, err := protocol.ParseCast(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != stopped.Events || head.Width == 0 || head.Height == 0 {
		t.Errorf("the file has %d events and a %dx%d header; the summary says %d events", len(evs), head.Width, head.Height, stopped.Events)
	}
	if len(evs) == 0 {
		t.Fatal("the recording has no events")
	}
	if last := evs[len(evs)-1].Time; last < 0.5 || last > 1.5 {
		t.Errorf("the last event is at %.2f s of a 1 s recording", last)
	}
	_, _ = f.Seek(0, 0)
	screen, _ := castScreen(t, f)
	if !strings.Contains(screen, "tick 日本語") {
		t.Errorf("the recording replays to\n%s\nwithout the pane's output", screen)
	}
}

// replayCast feeds a cast through a fresh emulator and reads its screen;
// the cast must hold a resize.
func replayCast(t *testing.T, f *os.File) string {
	t.Helper()
	screen, resized := castScreen(t, f)
	if !resized {
		t.Error("the recording has no resize event")
	}
	return screen
}

// castScreen feeds a cast through a fresh emulator and reads its screen,
// saying whether the cast resized it.
func castScreen(t *testing.T, f *os.File) (string, bool) {
	t.Helper()
	head, evs, err := protocol.ParseCast(f)
	if err != nil {
		t.Fatal(err)
	}
	term := emulator.New(head.Width, head.Height, emulator.Options{})
	resized := false
	for _, ev := range evs {
		switch ev.Code {
		case "o":
			term.Write([]byte(ev.Data))
		case "r":
			c, r, ok := protocol.CastSize(ev.Data)
			if !ok {
				t.Fatalf("bad resize event %q", ev.Data)
			}
			term.Resize(c, r)
			resized = true
		}
	}
	return term.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text, resized
}
