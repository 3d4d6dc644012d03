package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/protocol"
)

// fleetServer answers machine.list and session.snapshot with fixed
// results (or an error code for machine.list) and everything else ok,
// recording the requests.
type fleetServer struct {
	mu       sync.Mutex
	reqs     []protocol.Request
	list     string // machine.list's result, or "" with listCode
	listCode string
	snapshot string // session.snapshot's result
	frame    string // pushed after screen.subscribe is answered
	conns    []net.Conn
}

// drop closes every connection served: the link to the machine is lost.
func (f *fleetServer) drop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
	f.conns = nil
}

func (f *fleetServer) serve(c net.Conn) {
	f.mu.Lock()
	f.conns = append(f.conns, c)
	f.mu.Unlock()
	out := make(chan string, 256)
	defer close(out)
	go func() {
		for s := range out {
			if _, err := c.Write([]byte(s)); err != nil {
				return
			}
		}
	}()
	br := bufio.NewReader(c)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		var req protocol.Request
		if json.Unmarshal(line, &req) != nil {
			continue
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, req)
		result := `{"type":"ok"}`
		switch req.Method {
		case "machine.list":
			result = f.list
			if f.listCode != "" {
				out <- `{"id":"` + req.ID + `","error":{"code":"` + f.listCode + `","message":"unknown method machine.list"}}` + "\n"
				f.mu.Unlock()
				continue
			}
		case "session.snapshot":
			result = f.snapshot
		}
		f.mu.Unlock()
		var flat bytes.Buffer // one line on the wire
		if err := json.Compact(&flat, []byte(result)); err != nil {
			panic(err)
		}
		out <- `{"id":"` + req.ID + `","result":` + flat.String() + "}\n"
		if req.Method == "screen.subscribe" && f.frame != "" {
			out <- f.frame + "\n"
		}
	}
}

func (f *fleetServer) requests(method string) []protocol.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []protocol.Request
	for _, r := range f.reqs {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// twoMachines: build is online with workspace build/w1 running claude,
// gpu is offline with its last known workspace gpu/w1.
const twoMachinesList = `{"type":"machine_list","machines":[
 {"id":"m-00000001","label":"build","target":"u@h","enabled":true,"state":"online","workspaces":1,"agents":1},
 {"id":"m-00000002","label":"gpu","target":"u@g","enabled":true,"state":"offline","error":"ssh: connection refused","workspaces":1,"agents":0},
 {"id":"m-00000003","label":"old","target":"u@o","enabled":false,"state":"disabled"}]}`

const twoMachinesSnapshot = `{"type":"session_snapshot","snapshot":{"workspaces":[],"tabs":[],"panes":[],"layouts":[],"agents":[]},
 "machines":[
  {"machine":{"id":"m-00000001","label":"build"},"state":"online","stale":false,"snapshot":{
    "workspaces":[{"workspace_id":"build/w1","number":1,"label":"api","focused":true,"tab_count":1,"agent_status":"working","active_tab_id":"build/w1:t1"}],
    "layouts":[{"workspace_id":"build/w1","tab_id":"build/w1:t1","focused_pane_id":"build/w1:p1","area":{"x":0,"y":0,"width":60,"height":20}}],
    "agents":[{"terminal_id":"t1","agent":"claude","agent_status":"working","workspace_id":"build/w1","tab_id":"build/w1:t1","pane_id":"build/w1:p1","focused":true,"interactive_ready":true,"state_change_seq":1,"revision":1}]}},
  {"machine":{"id":"m-00000002","label":"gpu"},"state":"offline","stale":true,"snapshot":{
    "workspaces":[{"workspace_id":"gpu/w1","number":1,"label":"train","focused":true,"tab_count":1,"agent_status":"idle","active_tab_id":"gpu/w1:t1"}],
    "layouts":[{"workspace_id":"gpu/w1","tab_id":"gpu/w1:t1","focused_pane_id":"gpu/w1:p1","area":{"x":0,"y":0,"width":60,"height":20}}]}}]}`

// fleetModel is the two-pane view model, tall enough for the machines'
// sections, with the fleet read once from f.
func fleetModel(t *testing.T, f *fleetServer) *model {
	t.Helper()
	m, _ := viewModel(t)
	m.height, m.side.split = 40, 0.8
	a, b := net.Pipe()
	go f.serve(b)
	t.Cleanup(func() { a.Close(); b.Close() })
	conn := newRPCConn(a, nil)
	m.link = &link{req: conn, scr: conn, send: func(tea.Msg) {}}
	if cmd := m.fleet.apply(m.fleet.fetch()().(fleetMsg)); cmd == nil {
		t.Fatal("no next fleet read scheduled")
	}
	return m
}

// sideRow is the sidebar row whose text contains s, and its text.
func sideRow(t *testing.T, m *model, s string) (int, string) {
	t.Helper()
	lines := strings.Split(ansi.Strip(render(m)), "\n")
	sb := m.geometry().sidebarW
	for y, l := range lines {
		r := []rune(l)
		side := string(r[:min(len(r), sb)])
		if strings.Contains(side, s) {
			return y, side
		}
	}
	t.Fatalf("no sidebar row shows %q:\n%s", s, strings.Join(lines, "\n"))
	return -1, ""
}

func TestFleet_SidebarShowsEachMachineItsWorkspacesAndAgents(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)

	snaps := f.requests("session.snapshot")
	if len(snaps) != 1 || !strings.Contains(string(snaps[0].Params), `"machines":"all"`) {
		t.Fatalf("fleet snapshot requests = %+v", snaps)
	}
	hb, _ := sideRow(t, m, "▾ build · online")
	wb, _ := sideRow(t, m, "1 api")
	_, agent := sideRow(t, m, "build · claude")
	hg, _ := sideRow(t, m, "▾ gpu · offline")
	wg, _ := sideRow(t, m, "1 train")
	if !(hb < wb && wb < hg && hg < wg) {
		t.Fatalf("rows out of order: build %d, api %d, gpu %d, train %d", hb, wb, hg, wg)
	}
	if !strings.Contains(agent, "●") {
		t.Fatalf("agent row %q lacks its state icon", agent)
	}
	if strings.Contains(render(m), "old") {
		t.Fatal("a disabled machine has a section")
	}

	// The offline machine's rows are drawn in the theme's dim colour, the
	// online one's are not.
	c := m.canvas(nil)
	sb := m.geometry().sidebarW
	dimRow := func(y int) bool {
		drawn := false
		for x := 1; x < sb-1; x++ {
			cl := c.cells[y*c.w+x]
			if strings.TrimSpace(cl.s) == "" {
				continue
			}
			drawn = true
			if cl.st.fg != m.theme.dim.fg {
				return false
			}
		}
		return drawn
	}
	if !dimRow(hg) || !dimRow(wg) {
		t.Fatal("the offline machine's rows are not dimmed")
	}
	if dimRow(wb) {
		t.Fatal("the online machine's workspace is dimmed")
	}
}

func TestFleet_OfflineMachineKeepsItsLastKnownWorkspaces(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	// The next read has gpu never answering: no snapshot for it at all.
	f.mu.Lock()
	f.snapshot = `{"type":"session_snapshot","snapshot":{},"machines":[{"machine":{"id":"m-00000002","label":"gpu"},"state":"offline","stale":true}]}`
	f.mu.Unlock()
	m.fleet.apply(m.fleet.fetch()().(fleetMsg))
	sideRow(t, m, "1 train")
	sideRow(t, m, "1 api")
}

func TestFleet_OfflineWorkspaceRefusesInput(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	y, _ := sideRow(t, m, "1 train")
	m.update(mouseMsg{X: 4, Y: y, Action: mousePress, Button: tea.MouseLeft})
	if m.fleet.selected != "gpu/w1" {
		t.Fatalf("selected = %q after a click on gpu's workspace", m.fleet.selected)
	}
	m.update(keyRunes("x"))
	m.input.flush()
	if len(m.input.pending) != 0 || len(f.requests("pane.send_text")) != 0 {
		t.Fatalf("input went somewhere: queued %v, sent %v", m.input.pending, f.requests("pane.send_text"))
	}
	if !strings.Contains(m.toast.text, "gpu is offline") || !strings.Contains(ansi.Strip(render(m)), "gpu is offline: input not sent") {
		t.Fatalf("toast = %q, not shown:\n%s", m.toast.text, ansi.Strip(render(m)))
	}
	if !strings.Contains(ansi.Strip(render(m)), "ssh: connection refused") {
		t.Fatal("the pane area does not say why the machine is offline")
	}
}

func TestFleet_NavigationMovesThroughMachineWorkspaces(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	// w1 of w1, w2 is focused; the ring is w1 w2 build/w1 gpu/w1.
	m.nav.stepWorkspace(2)
	if m.fleet.selected != "build/w1" {
		t.Fatalf("two down from w1: selected %q", m.fleet.selected)
	}
	m.nav.stepWorkspace(1)
	if m.fleet.selected != "gpu/w1" {
		t.Fatalf("three down from w1: selected %q", m.fleet.selected)
	}
	m.nav.stepWorkspace(1) // wraps to the local session
	if m.fleet.selected != "" {
		t.Fatalf("selected = %q after wrapping", m.fleet.selected)
	}
	waitFor(t, "workspace.focus w1", func() bool {
		for _, r := range f.requests("workspace.focus") {
			if strings.Contains(string(r.Params), `"w1"`) {
				return true
			}
		}
		return false
	})
}

// With the machines' events on the subscription the fleet is read when
// one arrives, not on a timer; events during a read make one more read.
func TestFleet_EventsDriveTheReads(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	m.link.fleetEvents.Store(true)
	reads := len(f.requests("machine.list"))
	first := m.fleet.fetch()
	if first == nil || !m.fleet.fetching {
		t.Fatal("no read started")
	}
	for i := range 3 { // a burst while the read is in flight
		_, cmd := m.Update(fleetChangedMsg{})
		// The first arms the read after the burst settles; none starts a
		// second read while one is in flight.
		if (cmd != nil) != (i == 0) || !m.fleet.settling || !m.fleet.stale {
			t.Fatalf("event %d of the burst: cmd %v, settling %v, stale %v", i, cmd != nil, m.fleet.settling, m.fleet.stale)
		}
	}
	again := m.fleet.apply(first().(fleetMsg))
	if again == nil {
		t.Fatal("the events during the read were dropped")
	}
	// With machines saved the fleet is read every fleetEvery: one timer,
	// not one more per read.
	last := again().(fleetMsg)
	m.fleet.tick = false // the timer the model's first read armed has fired
	if cmd := m.fleet.apply(last); cmd == nil || !m.fleet.tick {
		t.Fatal("no periodic read while machines are saved")
	}
	if cmd := m.fleet.apply(last); cmd != nil {
		t.Fatal("a second periodic timer")
	}
	if n := len(f.requests("machine.list")) - reads; n != 2 {
		t.Fatalf("%d reads for one event burst, want 2", n)
	}
	if _, cmd := m.Update(fleetSettled{}); cmd == nil || m.fleet.settling {
		t.Fatal("no read once the burst settled")
	}
	if !isFleetEvent([]byte(`{"event":"machine_state_changed","data":{"type":"machine_state_changed","machine":{"id":"m-1","label":"b"},"state":"online"}}`)) ||
		isFleetEvent([]byte(`{"event":"pane_created","data":{"type":"pane_created","pane":{"pane_id":"w1:p2","label":"\"machine\":{"}}}`)) {
		t.Fatal("fleet events told apart wrongly")
	}
}

func TestFleet_UnknownMethodShowsNoSectionsAndNoError(t *testing.T) {
	for _, code := range []string{protocol.CodeUnknownMethod, protocol.CodeNotImplemented} {
		f := &fleetServer{listCode: code}
		m, _ := viewModel(t)
		m.height = 40
		a, b := net.Pipe()
		go f.serve(b)
		t.Cleanup(func() { a.Close(); b.Close() })
		m.link = &link{req: newRPCConn(a, nil)}
		msg := m.fleet.fetch()().(fleetMsg)
		if cmd := m.fleet.apply(msg); cmd != nil {
			t.Fatalf("%s: the fleet is read again", code)
		}
		if !m.fleet.unsupported || m.toast.text != "" {
			t.Fatalf("%s: unsupported %v, toast %q", code, m.fleet.unsupported, m.toast.text)
		}
		for _, it := range m.side.sidebarItems() {
			if strings.HasPrefix(it.kind, "machine") || strings.HasPrefix(it.kind, "remote") {
				t.Fatalf("%s: a machine row %+v", code, it)
			}
		}
		if len(f.requests("session.snapshot")) != 0 {
			t.Fatalf("%s: the fleet snapshot was asked", code)
		}
	}
}

func TestFleet_RemoteStringsReachTheTerminalPrintable(t *testing.T) {
	evil := strings.ReplaceAll(twoMachinesSnapshot, `"label":"api"`, `"label":"a\u001b]52;c;aGk=\u0007pi"`)
	evil = strings.ReplaceAll(evil, `"agent":"claude"`, `"agent":"cl\u001b[2Jaude"`)
	list := strings.ReplaceAll(twoMachinesList, `"error":"ssh: connection refused"`, `"error":"refused\u001b]0;pwned\u0007"`)
	f := &fleetServer{list: list, snapshot: evil}
	m := fleetModel(t, f)
	m.fleet.selected = "gpu/w1" // the pane area shows the error
	if v := render(m); strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\a") {
		t.Fatalf("a remote string reached the terminal raw: %q", v)
	}
	sideRow(t, m, "a\ufffd]52;c;aGk=\ufffdpi")
}

func TestFleet_MachineHeaderFoldsItsSection(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	y, _ := sideRow(t, m, "▾ build · online")
	click := mouseMsg{X: 2, Y: y, Action: mousePress, Button: tea.MouseLeft}
	m.update(click)
	sideRow(t, m, "▸ build · online")
	if strings.Contains(ansi.Strip(render(m)), "1 api") {
		t.Fatal("a folded machine still lists its workspaces")
	}
	if ids := m.fleet.workspaceIDs(); len(ids) != 1 || ids[0] != "gpu/w1" {
		t.Fatalf("navigation goes through %v", ids)
	}
	m.update(click)
	sideRow(t, m, "1 api")
}

func TestFleet_ChosenRemoteWorkspaceIsScrolledIntoView(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	m.height, m.side.split = 21, 0.5
	for i := 3; i <= 9; i++ { // more local workspaces than the spaces' body holds
		id := "w" + strconv.Itoa(i)
		m.snap.Workspaces = append(m.snap.Workspaces, protocol.WorkspaceInfo{WorkspaceID: id, Number: i, Label: "local" + id, TabCount: 1})
	}
	if strings.Contains(ansi.Strip(render(m)), "1 train") {
		t.Fatal("gpu's workspace is in view before it is chosen: the test shows nothing")
	}
	m.nav.stepWorkspace(-1) // from w1 back round to gpu's workspace, the last
	if m.fleet.selected != "gpu/w1" {
		t.Fatalf("selected %q", m.fleet.selected)
	}
	sideRow(t, m, "1 train")
}

func TestFleet_RailListsMachineWorkspacesAndTakesClicks(t *testing.T) {
	f := &fleetServer{list: twoMachinesList, snapshot: twoMachinesSnapshot}
	m := fleetModel(t, f)
	m.sidebar, m.ui.SidebarCollapsedMode = false, "compact"
	var ys []int
	for _, it := range m.side.railItems() {
		if it.kind == "remote-workspace" {
			ys = append(ys, it.y)
		}
	}
	if len(ys) != 2 || ys[0] != 2 || ys[1] != 3 {
		t.Fatalf("machine workspaces in the rail at rows %v, want [2 3] after w1 and w2", ys)
	}
	c := m.canvas(nil)
	if cl := c.cells[3*c.w+1]; cl.st.fg != m.theme.dim.fg {
		t.Fatalf("gpu's icon %+v is not dimmed", cl)
	}
	m.update(mouseMsg{X: 1, Y: 2, Action: mousePress, Button: tea.MouseLeft})
	if m.fleet.selected != "build/w1" {
		t.Fatalf("a click on build's icon selected %q", m.fleet.selected)
	}
}

// fakeFleetHost is the client as the fleet sees it: machine.list and the
// fleet snapshot answered from fields (or machine.list refused), and
// whether the event subscription carries the fleet's events.
type fakeFleetHost struct {
	list    []protocol.MachineInfo
	snaps   map[string]*protocol.SessionSnapshot
	refuse  bool
	evented bool
}

func (h *fakeFleetHost) fleetEvented() bool { return h.evented }
func (h *fakeFleetHost) rpc() rpcFunc {
	return func(method string, _, out any) error {
		switch method {
		case "machine.list":
			if h.refuse {
				return &protocol.Error{Code: protocol.CodeUnknownMethod, Message: method}
			}
			out.(*protocol.MachineList).Machines = h.list
		case "session.snapshot":
			res := out.(*fleetSnapshotResult)
			for id, s := range h.snaps {
				res.Machines = append(res.Machines, struct {
					Machine  protocol.MachineRef       `json:"machine"`
					Snapshot *protocol.SessionSnapshot `json:"snapshot,omitempty"`
				}{protocol.MachineRef{ID: id}, s})
			}
		}
		return nil
	}
}

// The fleet on its own: a read keeps the enabled machines with their
// sessions; a machine gone offline and missing from the next answer keeps
// its last session; its workspaces list and fold; a chosen workspace that
// disappears is let go; a server whose events carry the fleet is not
// polled once it has no machines; one without machine.list turns it off.
func TestFleetView_OnItsOwn(t *testing.T) {
	snap := &protocol.SessionSnapshot{Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: "gpu/w1", Label: "train"}},
		Agents: []protocol.AgentInfo{{PaneID: "gpu/w1:p1", WorkspaceID: "gpu/w1"}}}
	h := &fakeFleetHost{evented: true,
		list:  []protocol.MachineInfo{{ID: "gpu", Label: "gpu", Enabled: true, State: machineOnline}, {ID: "off", Enabled: false}},
		snaps: map[string]*protocol.SessionSnapshot{"gpu": snap}}
	f := &fleetView{host: h}
	f.apply(f.fetch()().(fleetMsg))
	if len(f.machines) != 1 || f.machine("gpu") == nil || f.remoteWorkspace("gpu/w1") != f.machine("gpu") {
		t.Fatalf("machines %+v", f.machines)
	}
	if ids := f.workspaceIDs(); len(ids) != 1 || ids[0] != "gpu/w1" || f.workspaceOf(sideItem{kind: "remote-agent", id: "gpu/w1:p1"}) != "gpu/w1" {
		t.Fatalf("workspaces %v", ids)
	}
	f.selected = "gpu/w1"
	if r := f.rail(); len(r) != 1 || !r[0].on || r[0].dim {
		t.Fatalf("rail %+v", r)
	}
	f.toggle("gpu")
	if len(f.workspaceIDs()) != 0 || len(f.rail()) != 0 {
		t.Fatal("a folded machine still lists its workspaces")
	}
	f.toggle("gpu")

	h.list[0].State, h.snaps = "offline", nil
	f.tick = false
	f.apply(f.fetch()().(fleetMsg))
	if fm := f.machine("gpu"); fm == nil || fm.Snap == nil || f.selected != "gpu/w1" || !f.rail()[0].dim {
		t.Fatalf("offline: %+v selected %q", fm, f.selected)
	}
	h.list = nil
	f.tick = false
	if next := f.apply(f.fetch()().(fleetMsg)); next != nil || f.selected != "" {
		t.Fatalf("no machines: next %v selected %q", next != nil, f.selected)
	}
	h.refuse = true
	f.apply(f.fetch()().(fleetMsg))
	if !f.unsupported || f.fetch() != nil {
		t.Fatal("a server without machine.list is still read")
	}
}
