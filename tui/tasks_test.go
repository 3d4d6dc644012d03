package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/protocol"
)

// sampleTasks are tasks in three statuses, in task.list's order.
func sampleTasks() []taskInfo {
	return []taskInfo{
		{ID: "task-1", Title: "Parse config", Status: "ready"},
		{ID: "task-2", Title: "Add retry policy", Status: "running", Assignee: &protocol.TaskAssignee{Target: "impl", PaneID: "w1:p2"}},
		{ID: "task-3", Title: "Write docs", Status: "ready"},
		{ID: "task-4", Title: "Review API", Status: "review"},
		{ID: "task-5", Title: "Bench", Status: "review"},
		{ID: "task-6", Title: "Release", Status: "review"},
	}
}

// withTasks gives m the sample tasks as task.list's answer would.
func withTasks(m *model) {
	m.Update(taskListMsg{tasks: sampleTasks()})
}

func viewLines(m *model) []string { return strings.Split(ansi.Strip(render(m)), "\n") }

// The dock reserves its share of the pane area: beside the panes in a wide
// window, below them in a narrow one (a right dock too), and the panes'
// size the server is told is what remains.
func TestTasks_DockLayout(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	withTasks(m)
	full := m.geometry().area

	m.width, m.height = 160, 30
	wide := m.geometry().area
	prefixed(m, "t") // hidden → right
	g := m.geometry()
	if m.tasks.dock != dockRight || g.dockAt != dockRight || m.mode != modeTaskDock {
		t.Fatalf("prefix t: dock %v at %v, mode %v", m.tasks.dock, g.dockAt, m.mode)
	}
	if g.dock.Width < dockMinW || g.area.Width+g.dock.Width != wide.Width || g.dock.X != g.area.X+g.area.Width || g.area.Height != wide.Height || g.dock.Height != wide.Height {
		t.Fatalf("right dock: area %+v dock %+v (was %+v)", g.area, g.dock, wide)
	}
	lines := viewLines(m)
	if !strings.Contains(lines[g.dock.Y], "tasks") || !strings.Contains(lines[g.dock.Y+2], "2 Add retry policy @impl") {
		t.Fatalf("right dock not drawn:\n%s", strings.Join(lines, "\n"))
	}

	m.width, m.height = 84, 21 // a pane area of 60 columns: narrow
	g = m.geometry()
	if g.dockAt != dockBottom || g.area.Width != full.Width || g.area.Height+g.dock.Height != full.Height || g.dock.Y != g.area.Y+g.area.Height {
		t.Fatalf("narrow right dock: at %v area %+v dock %+v (was %+v)", g.dockAt, g.area, g.dock, full)
	}
	lines = viewLines(m)
	if !strings.Contains(lines[g.dock.Y], "tasks") || !strings.Contains(lines[g.dock.Y+1], "1 Parse config") {
		t.Fatalf("bottom dock not drawn:\n%s", strings.Join(lines, "\n"))
	}

	m.mode = modeTerminal
	prefixed(m, "t") // right → bottom
	m.width, m.height = 160, 30
	if g = m.geometry(); g.dockAt != dockBottom || g.area.Width != wide.Width || g.area.Height+g.dock.Height != wide.Height {
		t.Fatalf("bottom dock: at %v area %+v dock %+v", g.dockAt, g.area, g.dock)
	}
	prefixed(m, "t") // bottom → hidden
	if g = m.geometry(); g.dockAt != dockHidden || g.area != wide || m.mode != modeTerminal {
		t.Fatalf("hidden dock: at %v area %+v mode %v", g.dockAt, g.area, m.mode)
	}
}

// prefixed presses the prefix key and then k.
func prefixed(m *model, k string) {
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes(k))
}

// The focused dock: j/k and the arrows move, Enter or l opens the
// activity, Esc, q or h give the keys back to the terminal and leave the
// dock where it is.
func TestTasks_DockKeys(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	withTasks(m)
	m.tasks.dock, m.mode = dockRight, modeTaskDock
	for _, k := range []tea.KeyPressMsg{keyRunes("j"), {Code: tea.KeyDown}, keyRunes("k")} {
		m.Update(k)
	}
	if m.tasks.dockSel != "task-2" {
		t.Fatalf("j, down, k: selected %q, want task-2", m.tasks.dockSel)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.mode != modeTaskActivity || m.tasks.modal == nil || m.tasks.modal.id != "task-2" {
		t.Fatalf("enter: mode %v modal %+v", m.mode, m.tasks.modal)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTaskDock || m.tasks.modal != nil {
		t.Fatalf("esc from the activity: mode %v, want the dock's", m.mode)
	}
	m.Update(keyRunes("q"))
	if m.mode != modeTerminal || m.tasks.dock != dockRight {
		t.Fatalf("q: mode %v dock %v, want the terminal with the dock kept", m.mode, m.tasks.dock)
	}
	// A click on a row focuses the dock and selects it; a click on the
	// selected row opens its activity.
	m.width, m.height = 160, 30
	g := m.geometry()
	click := mouseMsg{X: g.dock.X + 4, Y: g.dock.Y + 3, Button: tea.MouseLeft, Action: mousePress}
	m.Update(click)
	if m.mode != modeTaskDock || m.tasks.dockSel != "task-3" || m.tasks.modal != nil {
		t.Fatalf("first click: mode %v selected %q modal %+v", m.mode, m.tasks.dockSel, m.tasks.modal)
	}
	m.Update(click)
	if m.tasks.modal == nil || m.tasks.modal.id != "task-3" {
		t.Fatalf("second click: modal %+v", m.tasks.modal)
	}
	// A click on a pane gives the keys back to the terminal.
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTaskDock {
		t.Fatalf("esc from the activity: mode %v", m.mode)
	}
	m.Update(mouseMsg{X: g.area.X + 3, Y: g.area.Y + 3, Button: tea.MouseLeft, Action: mousePress})
	if m.mode != modeTerminal || m.tasks.dock != dockRight {
		t.Fatalf("click on a pane: mode %v dock %v", m.mode, m.tasks.dock)
	}
}

// The board: h/l move across the non-empty status columns keeping the row
// when the column has it, j/k within a column, Enter opens the activity
// and Esc comes back to the board, p cycles the dock and closes it.
func TestTasks_BoardNavigation(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	withTasks(m)
	m.width, m.height = 160, 30
	prefixed(m, "B")
	if !m.tasks.board || m.mode != modeTaskBoard {
		t.Fatalf("prefix B: board %v mode %v", m.tasks.board, m.mode)
	}
	lines := strings.Join(viewLines(m), "\n")
	for _, want := range []string{"ready (2)", "running (1)", "review (3)", "6 Release"} {
		if !strings.Contains(lines, want) {
			t.Fatalf("board lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, "backlog (") {
		t.Fatalf("an empty column is drawn:\n%s", lines)
	}
	steps := []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{keyRunes("j"), "task-3"},                      // ready, row 1
		{keyRunes("l"), "task-2"},                      // running has one row
		{keyRunes("l"), "task-4"},                      // review, row 0 (the row kept: 0)
		{tea.KeyPressMsg{Code: tea.KeyDown}, "task-5"}, // review, row 1
		{keyRunes("j"), "task-6"},
		{keyRunes("j"), "task-6"}, // the column's end
		{tea.KeyPressMsg{Code: tea.KeyLeft}, "task-2"},
		{keyRunes("h"), "task-1"},
		{keyRunes("h"), "task-1"}, // the first column
		{keyRunes("k"), "task-1"},
	}
	for i, s := range steps {
		m.Update(s.key)
		if got := m.tasks.boardSelected(); got != s.want {
			t.Fatalf("step %d (%s): selected %q, want %q", i, s.key, got, s.want)
		}
	}
	m.Update(keyRunes("l"))
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.tasks.modal == nil || m.tasks.modal.id != "task-2" || m.mode != modeTaskActivity {
		t.Fatalf("enter: modal %+v mode %v", m.tasks.modal, m.mode)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTaskBoard || !m.tasks.board || m.tasks.modal != nil {
		t.Fatalf("esc from the activity: mode %v board %v", m.mode, m.tasks.board)
	}
	m.Update(keyRunes("p"))
	if m.tasks.board || m.tasks.dock != dockRight {
		t.Fatalf("p: board %v dock %v", m.tasks.board, m.tasks.dock)
	}
	// A click on a board row opens its activity.
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	prefixed(m, "B")
	g := m.geometry()
	r := m.tasks.boardRect(g)
	inner := protocol.Rect{X: r.X + 1, Y: r.Y + 1, Width: r.Width - 2, Height: r.Height - 2}
	_, colW := m.tasks.boardLayout(inner, 3)
	m.Update(mouseMsg{X: inner.X + 2*colW + 2, Y: inner.Y + 3, Button: tea.MouseLeft, Action: mousePress})
	if m.tasks.modal == nil || m.tasks.modal.id != "task-6" {
		t.Fatalf("click on review row 2: modal %+v", m.tasks.modal)
	}
}

// The activity modal shows the task's identity, status and assignment,
// then its activity newest first, in the local time zone.
func TestTasks_ModalNewestFirst(t *testing.T) {
	zone := time.FixedZone("X", 5*3600+30*60)
	at := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC).UnixMilli()
	task := taskInfo{ID: "task-2", Title: "Add retry policy", Status: "review", Priority: 1, Attempts: 2,
		Assignee: &protocol.TaskAssignee{Target: "impl", PaneID: "w1:p2"}, AgentSessionID: "sess-9",
		Activities: []protocol.TaskActivity{
			{Seq: 1, AtMS: at, Kind: "created", Status: "ready", Source: "cli"},
			{Seq: 2, AtMS: at + 60_000, Kind: "dispatched", Status: "running"},
			{Seq: 3, AtMS: at + 60_000, Kind: "message", Message: "tests pass"},
			{Seq: 4, AtMS: at + 120_000, Kind: "status", From: "running", Status: "review"},
		}}
	lines := modalLines(task, true, zone)
	text := strings.Join(lines, "\n")
	for _, want := range []string{"task-2  Add retry policy", "status review", "attempts 2", "assignee impl (w1:p2)", "agent session sess-9"} {
		if !strings.Contains(text, want) {
			t.Fatalf("modal lacks %q:\n%s", want, text)
		}
	}
	i := indexOf(lines, "activity, newest first")
	want := []string{
		"  2026-03-04 15:32:00 status running → review",
		"  2026-03-04 15:31:00 message: tests pass",
		"  2026-03-04 15:31:00 dispatched running",
		"  2026-03-04 15:30:00 created ready (cli)",
	}
	if i < 0 || strings.Join(lines[i+1:], "\n") != strings.Join(want, "\n") {
		t.Fatalf("activity:\n%s\nwant:\n%s", strings.Join(lines[i+1:], "\n"), strings.Join(want, "\n"))
	}
	if l := modalLines(task, false, zone); l[len(l)-1] != "  reading…" {
		t.Fatalf("before task.get answers: %q", l[len(l)-1])
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

// Task text is anyone's: it is cleaned before it is drawn, in the dock,
// the board and the modal.
func TestTasks_TextIsCleaned(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	m.width, m.height = 160, 30
	evil := "pwn\x1b]2;owned\x07\x1b[31m"
	m.Update(taskListMsg{tasks: []taskInfo{{ID: "task-1", Title: evil, Status: "ready"}}})
	prefixed(m, "t")
	m.Update(taskGetMsg{})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	m.Update(taskGetMsg{id: "task-1", task: taskInfo{ID: "task-1", Title: evil, Status: "ready", Activities: []protocol.TaskActivity{{Kind: "message", Message: evil}}}})
	if m.tasks.modal == nil || !m.tasks.modal.full {
		t.Fatalf("modal %+v", m.tasks.modal)
	}
	for _, s := range []string{m.tasks.tasks[0].Title, m.tasks.modal.task.Title, m.tasks.modal.task.Activities[0].Message} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Fatalf("kept a control character: %q", s)
		}
	}
	if v := render(m); strings.Contains(v, "\x1b]") || strings.Contains(v, "\x07") {
		t.Fatalf("the view carries the title's sequence: %q", v)
	}
}

// A server without task.list hides the dock and the board, with no
// message, and is not asked again.
func TestTasks_OlderServerHidesThem(t *testing.T) {
	f := &fakeServer{fail: func(method string, _ json.RawMessage) string {
		if method == "task.list" {
			return protocol.CodeUnknownMethod
		}
		return ""
	}}
	m, _ := testModel(t, f)
	m.width, m.height = 160, 30
	m.tasks.dock, m.mode = dockRight, modeTaskDock
	cmd := m.tasks.fetchTasks()
	m.Update(cmd())
	if !m.tasks.unsupported || m.tasks.dock != dockHidden || m.mode != modeTerminal || m.toast.text != "" {
		t.Fatalf("unsupported %v dock %v mode %v toast %q", m.tasks.unsupported, m.tasks.dock, m.mode, m.toast.text)
	}
	if g := m.geometry(); g.dock.Width != 0 || g.area.Width != 160-m.ui.SidebarWidth {
		t.Fatalf("geometry %+v", g)
	}
	prefixed(m, "t")
	prefixed(m, "B")
	if m.tasks.dock != dockHidden || m.tasks.board || m.tasks.fetchTasks() != nil {
		t.Fatalf("after prefix t, B: dock %v board %v", m.tasks.dock, m.tasks.board)
	}
	if n := len(f.requests("task.list")); n != 1 {
		t.Fatalf("task.list asked %d times", n)
	}
}

// Task events refresh the tasks, not the snapshot; other events the
// snapshot.
func TestTasks_EventLines(t *testing.T) {
	for line, want := range map[string]bool{
		`{"event":"task_updated","data":{"type":"task_updated"}}`:   true,
		`{"event":"task_activity","data":{"type":"task_activity"}}`: true,
		`{"event":"pane_created","data":{"type":"pane_created"}}`:   false,
	} {
		if got := isTaskEvent([]byte(line)); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

// A right click on a sidebar header opens the global menu: "task panel"
// cycles the dock, "task board" opens the board.
func TestTasks_GlobalMenu(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	withTasks(m)
	m.Update(rightPress(3, 0)) // the spaces header
	if m.menus.open == nil || m.menus.open.kind != menuGlobal || strings.Join(m.menus.open.items, ",") != "task panel,task board" {
		t.Fatalf("menu %+v", m.menus.open)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.tasks.dock != dockRight || m.mode != modeTaskDock {
		t.Fatalf("task panel: dock %v mode %v", m.tasks.dock, m.mode)
	}
	m.mode = modeTerminal
	m.Update(rightPress(3, 0))
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !m.tasks.board || m.mode != modeTaskBoard {
		t.Fatalf("task board: board %v mode %v", m.tasks.board, m.mode)
	}
}

// A server from before the task board refuses the task event kinds: the
// client subscribes again to Herdr's kinds and polls the tasks; a current
// one takes them all.
func TestTasks_SubscriptionOnAnOlderServer(t *testing.T) {
	f := &fakeServer{fail: func(method string, params json.RawMessage) string {
		if method == "events.subscribe" && strings.Contains(string(params), "task_created") {
			return protocol.CodeInvalidParams
		}
		return ""
	}}
	m, _ := testModel(t, f)
	if err := subscribeEvents(m.link.req, &m.link.taskEvents, &m.link.fleetEvents); err != nil {
		t.Fatal(err)
	}
	subs := f.requests("events.subscribe")
	if len(subs) != 3 || strings.Contains(string(subs[2].Params), "task_") || !strings.Contains(string(subs[2].Params), "pane_created") || m.tasks.host.tasksEvented() || m.link.fleetEvents.Load() {
		t.Fatalf("subscriptions %d, the second %s, task events %v", len(subs), subs[len(subs)-1].Params, m.tasks.host.tasksEvented())
	}
	// Shown and not carried by events: the tasks are polled.
	m.tasks.dock = dockRight
	if cmd := m.tasks.applyTaskList(taskListMsg{tasks: sampleTasks()}); cmd == nil || !m.tasks.polling {
		t.Fatalf("no poll armed: polling %v", m.tasks.polling)
	}

	f2 := &fakeServer{}
	m2, _ := testModel(t, f2)
	if err := subscribeEvents(m2.link.req, &m2.link.taskEvents, &m2.link.fleetEvents); err != nil || !m2.tasks.host.tasksEvented() || len(f2.requests("events.subscribe")) != 1 {
		t.Fatalf("current server: err %v, task events %v", err, m2.tasks.host.tasksEvented())
	}
	m2.tasks.dock = dockRight
	if m2.tasks.applyTaskList(taskListMsg{tasks: sampleTasks()}); m2.tasks.polling {
		t.Fatal("polled although the events carry the tasks")
	}
}
