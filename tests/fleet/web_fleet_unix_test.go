//go:build unix

package fleet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// echoingClaudeCLI is the fake claude that also prints back a line it
// does not know as a cue, so text typed on the page shows in the pane.
var echoingClaudeCLI = strings.Replace(FakeClaudeCLI, "    q) exit 0 ;;\n",
	"    q) exit 0 ;;\n    *) printf 'you said: %s\\n' \"$cue\" ;;\n", 1)

// hostileLabel is markup that runs script if a page draws it as HTML; the
// machine label check accepts it (it is printable and has no '/').
const hostileLabel = `<img src=x onerror="document.title='pwned'">`

// TestWebFleet_RemoteMachineOverSSH: a local server with three saved
// machines, all reaching one remote server over a real sshd: build
// online, one whose hostile label names a remote that is not herdr
// (attention), and one disabled. The dashboard lists them after Local
// with their states and details, the label as text; build's two agents
// grouped blocked first; an agent's pane opened by its qualified id,
// its text updating between reads and markup in it drawn as text; keys
// typed on the page and the prompt box reaching the remote pane; once
// sshd and its sessions are killed, the machine_state_changed event
// redraws build offline with its agents dimmed, and a dimmed agent does
// not open.
func TestWebFleet_RemoteMachineOverSSH(t *testing.T) {
	exe := Chromium(t)
	remote := NewHome(t)
	rs := remote.Start(t, "e2e")
	blocked := AgentWorkspace(t, rs)
	working := AgentWorkspace(t, rs)
	if err := os.WriteFile(filepath.Join(rs.Home.Dir, "bin", "claude"), []byte(echoingClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	for cue, pane := range map[string]string{"b": blocked, "w": working} {
		rs.Run(t, pane, "claude")
		rs.WaitLine(t, pane, "claude ready")
		OK[protocol.OK](t, rs.Call("pane.send_input", map[string]any{"pane_id": pane, "text": cue, "keys": []string{"Enter"}}), "ok")
	}
	rs.WaitLine(t, blocked, "Do you want to proceed?")
	rs.WaitLine(t, working, "* Thinking… (esc to interrupt)")

	r := StartSSHRemote(t, remote)
	local := NewHome(t)
	local.Env = r.LocalEnv(local) // the local server reaches build through the test's ssh config
	// The hostile machine names the remote by another host name: OpenSSH
	// shares one connection per host, port and user, and a session that is
	// not herdr must not hold build's shared connection.
	for _, m := range [][2]string{{"build", "build"}, {hostileLabel, strings.Replace(r.URL, "127.0.0.1", "localhost", 1)}, {"spare", "build"}} {
		label, target := m[0], m[1]
		if _, errOut, code := RunCLI(t, local.Env, "machine", "add", target, "--label", label, "--remote-session", "e2e"); code != 0 {
			t.Fatalf("machine add --label %q: exit %d: %s", label, code, errOut)
		}
	}
	if _, errOut, code := RunCLI(t, local.Env, "machine", "disable", "spare"); code != 0 {
		t.Fatalf("machine disable: exit %d: %s", code, errOut)
	}
	notHerdr(t, local, hostileLabel)
	ids := map[string]string{}
	for _, m := range ListMachines(t, local.Env) {
		ids[m.Label] = m.ID
	}
	local.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	ls := local.Start(t, "web")
	url := strings.TrimSpace(AgentCLI(t, ls, "web", "url"))

	ctx := Browser(t, exe)
	machine := `li.machine[data-machine="` + ids["build"] + `"]`
	evil := `li.machine[data-machine="` + ids[hostileLabel] + `"]`
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(machine+`[data-state="online"]`)),
		chromedp.WaitVisible(chromedp.CSS(evil+`[data-state="attention"]`))); err != nil {
		t.Fatalf("the Machines view never showed build online and the hostile one in attention: %v", err)
	}
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.machine")].map((l) => l.dataset.machine + "=" + l.dataset.state)`))
	want := "local=online " + ids["build"] + "=online " + ids[hostileLabel] + "=attention " + ids["spare"] + "=disabled"
	if err != nil || strings.Join(order, " ") != want {
		t.Fatalf("machines drawn %q (%v), want %q\nmachine.list: %s\nlocal server:\n%s", order, err, want, ls.CallT(t, "machine.list", map[string]any{}).Result, ls.Output())
	}
	var info protocol.MachineInfo
	for _, m := range OK[protocol.MachineList](t, ls.CallT(t, "machine.list", map[string]any{}), "machine_list").Machines {
		if m.Label == "build" {
			info = m
		}
	}
	if info.RemoteVersion == "" {
		t.Fatalf("machine.list has no remote version for build: %+v", info)
	}
	WaitFor(t, "build's details line", func() bool {
		d := PageText(t, ctx, machine+` .detail`)
		return strings.Contains(d, "last contact ") && strings.Contains(d, " s ago") &&
			strings.Contains(d, "v"+info.RemoteVersion+" · p22") && strings.Contains(d, "2 agents")
	})
	if d := PageText(t, ctx, evil); !strings.Contains(d, hostileLabel) || !strings.Contains(d, "without answering as herdr") {
		t.Errorf("the hostile machine's row %q: want its label as text and why it needs a person", d)
	}
	if d := PageText(t, ctx, `li.machine[data-machine="`+ids["spare"]+`"] .detail`); !strings.Contains(d, "last contact never") {
		t.Errorf("the disabled machine's details %q: want last contact never", d)
	}
	noMarkup := func(where string) {
		t.Helper()
		if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#fleet img, #term img, #term b").length`)); n != 0 {
			t.Errorf("%s: %d elements made of a remote's text", where, n)
		}
		if title, _ := chromedp.Run(ctx, chromedp.Title()); title == "pwned" {
			t.Fatalf("%s: a remote's text ran script", where)
		}
	}
	noMarkup("the machines")

	// build's agents by status, blocked first, each under its qualified id.
	var groups []string
	WaitFor(t, "build's two agents grouped by status", func() bool {
		groups, _ = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#bystate li.agent")].map((l) => l.dataset.status + ":" + l.dataset.machine + ":" + l.dataset.pane)`))
		return strings.Join(groups, " ") == "blocked:build:build/"+blocked+" working:build:build/"+working
	})
	pane := "build/" + working
	paneRow := `#bystate li.agent[data-pane="` + pane + `"]`
	if !strings.Contains(PageText(t, ctx, paneRow), "build") {
		t.Fatalf("the working agent's row %q: want the label build", PageText(t, ctx, paneRow))
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

	// Open it: its screen's text shows; keys typed on the page reach the
	// remote pane, which prints them back, markup and all, as text.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(paneRow))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the remote pane's text in the page", func() bool {
		return strings.Contains(PageText(t, ctx, "#term"), "Thinking")
	})
	typed := hostileLabel + "<b>typed</b>"
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#screen`)), chromedp.KeyEvent(typed), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	rs.WaitLine(t, working, "you said: "+typed)
	WaitFor(t, "the remote pane's next read in the page", func() bool {
		return strings.Contains(PageText(t, ctx, "#term"), "you said: "+typed)
	})
	noMarkup("the remote pane")

	// The prompt box's answer reaches the remote pane, and its next state
	// comes back to the page.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#prompttext`), "b"),
		chromedp.Click(chromedp.CSS(`#prompt button[type="submit"]`))); err != nil {
		t.Fatal(err)
	}
	rs.WaitLine(t, working, "Do you want to proceed?")
	sawEvent("the remote status change pushed to the page", "pane_agent_status_changed", `"pane_id":"`+pane+`"`, "blocked")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(paneRow+`[data-status="blocked"]`))); err != nil {
		t.Fatalf("the remote agent never shown blocked after the page's input: %v", err)
	}
	WaitFor(t, "the remote pane's new screen in the page", func() bool {
		return strings.Contains(PageText(t, ctx, "#term"), "Do you want to proceed?")
	})

	// From here only an event can redraw the page: its timers (the fleet's
	// poll among them) are stopped.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`{ const last = setTimeout(() => {}, 0);
		for (let i = 1; i <= last; i++) clearTimeout(i); true }`)); err != nil {
		t.Fatal(err)
	}
	// sshd and every session it runs go: build is offline, its agents dimmed.
	r.Kill(t)
	sawEvent("the machine's state change pushed to the page", "machine_state_changed", ids["build"], `"state":"offline"`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(machine+`[data-state="offline"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#bystate li.agent.stale[data-pane="build/`+blocked+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#bystate li.agent.stale[data-pane="`+pane+`"]`))); err != nil {
		t.Fatalf("build never shown offline with its agents dimmed: %v", err)
	}
	// A dimmed agent is only shown: clicking it opens nothing.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#bystate li.agent.stale[data-pane="build/`+blocked+`"]`))); err != nil {
		t.Fatal(err)
	}
	if open, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(state.open)`)); open != pane {
		t.Errorf("clicking an offline machine's agent left %s open, want %s still", open, pane)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	KeepShot(t, "web-fleet-ssh.png", png)
}

// notHerdr edits the saved machine labelled label to run /bin/cat on the
// far side, as a profile edited by hand: the link needs a person.
func notHerdr(t *testing.T, h *Home, label string) {
	t.Helper()
	b, err := os.ReadFile(MachinesFile(h))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("machines.json: %v", err)
	}
	machines, _ := doc["machines"].([]any)
	edited := false
	for _, m := range machines {
		if p, _ := m.(map[string]any); p != nil && p["label"] == label {
			p["remote_bin"], edited = "/bin/cat", true
		}
	}
	if !edited {
		t.Fatalf("machines.json has no machine labelled %q:\n%s", label, b)
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	SshTestFile(t, MachinesFile(h), string(out), 0o600)
}
