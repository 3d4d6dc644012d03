//go:build unix

package tests

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
)

// TestWebFleet_RemoteMachineOverSSH: a local server with one saved machine
// reached over a real sshd; the dashboard shows the machine online, the
// remote agent under its status with the machine's label, its pane's text,
// and input typed on the page reaching it; once sshd and its sessions are
// killed the machine shows offline and its agent dimmed.
func TestWebFleet_RemoteMachineOverSSH(t *testing.T) {
	exe := chromium(t)
	remote := NewHome(t)
	rs := remote.Start(t, "e2e")
	agent := agentWorkspace(t, rs)
	rs.WaitPrompt(t, agent)
	rs.Run(t, agent, "claude")
	rs.WaitLine(t, agent, "claude ready")
	OK[protocol.OK](t, rs.Call("pane.send_input", map[string]any{"pane_id": agent, "text": "w", "keys": []string{"Enter"}}), "ok")
	rs.WaitLine(t, agent, "* Thinking… (esc to interrupt)")

	r := startSSHRemote(t, remote)
	local := NewHome(t)
	local.Env = r.localEnv(local) // the local server reaches build through the test's ssh config
	if _, errOut, code := RunCLI(t, local.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	id := listMachines(t, local.Env)[0].ID
	local.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	ls := local.Start(t, "web")
	url := strings.TrimSpace(agentCLI(t, ls, "web", "url"))

	ctx := browser(t, exe)
	machine := `li.machine[data-machine="` + id + `"]`
	row := `#bystate li.agent[data-machine="build"]`
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(machine+`[data-state="online"]`))); err != nil {
		t.Fatalf("the Machines view never showed build online: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(row+`[data-status="working"]`))); err != nil {
		t.Fatalf("the remote agent never shown working with its machine label: %v", err)
	}
	pane, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+jsString(row)+`).dataset.pane`))
	if err != nil || !strings.HasSuffix(pane, "/"+agent) || !strings.Contains(pageText(t, ctx, row), "build") {
		t.Fatalf("remote agent row pane %q (%v), text %q: want a qualified id for %s and the label build", pane, err, pageText(t, ctx, row), agent)
	}

	// The page's event stream is the fleet's: keep what arrives.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.seen = []; const shown = onLine;
		onLine = (m) => { if (m.event) seen.push(m.event + " " + JSON.stringify(m.data)); shown(m); }; true`)); err != nil {
		t.Fatal(err)
	}
	sawEvent := func(why string, want ...string) {
		t.Helper()
		WaitFor(t, why, func() bool {
			seen, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`seen`))
			for _, line := range seen {
				all := true
				for _, w := range want {
					all = all && strings.Contains(line, w)
				}
				if all {
					return true
				}
			}
			return false
		})
	}

	// Open it: its screen's text shows; the prompt box's answer reaches
	// the remote pane, and its next state comes back to the page.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(row))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the remote pane's text in the page", func() bool {
		return strings.Contains(pageText(t, ctx, "#term"), "Thinking")
	})
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#prompttext`), "b"),
		chromedp.Click(chromedp.CSS(`#prompt button[type="submit"]`))); err != nil {
		t.Fatal(err)
	}
	rs.WaitLine(t, agent, "Do you want to proceed?")
	sawEvent("the remote status change pushed to the page", "pane_agent_status_changed", `"pane_id":"`+pane+`"`, "blocked")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(row+`[data-status="blocked"]`))); err != nil {
		t.Fatalf("the remote agent never shown blocked after the page's input: %v", err)
	}
	WaitFor(t, "the remote pane's new screen in the page", func() bool {
		return strings.Contains(pageText(t, ctx, "#term"), "Do you want to proceed?")
	})

	// sshd and every session it runs go: build is offline, its agent dimmed.
	r.Kill(t)
	sawEvent("the machine's state change pushed to the page", "machine_state_changed", `"state":"offline"`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(machine+`[data-state="offline"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#bystate li.agent.stale[data-machine="build"]`))); err != nil {
		t.Fatalf("build never shown offline with its agent dimmed: %v", err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	keepShot(t, "web-fleet-ssh.png", png)
}
