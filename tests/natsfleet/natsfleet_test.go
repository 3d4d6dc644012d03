package natsfleet

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// member starts a herdr server in a home of its own whose [fleet] is extra.
func member(t *testing.T, name, fleet string) *Server {
	t.Helper()
	h := NewHome(t)
	h.WriteConfig(t, "[fleet]\nname = \""+name+"\"\n"+fleet)
	return h.Start(t, "e2e")
}

// hub starts alpha, the member running the embedded hub, and returns it
// with the URL the others join; extra follows its [fleet] keys.
func hub(t *testing.T, extra ...string) (*Server, string) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	s := member(t, "alpha", "hub = true\nuser = \"herdr\"\npassword = \"s3cret\"\nlabels = [\"gpu\"]\nlisten = \""+addr+"\"\n"+strings.Join(extra, "\n"))
	return s, "nats://" + addr
}

func join(t *testing.T, name, url, password string, extra ...string) *Server {
	t.Helper()
	return member(t, name, fmt.Sprintf("url = [%q]\nuser = \"herdr\"\npassword = %q\n", url, password)+strings.Join(extra, "\n"))
}

func status(t *testing.T, s *Server) protocol.FleetStatus {
	t.Helper()
	return OK[protocol.FleetStatus](t, s.CallT(t, "fleet.status", map[string]any{}), "fleet_status")
}

func memberNames(st protocol.FleetStatus) []string {
	var out []string
	for _, m := range st.Members {
		out = append(out, m.Name)
	}
	return out
}

// waitMembers waits until s lists exactly want, online.
func waitMembers(t *testing.T, s *Server, want ...string) protocol.FleetStatus {
	t.Helper()
	var st protocol.FleetStatus
	if !Eventually(func() bool {
		st = status(t, s)
		for _, m := range st.Members {
			if m.State != protocol.FleetMemberOnline {
				return false
			}
		}
		return slices.Equal(memberNames(st), want)
	}) {
		t.Fatalf("fleet.status never listed %v online; last %+v", want, st)
	}
	return st
}

// Three servers, one the hub: each lists all three with their versions
// and labels, and says how it reaches the hub; herdr fleet status prints
// the same as JSON and as a table.
func TestNATSFleet_ThreeMembersSeeEachOther(t *testing.T) {
	a, url := hub(t)
	b := join(t, "beta", url, "s3cret")
	c := join(t, "gamma", url, "s3cret")
	for _, s := range []*Server{a, b, c} {
		st := waitMembers(t, s, "alpha", "beta", "gamma")
		if st.Hub.State != protocol.FleetHubConnected {
			t.Fatalf("hub %+v", st.Hub)
		}
		for _, m := range st.Members {
			if m.Version != protocol.Version || m.LastContactMS == 0 || m.StartedMS == 0 {
				t.Fatalf("member %+v", m)
			}
			if m.Name == "alpha" && !slices.Equal(m.Labels, []string{"gpu"}) {
				t.Fatalf("alpha's labels %v", m.Labels)
			}
		}
	}
	if st := status(t, a); !st.Hub.Embedded || st.Hub.Listen == "" {
		t.Fatalf("alpha runs the hub: %+v", st.Hub)
	}
	out, errOut, code := b.CLIT(t, "fleet", "status", "--json")
	if code != 0 {
		t.Fatalf("herdr fleet status --json: exit %d: %s", code, errOut)
	}
	got := OK[protocol.FleetStatus](t, CLIResponse(t, out), "fleet_status")
	if !slices.Equal(memberNames(got), []string{"alpha", "beta", "gamma"}) {
		t.Fatalf("herdr fleet status --json: %s", out)
	}
}

// A call from member beta for alpha's qualified ids is answered by
// alpha's server, its ids qualified; text sent through it reaches alpha's
// pane and is read back through it; an unknown member and a bad pane id
// on the member are refused with the machines' errors. Beta joins with a
// user of its own the hub names ([[fleet.member]]), and is read-only to
// the others ([fleet] allow = "read"): alpha lists its panes but its
// pane.send_text is refused naming the setting.
func TestNATSFleet_QualifiedCalls(t *testing.T) {
	a, url := hub(t, "[[fleet.member]]\nname = \"beta\"\nuser = \"beta\"\npassword = \"b-pw\"\n")
	b := member(t, "beta", fmt.Sprintf("url = [%q]\nuser = \"beta\"\npassword = \"b-pw\"\nallow = \"read\"\n", url))
	waitMembers(t, b, "alpha", "beta")
	pane := FirstPane(t, a)
	a.WaitPrompt(t, pane)
	q := "alpha/" + pane

	info := OK[protocol.PaneInfoResult](t, b.CallT(t, "pane.get", map[string]any{"pane_id": q}), "pane_info")
	if info.Pane.PaneID != q {
		t.Fatalf("pane.get through the fleet: pane_id %q, want %q", info.Pane.PaneID, q)
	}
	list := OK[protocol.PaneList](t, b.CallT(t, "pane.list", map[string]any{"workspace_id": info.Pane.WorkspaceID}), "pane_list")
	if len(list.Panes) != 1 || list.Panes[0].PaneID != q {
		t.Fatalf("pane.list through the fleet: %+v", list.Panes)
	}
	OK[protocol.OK](t, b.CallT(t, "pane.send_text", map[string]any{"pane_id": q, "text": "echo fleet-$((40+2))\n"}), "ok")
	a.WaitLine(t, pane, "fleet-42")
	if !Eventually(func() bool {
		return HasLine(OK[protocol.PaneRead](t, b.CallT(t, "pane.read", map[string]any{"pane_id": q, "source": "recent", "lines": 50}), "pane_read").Read.Text, "fleet-42")
	}) {
		t.Fatal("pane.read through the fleet never showed what was typed")
	}

	msg := Fail(t, b.CallT(t, "pane.get", map[string]any{"pane_id": "nobody/w1:p1"}), protocol.CodeMachineNotFound)
	if !strings.Contains(msg, "nobody") {
		t.Fatalf("unknown member: %s", msg)
	}
	Fail(t, b.CallT(t, "pane.get", map[string]any{"pane_id": "alpha/w99:p99"}), protocol.CodePaneNotFound)

	st := waitMembers(t, a, "alpha", "beta")
	if !slices.Equal(st.Members[1].Allow, []string{"read"}) || st.Members[0].Allow != nil {
		t.Fatalf("fleet.status does not say beta is read-only (and alpha is not): %+v", st.Members)
	}
	bp := FirstPane(t, b)
	bq := "beta/" + bp
	bw := OK[protocol.PaneInfoResult](t, b.CallT(t, "pane.get", map[string]any{"pane_id": bp}), "pane_info").Pane.WorkspaceID
	bl := OK[protocol.PaneList](t, a.CallT(t, "pane.list", map[string]any{"workspace_id": "beta/" + bw}), "pane_list")
	if len(bl.Panes) != 1 || bl.Panes[0].PaneID != bq {
		t.Fatalf("read-only beta's panes were not listed to alpha: %+v", bl.Panes)
	}
	msg = Fail(t, a.CallT(t, "pane.send_text", map[string]any{"pane_id": bq, "text": "echo no\n"}), protocol.CodeNotAllowed)
	if !strings.Contains(msg, `[fleet] allow = "read"`) || !strings.Contains(msg, "pane.send_text") {
		t.Fatalf("the refusal does not say why: %s", msg)
	}
}

// A member with the wrong password is refused: its fleet.status says why
// and the hub is not connected, its log says so at warn, and the others
// never list it.
func TestNATSFleet_WrongCredentialsRefused(t *testing.T) {
	a, url := hub(t)
	waitMembers(t, a, "alpha")
	d := join(t, "delta", url, "wrong")
	var st protocol.FleetStatus
	if !Eventually(func() bool { st = status(t, d); return st.Hub.Error != "" }) {
		t.Fatalf("a refused member never said why: %+v", st.Hub)
	}
	if st.Hub.State == protocol.FleetHubConnected || !strings.Contains(strings.ToLower(st.Hub.Error), "authorization") {
		t.Fatalf("hub %+v", st.Hub)
	}
	if !Eventually(func() bool {
		log := d.Home.ServerLog(d.Name)
		return strings.Contains(log, "fleet") && strings.Contains(strings.ToLower(log), "authorization")
	}) {
		t.Fatalf("the log does not say why:\n%s", d.Home.ServerLog(d.Name))
	}
	Fail(t, d.CallT(t, "pane.get", map[string]any{"pane_id": "alpha/w1:p1"}), protocol.CodeMachineOffline)
	if names := memberNames(status(t, a)); slices.Contains(names, "delta") {
		t.Fatalf("the hub lists a refused member: %v", names)
	}
}

// The light front links no NATS server (nor client): only herdr-full does.
func TestNATSFleet_FrontLinksNoNATS(t *testing.T) {
	deps := func(pkg string) []string {
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Dir = ModuleRoot
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(out))
	}
	for _, d := range deps("./cmd/herdr") {
		if strings.Contains(d, "nats-io") {
			t.Errorf("cmd/herdr links %s", d)
		}
	}
	if !slices.Contains(deps("./cmd/herdr-full"), "github.com/nats-io/nats-server/v2/server") {
		t.Error("cmd/herdr-full does not link the embedded NATS server")
	}
}

// A member killed (kill -9, no goodbye) is still listed until its entry's
// TTL runs out, but a call for its ids is machine_offline at once: no
// server answers its subject any more.
func TestNATSFleet_KilledMemberIsOffline(t *testing.T) {
	a, url := hub(t)
	c := join(t, "gamma", url, "s3cret")
	waitMembers(t, a, "alpha", "gamma")
	c.Kill(t)
	msg := Fail(t, a.CallT(t, "pane.get", map[string]any{"pane_id": "gamma/w1:p1"}), protocol.CodeMachineOffline)
	if !strings.Contains(msg, "gamma") {
		t.Fatalf("gone member: %s", msg)
	}
}
