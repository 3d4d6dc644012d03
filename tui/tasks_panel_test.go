package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeTaskHost is the client as the task panel sees it, without a model
// or a server: task.list and task.get answered from tasks (or err), the
// calls and the size claims counted.
type fakeTaskHost struct {
	tasks    []taskInfo
	fleet    []taskInfo // the fleet's board; nil: the server is in no fleet
	fleetErr error      // the fleet's board answers this
	err      error
	evented  bool
	calls    []string
	claims   int
}

func (h *fakeTaskHost) rpc() rpcFunc {
	return func(method string, params, out any) error {
		h.calls = append(h.calls, method)
		if h.err != nil {
			return h.err
		}
		switch res := out.(type) {
		case *protocol.TaskList:
			if lp, ok := params.(protocol.TaskListParams); ok && lp.Fleet {
				h.calls[len(h.calls)-1] += " fleet"
				switch {
				case h.fleetErr != nil:
					return h.fleetErr
				case h.fleet == nil:
					return protocol.Errorf(protocol.CodeFleetUnavailable, "task.list with fleet: this server is in no fleet")
				}
				res.Tasks = h.fleet
				return nil
			}
			res.Tasks = h.tasks
		case *protocol.TaskInfoResult:
			gp := params.(protocol.TaskGetParams)
			id, from := gp.TaskID, h.tasks
			if gp.Fleet {
				h.calls[len(h.calls)-1] += " fleet"
				from = h.fleet
			}
			for _, t := range from {
				if t.ID == id {
					res.Task = t
					res.Task.Activities = []protocol.TaskActivity{{Kind: "created", Message: "made by a test"}}
				}
			}
		}
		return nil
	}
}
func (h *fakeTaskHost) tasksEvented() bool   { return h.evented }
func (h *fakeTaskHost) claimSize(force bool) { h.claims++ }

// The panel on its own: prefix t's cycle asks task.list and claims the
// pane area, the answer fills the dock, the keys move its selection and
// open the activity (task.get), which Esc closes back to the dock; the
// dock draws the tasks into a canvas with the glyph of each status.
func TestTaskPanel_DockOnItsOwn(t *testing.T) {
	h := &fakeTaskHost{tasks: sampleTasks(), evented: true}
	md := modeTerminal
	p := newTaskPanel(h, &md)

	cmd := p.cycleDock()
	if p.dock != dockRight || md != modeTaskDock || h.claims != 1 || cmd == nil {
		t.Fatalf("cycle: dock %v mode %v claims %d cmd %v", p.dock, md, h.claims, cmd != nil)
	}
	if c, _ := p.update(cmd()); c != nil {
		t.Fatalf("an evented server's answer armed a poll")
	}
	if !p.have || len(p.tasks) != 6 || p.dockSel != "task-1" || p.polling {
		t.Fatalf("after task.list: have %v tasks %d selected %q polling %v", p.have, len(p.tasks), p.dockSel, p.polling)
	}
	g := geometry{w: 120, h: 20, area: protocol.Rect{X: 0, Y: 1, Width: 120, Height: 19}}
	g.dock, g.area, g.dockAt = p.dockRect(g.area)
	p.dockKey(keyRunes("j"))
	p.dockKey(keyRunes("j"))
	p.dockKey(keyRunes("k"))
	if p.dockSel != "task-2" {
		t.Fatalf("j j k: selected %q", p.dockSel)
	}
	c := newCanvas(g.w, g.h)
	p.drawDock(c, g, newTheme(config.Default(), true))
	lines := strings.Split(ansi.Strip(c.String()), "\n")
	if !strings.Contains(lines[g.dock.Y], "tasks") || !strings.Contains(lines[g.dock.Y+2], "● 2 Add retry policy @impl") || !strings.Contains(lines[g.dock.Y+1], "○ 1 Parse config") {
		t.Fatalf("dock drawn:\n%s", strings.Join(lines, "\n"))
	}

	get := p.dockKey(keyRunes("l"))
	if md != modeTaskActivity || p.modal == nil || p.modal.id != "task-2" || get == nil {
		t.Fatalf("l: mode %v modal %+v", md, p.modal)
	}
	p.update(get())
	if !p.modal.full || h.calls[len(h.calls)-1] != "task.get" {
		t.Fatalf("task.get: modal %+v calls %v", p.modal, h.calls)
	}
	mc := newCanvas(g.w, g.h)
	p.drawModal(mc, g, newTheme(config.Default(), true))
	if !strings.Contains(ansi.Strip(mc.String()), "made by a test") {
		t.Fatalf("the activity is not drawn:\n%s", ansi.Strip(mc.String()))
	}
	p.modalKey(keyRunes("q"), g)
	if md != modeTaskDock || p.modal != nil {
		t.Fatalf("q in the activity: mode %v modal %+v", md, p.modal)
	}
	p.dockKey(keyRunes("q"))
	if md != modeTerminal || p.dock != dockRight {
		t.Fatalf("q in the dock: mode %v dock %v", md, p.dock)
	}
}

// A server without task.list hides the panel and gives the keys back; a
// server whose events do not carry the tasks is polled while they show,
// and a failed read keeps what was shown.
func TestTaskPanel_UnsupportedAndPolled(t *testing.T) {
	h := &fakeTaskHost{tasks: sampleTasks()}
	md := modeTerminal
	p := newTaskPanel(h, &md)
	p.openBoard()
	if !p.board || md != modeTaskBoard {
		t.Fatalf("open board: board %v mode %v", p.board, md)
	}
	if cmd := p.applyTaskList(taskListMsg{tasks: sampleTasks()}); cmd == nil || !p.polling {
		t.Fatalf("a server without task events is not polled: polling %v", p.polling)
	}
	if got := p.boardSelected(); got != "task-1" {
		t.Fatalf("board selection %q", got)
	}
	p.applyTaskList(taskListMsg{err: errors.New("broken pipe")})
	if len(p.tasks) != 6 {
		t.Fatalf("a failed read dropped the tasks: %d", len(p.tasks))
	}
	p.fetching = false
	h.err = &protocol.Error{Code: protocol.CodeUnknownMethod, Message: "task.list"}
	p.update(p.fetchTasks()())
	if !p.unsupported || p.board || md != modeTerminal || p.fetchTasks() != nil || p.cycleDock() != nil || p.dock != dockHidden {
		t.Fatalf("unsupported %v board %v mode %v dock %v", p.unsupported, p.board, md, p.dock)
	}
	if p.globalMenu(mouseMsg{X: 1, Y: 0, Button: tea.MouseRight, Action: mousePress}) != nil {
		t.Fatal("a server without tasks offers the task menu")
	}
}

// The board shows the fleet's tasks (task.list with fleet) beside the
// server's, each naming the member running it; a fleet task's activity is
// read from the fleet's board; a server in no fleet shows its own tasks
// and says nothing; a fleet board that stops answering keeps the fleet
// tasks last read under a note saying why.
func TestTaskPanel_FleetTasksNameTheirMember(t *testing.T) {
	h := &fakeTaskHost{tasks: sampleTasks()[:1], evented: true}
	md := modeTerminal
	p := newTaskPanel(h, &md)
	p.update(p.openBoard()())
	if len(p.tasks) != 1 || p.fleetNote != "" {
		t.Fatalf("in no fleet: %d tasks, note %q", len(p.tasks), p.fleetNote)
	}
	h.fleet = []taskInfo{
		{ID: "fleet-7", Title: "Train model", Status: "running", Worker: &protocol.TaskWorker{Machine: "gpu-box"}, Requires: []string{"gpu"}},
		{ID: "fleet-8", Title: "Lint", Status: "ready"},
	}
	p.update(p.fetchTasks()())
	g := geometry{w: 120, h: 20, area: protocol.Rect{X: 0, Y: 1, Width: 120, Height: 19}}
	th := newTheme(config.Default(), true)
	c := newCanvas(g.w, g.h)
	p.drawBoard(c, g, th)
	board := ansi.Strip(c.String())
	for _, want := range []string{"Parse config", "fleet-7 Train model on gpu-box", "fleet-8 Lint (fleet)"} {
		if !strings.Contains(board, want) {
			t.Errorf("the board lacks %q:\n%s", want, board)
		}
	}
	p.boardCol, p.boardRow = 0, 0
	for ci, col := range p.boardColumns() {
		for ri, tk := range col.tasks {
			if tk.ID == "fleet-7" {
				p.boardCol, p.boardRow = ci, ri
			}
		}
	}
	msg := p.openModal(p.boardSelected(), modeTaskBoard)()
	if last := h.calls[len(h.calls)-1]; last != "task.get fleet" {
		t.Errorf("a fleet task's activity was read with %q", last)
	}
	p.update(msg)
	lines := strings.Join(modalLines(p.modal.task, p.modal.full, time.UTC), "\n")
	if !strings.Contains(lines, "fleet task · running on gpu-box · requires gpu") || !strings.Contains(lines, "made by a test") {
		t.Errorf("the modal:\n%s", lines)
	}
	h.fleetErr = protocol.Errorf(protocol.CodeFleetUnavailable, "task.list with fleet: this server has not joined the fleet's hub (dial refused)")
	p.update(p.fetchTasks()())
	if len(p.tasks) != 3 || !strings.Contains(p.fleetNote, "not joined the fleet's hub") {
		t.Fatalf("a failed fleet read: %d tasks, note %q", len(p.tasks), p.fleetNote)
	}
	c = newCanvas(g.w, g.h)
	p.drawBoard(c, g, th)
	if board := ansi.Strip(c.String()); !strings.Contains(board, "fleet tasks as last read") || !strings.Contains(board, "on gpu-box") {
		t.Errorf("the board does not say why the fleet's tasks may be stale:\n%s", board)
	}
}
