package tui

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The task board in the client, as Herdr shows it: a dock (hidden, right
// or bottom; prefix t cycles it) that reserves space beside or below the
// panes, a full board of status columns (prefix B), and an activity modal
// over either. The tasks are the server's (task.list, and task.get for the
// modal); the client keeps only where the dock is and what is selected.
// The list is read again when a task event arrives on the event
// connection, or, when the subscription does not carry them, every
// taskPollEvery while something shows it. A server without task.list
// (unknown_method) shows neither dock nor board, and says nothing.

// taskPollEvery is how often the tasks are read while the dock or the board
// shows them.
const taskPollEvery = 2 * time.Second

// taskInfo is a task as task.list and task.get answer it.
type taskInfo = protocol.TaskInfo

// The task modes, numbered apart from model.go's list.
const (
	modeTaskDock     mode = 100 + iota // the task dock has the keys
	modeTaskBoard                      // the full task board
	modeTaskActivity                   // a task's activity modal
)

// dockPlace is where the task dock is.
type dockPlace int

const (
	dockHidden dockPlace = iota
	dockRight
	dockBottom
)

func (d dockPlace) String() string {
	return [...]string{"hidden", "right", "bottom"}[d]
}

// Dock sizes: a right dock is a third of the pane area, 24 to 44 columns;
// a bottom one a third of its rows, 5 to 12. A pane area narrower than
// dockNarrow columns gets a bottom dock when a right one is asked for.
const (
	dockMinW, dockMaxW = 24, 44
	dockMinH, dockMaxH = 5, 12
	dockNarrow         = 90
)

// taskState is what the client knows of the tasks and how it shows them.
type taskState struct {
	// unsupported: the server answered task.list unknown_method or
	// not_implemented; no dock, no board, no more reads.
	unsupported bool
	tasks       []taskInfo
	have        bool // a list has arrived
	dock        dockPlace
	dockSel     string // the selected task's id in the dock
	dockTop     int    // the first row the dock shows
	// board is the open full board and its selection (column, row).
	board              bool
	boardCol, boardRow int
	// modal is the activity view open over the board or the dock.
	modal *taskModal
	// back is the mode the board or the modal returns to.
	back mode
	// fleetNote says why the fleet's tasks are not shown, once some were
	// (a server in no fleet never had any: nothing to say).
	fleetNote string
	// Reads: one at a time; stale says something changed meanwhile;
	// polling says a taskDue is on its way.
	fetching, stale, polling bool
}

// taskModal is a task's activity view.
type taskModal struct {
	id     string
	task   taskInfo
	full   bool  // task.get answered (activities are in)
	err    error // task.get failed
	scroll int
	from   mode // where Esc returns: modeTaskBoard or modeTaskDock
}

// Messages of the task reads.
type (
	taskListMsg struct {
		tasks       []taskInfo
		unsupported bool
		err         error
		fleetErr    error // the fleet's board was not read
	}
	taskGetMsg struct {
		id   string
		task taskInfo
		err  error
	}
	// taskDue asks for the next poll.
	taskDue struct{}
	// tasksChangedMsg: a task event arrived on the event connection.
	tasksChangedMsg struct{}
)

// taskPanel is the task dock, the board and the activity modal: a
// component with its own state, keys, mouse and drawing, which the root
// routes to (update, key1, mouse, canvas). It reaches the client around it
// only through host, and takes and gives back the keys through mode (the
// client's key mode).
type taskPanel struct {
	taskState
	host taskHost
	mode *mode
}

// taskHost is what the task panel needs of the client around it.
type taskHost interface {
	// rpc calls the server on the request connection; nil while there
	// is none.
	rpc() rpcFunc
	// tasksEvented says whether the client's event subscription carries
	// the task events; when it does not, the tasks are polled while they
	// are shown.
	tasksEvented() bool
	// claimSize tells the server the pane area again (the dock took or
	// gave back its share).
	claimSize(force bool)
}

func newTaskPanel(h taskHost, mode *mode) taskPanel {
	return taskPanel{host: h, mode: mode}
}

// subscribeEvents subscribes ev to every lifecycle kind but
// pane_output_changed, and to every saved machine's events ("machines":
// "all"). A server that refuses the fleet scope is asked without it, and
// one that refuses the task kinds (from before the task board) is asked
// for Herdr's kinds only. taskEvents and fleetEvents say what it took.
func subscribeEvents(ev requester, taskEvents, fleetEvents *atomic.Bool) error {
	kinds := func(all bool) []protocol.Subscription {
		var out []protocol.Subscription
		for _, k := range protocol.LifecycleKinds {
			if k != "pane_output_changed" && (all || protocol.HerdrEventKind(k)) {
				out = append(out, protocol.Subscription{Type: k})
			}
		}
		return out
	}
	tries := []struct {
		tasks bool
		scope protocol.FleetScope
	}{
		{true, protocol.FleetScope{Machines: protocol.MachinesAll}},
		{true, protocol.FleetScope{}},
		{false, protocol.FleetScope{}},
	}
	var err error
	for _, t := range tries {
		err = ev.call("events.subscribe", protocol.EventsSubscribeParams{Subscriptions: kinds(t.tasks), FleetScope: t.scope}, nil)
		var pe *protocol.Error
		if errors.As(err, &pe) && pe.Code == protocol.CodeInvalidParams {
			continue
		}
		taskEvents.Store(err == nil && t.tasks)
		fleetEvents.Store(err == nil && t.scope.Machines != "")
		return err
	}
	taskEvents.Store(false)
	fleetEvents.Store(false)
	return err
}

// isTaskEvent says whether an event line is a task event (task_created,
// task_updated, task_activity): it refreshes the tasks, not the snapshot.
func isTaskEvent(line []byte) bool {
	return bytes.Contains(line, []byte(`"event":"task_`))
}

// unsupportedCall says whether err means the server has no such method.
func unsupportedCall(err error) bool {
	var pe *protocol.Error
	return errors.As(err, &pe) && (pe.Code == protocol.CodeUnknownMethod || pe.Code == protocol.CodeNotImplemented)
}

// fetchTasks reads task.list on the request connection, one read at a time,
// and the fleet's board (task.list with fleet) beside it: a server in no
// fleet answers fleet_unavailable, and the board shows its own tasks only.
func (p *taskPanel) fetchTasks() tea.Cmd {
	call := p.host.rpc()
	if p.unsupported || call == nil {
		return nil
	}
	if p.fetching {
		p.stale = true
		return nil
	}
	p.fetching = true
	return func() tea.Msg {
		var res protocol.TaskList
		if err := call("task.list", nil, &res); err != nil {
			if unsupportedCall(err) {
				return taskListMsg{unsupported: true}
			}
			return taskListMsg{err: err}
		}
		var fleet protocol.TaskList
		fleetErr := call("task.list", protocol.TaskListParams{Fleet: true}, &fleet)
		if fleetErr == nil {
			for _, t := range fleet.Tasks {
				t.Fleet = true // the fleet's board: read and shown as such
				res.Tasks = append(res.Tasks, t)
			}
		}
		return taskListMsg{tasks: res.Tasks, fleetErr: fleetErr}
	}
}

// fetchTask reads one task with its activities for the modal (from the
// fleet's board for a fleet task).
func (p *taskPanel) fetchTask(id string) tea.Cmd {
	call := p.host.rpc()
	if call == nil {
		return nil
	}
	fleet := false
	for _, t := range p.tasks {
		if t.ID == id {
			fleet = t.Fleet
		}
	}
	return func() tea.Msg {
		var res protocol.TaskInfoResult
		err := call("task.get", protocol.TaskGetParams{TaskID: id, Fleet: fleet}, &res)
		res.Task.Fleet = res.Task.Fleet || fleet
		return taskGetMsg{id: id, task: res.Task, err: err}
	}
}

// tasksShown says whether anything on screen shows the tasks.
func (p *taskPanel) tasksShown() bool {
	return !p.unsupported && (p.dock != dockHidden || p.board || p.modal != nil)
}

// update handles the task messages; ok is false for any other.
func (p *taskPanel) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case taskListMsg:
		return p.applyTaskList(msg), true
	case taskGetMsg:
		if md := p.modal; md != nil && md.id == msg.id {
			if msg.err != nil {
				md.err = msg.err
			} else {
				clean(&msg.task)
				md.task, md.full, md.err = msg.task, true, nil
			}
		}
		return nil, true
	case taskDue:
		p.polling = false
		if !p.tasksShown() {
			return nil, true
		}
		return p.fetchTasks(), true
	case tasksChangedMsg:
		if !p.tasksShown() {
			return nil, true
		}
		cmds := []tea.Cmd{p.fetchTasks()}
		if md := p.modal; md != nil {
			cmds = append(cmds, p.fetchTask(md.id))
		}
		return tea.Batch(cmds...), true
	}
	return nil, false
}

// applyTaskList takes a task.list answer and arms the next poll.
func (p *taskPanel) applyTaskList(msg taskListMsg) tea.Cmd {
	p.fetching = false
	if msg.unsupported {
		p.tasksUnsupported()
		return nil
	}
	var cmds []tea.Cmd
	if msg.err == nil {
		p.fleetNote = fleetNote(p.tasks, msg.fleetErr)
		if p.fleetNote != "" { // keep the fleet's tasks last read, under the note
			for _, t := range p.tasks {
				if t.Fleet {
					msg.tasks = append(msg.tasks, t)
				}
			}
		}
		clean(&msg.tasks) // titles and messages are anyone's text
		p.tasks, p.have = msg.tasks, true
		p.fixTaskSelection()
	}
	if p.stale {
		p.stale = false
		cmds = append(cmds, p.fetchTasks())
	}
	if p.tasksShown() && !p.polling && !p.host.tasksEvented() {
		p.polling = true
		cmds = append(cmds, tea.Tick(taskPollEvery, func(time.Time) tea.Msg { return taskDue{} }))
	}
	return tea.Batch(cmds...)
}

// fleetNote is what the board says when the fleet's board could not be
// read: nothing when it was read, or when no fleet task was ever shown
// (a server in no fleet answers fleet_unavailable every time).
func fleetNote(shown []taskInfo, err error) string {
	if err == nil || !slices.ContainsFunc(shown, func(t taskInfo) bool { return t.Fleet }) {
		return ""
	}
	return "fleet tasks as last read: " + err.Error()
}

// tasksUnsupported hides everything of the tasks: the server has none.
func (p *taskPanel) tasksUnsupported() {
	hadDock := p.dock != dockHidden
	p.taskState = taskState{unsupported: true}
	switch *p.mode {
	case modeTaskDock, modeTaskBoard, modeTaskActivity:
		*p.mode = modeTerminal
	}
	if hadDock {
		p.host.claimSize(true)
	}
}

// cycleDock moves the dock hidden → right → bottom → hidden; a shown dock
// takes the keys.
func (p *taskPanel) cycleDock() tea.Cmd {
	if p.unsupported {
		return nil
	}
	p.dock = (p.dock + 1) % 3
	p.host.claimSize(true)
	if p.dock == dockHidden {
		if *p.mode == modeTaskDock {
			*p.mode = modeTerminal
		}
		return nil
	}
	*p.mode = modeTaskDock
	return p.fetchTasks()
}

// openBoard shows the full board.
func (p *taskPanel) openBoard() tea.Cmd {
	if p.unsupported {
		return nil
	}
	p.board, p.back, *p.mode = true, modeTerminal, modeTaskBoard
	p.fixTaskSelection()
	return p.fetchTasks()
}

func (p *taskPanel) closeBoard() {
	p.board = false
	*p.mode = modeTerminal
}

// openModal opens task id's activity over the surface in mode from.
func (p *taskPanel) openModal(id string, from mode) tea.Cmd {
	if id == "" {
		return nil
	}
	md := &taskModal{id: id, from: from}
	for _, t := range p.tasks {
		if t.ID == id {
			md.task = t // shown until task.get answers
		}
	}
	p.modal, *p.mode = md, modeTaskActivity
	return p.fetchTask(id)
}

// --- the dock ------------------------------------------------------------------

// dockRect is the dock's rectangle in the window and where it is, given
// the pane area before the dock took its share, and the pane area that
// remains.
func (p *taskPanel) dockRect(area protocol.Rect) (dock, rest protocol.Rect, place dockPlace) {
	place = p.dockPlacement(area)
	rest = area
	switch place {
	case dockRight:
		w := min(max(area.Width/3, dockMinW), dockMaxW)
		rest.Width -= w
		dock = protocol.Rect{X: rest.X + rest.Width, Y: area.Y, Width: w, Height: area.Height}
	case dockBottom:
		h := min(max(area.Height/3, dockMinH), dockMaxH)
		if h >= area.Height-2 {
			return protocol.Rect{}, area, dockHidden // no room for both
		}
		rest.Height -= h
		dock = protocol.Rect{X: area.X, Y: rest.Y + rest.Height, Width: area.Width, Height: h}
	}
	return dock, rest, place
}

// dockPlacement is where the dock goes in a pane area this size: a right
// dock in a narrow one goes to the bottom.
func (p *taskPanel) dockPlacement(area protocol.Rect) dockPlace {
	if p.unsupported {
		return dockHidden
	}
	if p.dock == dockRight && area.Width < dockNarrow {
		return dockBottom
	}
	return p.dock
}

// dockIndex is the selected task's index in the list, or -1.
func (p *taskPanel) dockIndex() int {
	return slices.IndexFunc(p.tasks, func(t taskInfo) bool { return t.ID == p.dockSel })
}

// fixTaskSelection keeps the selections on tasks that exist.
func (p *taskPanel) fixTaskSelection() {
	ts := &p.taskState
	if p.dockIndex() < 0 {
		ts.dockSel = ""
		if len(ts.tasks) > 0 {
			ts.dockSel = ts.tasks[0].ID
		}
	}
	cols := p.boardColumns()
	if len(cols) == 0 {
		ts.boardCol, ts.boardRow = 0, 0
		return
	}
	ts.boardCol = min(max(ts.boardCol, 0), len(cols)-1)
	ts.boardRow = min(max(ts.boardRow, 0), len(cols[ts.boardCol].tasks)-1)
}

// dockKey handles a key while the dock has the focus (the root takes the
// prefix key first).
func (p *taskPanel) dockKey(k tea.KeyPressMsg) tea.Cmd {
	i := p.dockIndex()
	switch k.String() {
	case "j", "down":
		if i+1 < len(p.tasks) {
			p.dockSel = p.tasks[i+1].ID
		}
	case "k", "up":
		if i > 0 {
			p.dockSel = p.tasks[i-1].ID
		}
	case "l", "right", "enter":
		return p.openModal(p.dockSel, modeTaskDock)
	case "h", "left", "q", "esc":
		*p.mode = modeTerminal // the dock stays
	}
	return nil
}

// taskGlyph is a status's mark and colour.
func taskGlyph(th *theme, status string) (string, cellStyle) {
	p := th.p
	switch status {
	case protocol.TaskBacklog:
		return "·", cellStyle{fg: p.overlay0}
	case protocol.TaskReady:
		return "○", cellStyle{fg: p.green}
	case protocol.TaskRunning:
		return "●", cellStyle{fg: p.yellow}
	case protocol.TaskBlocked:
		return "!", cellStyle{fg: p.red, attrs: protocol.ScreenBold}
	case protocol.TaskReview:
		return "◆", cellStyle{fg: p.teal}
	case protocol.TaskDone:
		return "✓", cellStyle{fg: p.teal}
	case protocol.TaskFailed:
		return "✗", cellStyle{fg: p.red}
	}
	return "–", cellStyle{fg: p.overlay0}
}

// drawDock draws the dock in its rectangle: a rule on its side, a title,
// one task a row.
func (p *taskPanel) drawDock(c *canvas, g geometry, th *theme) {
	d := g.dock
	if d.Width < 4 || d.Height < 2 {
		return
	}
	c.fill(d.X, d.Y, d.Width, d.Height, " ", cellStyle{})
	st := th.border
	if *p.mode == modeTaskDock {
		st = th.focus
	}
	x0, y0, w, h := d.X, d.Y+1, d.Width, d.Height-1 // the rows below the title
	if g.dockAt == dockBottom {
		c.text(d.X, d.Y, strings.Repeat("─", d.Width), d.Width, st)
		c.text(d.X+2, d.Y, " tasks ", d.Width-4, th.header)
	} else {
		for y := d.Y; y < d.Y+d.Height; y++ {
			c.set(d.X, y, "│", 1, st)
		}
		x0, w = d.X+1, d.Width-1
		c.text(x0+1, d.Y, "tasks", w-1, th.header)
	}
	if len(p.tasks) == 0 {
		msg := "no tasks"
		if !p.have {
			msg = "reading tasks…"
		}
		c.text(x0+1, y0, msg, w-1, th.dim)
		return
	}
	sel := max(p.dockIndex(), 0)
	top := min(max(p.dockTop, sel-h+1, 0), sel)
	p.dockTop = top
	for i, t := range p.tasks[top:min(len(p.tasks), top+h)] {
		y := y0 + i
		row := cellStyle{}
		if top+i == sel {
			row = th.selected
			if *p.mode != modeTaskDock {
				row = cellStyle{bg: th.p.surfaceDim}
			}
			c.fill(x0, y, w, 1, " ", row)
		}
		glyph, gst := taskGlyph(th, t.Status)
		gst.bg = row.bg
		c.text(x0+1, y, glyph, 1, gst)
		c.text(x0+3, y, taskRowText(t), w-3, row)
	}
}

// taskRowText is a task's row in the dock and the board; a fleet task
// names the member running it ("on gpu"), or says it is the fleet's.
func taskRowText(t taskInfo) string {
	s := strings.TrimPrefix(t.ID, "task-") + " " + t.Title
	if t.Assignee != nil && t.Assignee.Target != "" {
		s += " @" + t.Assignee.Target
	}
	if t.Fleet {
		if t.Worker != nil && t.Worker.Machine != "" {
			s += " on " + t.Worker.Machine
		} else {
			s += " (fleet)"
		}
	}
	return s
}

// dockRowAt is the index of the task at window row y of the dock, or -1.
func (p *taskPanel) dockRowAt(g geometry, y int) int {
	first := g.dock.Y + 1 // below the title or the rule
	i := p.dockTop + y - first
	if y < first || i < 0 || i >= len(p.tasks) {
		return -1
	}
	return i
}

// --- the board -----------------------------------------------------------------

// boardColumn is one status column of the board.
type boardColumn struct {
	status string
	tasks  []taskInfo
}

// boardColumns are the non-empty status columns, in the lifecycle's order,
// each in the list's order (priority, then id).
func (p *taskPanel) boardColumns() []boardColumn {
	var cols []boardColumn
	for _, s := range protocol.TaskStatuses {
		var ts []taskInfo
		for _, t := range p.tasks {
			if t.Status == s {
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			cols = append(cols, boardColumn{status: s, tasks: ts})
		}
	}
	return cols
}

// boardSelected is the board's selected task's id, or "".
func (p *taskPanel) boardSelected() string {
	cols := p.boardColumns()
	if p.boardCol >= len(cols) {
		return ""
	}
	col := cols[p.boardCol]
	if p.boardRow < 0 || p.boardRow >= len(col.tasks) {
		return ""
	}
	return col.tasks[p.boardRow].ID
}

// boardKey handles a key while the board is open.
func (p *taskPanel) boardKey(k tea.KeyPressMsg) tea.Cmd {
	cols := p.boardColumns()
	ts := &p.taskState
	switch k.String() {
	case "h", "left":
		if ts.boardCol > 0 {
			ts.boardCol--
			ts.boardRow = min(ts.boardRow, len(cols[ts.boardCol].tasks)-1) // the same row when it has one
		}
	case "l", "right":
		if ts.boardCol+1 < len(cols) {
			ts.boardCol++
			ts.boardRow = min(ts.boardRow, len(cols[ts.boardCol].tasks)-1)
		}
	case "j", "down":
		if ts.boardCol < len(cols) && ts.boardRow+1 < len(cols[ts.boardCol].tasks) {
			ts.boardRow++
		}
	case "k", "up":
		if ts.boardRow > 0 {
			ts.boardRow--
		}
	case "enter":
		return p.openModal(p.boardSelected(), modeTaskBoard)
	case "p":
		p.closeBoard()
		return p.cycleDock()
	case "esc", "q", "ctrl+c":
		p.closeBoard()
	}
	return nil
}

// boardRect is where the board is drawn: the window right of the sidebar,
// the tab bar's row left alone.
func (p *taskPanel) boardRect(g geometry) protocol.Rect {
	r := protocol.Rect{X: g.sidebarW, Y: 0, Width: g.w - g.sidebarW, Height: g.h}
	switch {
	case g.barY == 0:
		r.Y, r.Height = 1, g.h-1
	case g.barY > 0:
		r.Height = g.h - 1
	}
	return r
}

// boardLayout places the columns: each as wide as the board allows, at
// least boardMinCol; the columns that do not fit are scrolled to keep the
// selected one in sight. It returns the first column shown and the width.
const boardMinCol = 16

func (p *taskPanel) boardLayout(r protocol.Rect, n int) (first, colW int) {
	if n == 0 {
		return 0, r.Width
	}
	fit := max((r.Width-1)/boardMinCol, 1)
	shown := min(n, fit)
	colW = (r.Width - 1) / shown
	first = min(max(p.boardCol-shown+1, 0), n-shown)
	return first, colW
}

// drawBoard draws the full board over the panes and the dock.
func (p *taskPanel) drawBoard(c *canvas, g geometry, th *theme) {
	r := p.boardRect(g)
	if r.Width < 10 || r.Height < 4 {
		return
	}
	c.fill(r.X, r.Y, r.Width, r.Height, " ", cellStyle{})
	th.box(c, r.X, r.Y, r.Width, r.Height, " task board · h/l j/k · enter activity · p dock · esc ")
	if p.fleetNote != "" { // on the bottom border: why the fleet's tasks may be stale
		c.text(r.X+2, r.Y+r.Height-1, " "+p.fleetNote+" ", r.Width-4, th.dim)
	}
	inner := protocol.Rect{X: r.X + 1, Y: r.Y + 1, Width: r.Width - 2, Height: r.Height - 2}
	cols := p.boardColumns()
	if len(cols) == 0 {
		msg := "no tasks: herdr task create --title …"
		if !p.have {
			msg = "reading tasks…"
		}
		c.text(inner.X+1, inner.Y, msg, inner.Width-1, th.dim)
		return
	}
	first, colW := p.boardLayout(inner, len(cols))
	for ci := first; ci < len(cols); ci++ {
		x := inner.X + (ci-first)*colW
		if x+colW > inner.X+inner.Width {
			break
		}
		col := cols[ci]
		glyph, gst := taskGlyph(th, col.status)
		c.text(x+1, inner.Y, glyph, 1, gst)
		c.text(x+3, inner.Y, col.status+" ("+strconv.Itoa(len(col.tasks))+")", colW-4, th.header)
		rows := inner.Height - 1
		top := 0
		if ci == p.boardCol {
			top = max(p.boardRow-rows+1, 0)
		}
		for ri := top; ri < len(col.tasks) && ri-top < rows; ri++ {
			y := inner.Y + 1 + ri - top
			st := cellStyle{}
			if ci == p.boardCol && ri == p.boardRow {
				st = th.selected
				c.fill(x, y, colW-1, 1, " ", st)
			}
			c.text(x+1, y, taskRowText(col.tasks[ri]), colW-2, st)
		}
	}
}

// boardTaskAt is the board cell under window cell (x, y): column, row and
// ok.
func (p *taskPanel) boardTaskAt(g geometry, x, y int) (ci, ri int, ok bool) {
	r := p.boardRect(g)
	inner := protocol.Rect{X: r.X + 1, Y: r.Y + 1, Width: r.Width - 2, Height: r.Height - 2}
	cols := p.boardColumns()
	first, colW := p.boardLayout(inner, len(cols))
	if colW <= 0 || x < inner.X || y <= inner.Y || y >= inner.Y+inner.Height {
		return 0, 0, false
	}
	ci = first + (x-inner.X)/colW
	if ci >= len(cols) {
		return 0, 0, false
	}
	top := 0
	if ci == p.boardCol {
		top = max(p.boardRow-(inner.Height-1)+1, 0)
	}
	ri = top + y - inner.Y - 1
	if ri >= len(cols[ci].tasks) {
		return 0, 0, false
	}
	return ci, ri, true
}

// --- the activity modal --------------------------------------------------------

// modalLines are the activity modal's lines: the task's identity, status
// and assignment, then its activity newest first, in loc's time.
func modalLines(t taskInfo, full bool, loc *time.Location) []string {
	lines := []string{t.ID + "  " + t.Title}
	head := "status " + t.Status + " · priority " + strconv.FormatInt(t.Priority, 10) + " · attempts " + strconv.Itoa(t.Attempts)
	lines = append(lines, head)
	if a := t.Assignee; a != nil {
		s := "assignee " + a.Target
		if a.PaneID != "" && a.PaneID != a.Target {
			s += " (" + a.PaneID + ")"
		}
		lines = append(lines, s)
	}
	if t.Fleet {
		s := "fleet task"
		if w := t.Worker; w != nil && w.Machine != "" {
			s += " · running on " + w.Machine
		}
		if len(t.Requires) > 0 {
			s += " · requires " + strings.Join(t.Requires, ", ")
		}
		lines = append(lines, s)
	}
	if w := t.Worker; w != nil {
		s := "worker"
		for _, part := range []string{w.WorkspaceID, w.PaneID, w.Branch} {
			if part != "" {
				s += " " + part
			}
		}
		lines = append(lines, s)
	}
	if t.AgentSessionID != "" {
		lines = append(lines, "agent session "+t.AgentSessionID)
	}
	if t.Cwd != "" {
		lines = append(lines, "cwd "+t.Cwd)
	}
	if len(t.DependsOn) > 0 {
		lines = append(lines, "depends on "+strings.Join(t.DependsOn, ", "))
	}
	if t.Description != "" {
		lines = append(lines, "")
		lines = append(lines, strings.Split(t.Description, "\n")...)
	}
	lines = append(lines, "", "activity, newest first")
	if !full {
		return append(lines, "  reading…")
	}
	acts := slices.Clone(t.Activities)
	slices.SortStableFunc(acts, func(a, b protocol.TaskActivity) int {
		if c := cmp.Compare(b.AtMS, a.AtMS); c != 0 {
			return c
		}
		return cmp.Compare(b.Seq, a.Seq)
	})
	for _, a := range acts {
		lines = append(lines, "  "+activityText(a, loc))
	}
	if len(acts) == 0 {
		lines = append(lines, "  none")
	}
	return lines
}

// activityText is one activity as the modal shows it.
func activityText(a protocol.TaskActivity, loc *time.Location) string {
	s := time.UnixMilli(a.AtMS).In(loc).Format("2006-01-02 15:04:05") + " " + a.Kind
	switch {
	case a.From != "" && a.Status != "":
		s += " " + a.From + " → " + a.Status
	case a.Status != "":
		s += " " + a.Status
	}
	if a.Message != "" {
		s += ": " + a.Message
	}
	if a.Source != "" {
		s += " (" + a.Source + ")"
	}
	return s
}

// modalRect is the modal's frame: most of the window, centred.
func (p *taskPanel) modalRect(g geometry) protocol.Rect {
	w := min(max(g.w*4/5, 20), g.w)
	h := min(max(g.h*4/5, 6), g.h)
	return protocol.Rect{X: (g.w - w) / 2, Y: (g.h - h) / 2, Width: w, Height: h}
}

// modalBody is the lines of the open modal and how many fit.
func (p *taskPanel) modalBody(g geometry) (lines []string, rows int) {
	md := p.modal
	lines = modalLines(md.task, md.full, time.Local)
	if md.err != nil {
		lines = append(lines, "  "+protocol.Printable(md.err.Error()))
	}
	return lines, p.modalRect(g).Height - 2
}

// scrollModal moves the modal's view by n lines, within its lines.
func (p *taskPanel) scrollModal(g geometry, n int) {
	lines, rows := p.modalBody(g)
	p.modal.scroll = min(max(p.modal.scroll+n, 0), max(len(lines)-rows, 0))
}

// modalKey handles a key while the activity modal is open.
func (p *taskPanel) modalKey(k tea.KeyPressMsg, g geometry) tea.Cmd {
	_, rows := p.modalBody(g)
	switch k.String() {
	case "j", "down":
		p.scrollModal(g, 1)
	case "k", "up":
		p.scrollModal(g, -1)
	case "pgdown", "space":
		p.scrollModal(g, max(rows-1, 1))
	case "pgup":
		p.scrollModal(g, -max(rows-1, 1))
	case "esc", "q", "h", "left", "ctrl+c":
		from := p.modal.from
		p.modal, *p.mode = nil, from
		if from == modeTaskBoard && !p.board || from == modeTaskDock && p.dock == dockHidden {
			*p.mode = modeTerminal
		}
	}
	return nil
}

// drawModal draws the activity modal over everything.
func (p *taskPanel) drawModal(c *canvas, g geometry, th *theme) {
	r := p.modalRect(g)
	if r.Width < 8 || r.Height < 3 {
		return
	}
	lines, rows := p.modalBody(g)
	top := min(p.modal.scroll, max(len(lines)-rows, 0))
	th.listBox(c, r.X, r.Y, r.Width, r.Height, " activity · j/k pgup/pgdn · esc ", lines[top:], -1, rows)
}

// --- the global menu -----------------------------------------------------------

// The global menu's items (Herdr's labels).
const (
	itemTaskPanel = "task panel"
	itemTaskBoard = "task board"
)

// globalMenu is the menu of a sidebar header at the click: the task dock
// and board, while the server has tasks (nil: no menu).
func (p *taskPanel) globalMenu(ev mouseMsg) *menuState {
	if p.unsupported {
		return nil
	}
	return &menuState{kind: menuGlobal, x: ev.X, y: ev.Y, items: []string{itemTaskPanel, itemTaskBoard}}
}

func (p *taskPanel) menuItem(item string) tea.Cmd {
	switch item {
	case itemTaskPanel:
		return p.cycleDock()
	case itemTaskBoard:
		return p.openBoard()
	}
	return nil
}

// --- the mouse -----------------------------------------------------------------

// mouse handles the mouse over the board, the modal and the dock;
// false lets the event through.
func (p *taskPanel) mouse(ev mouseMsg, g geometry) (tea.Cmd, bool) {
	press := ev.Action == mousePress && ev.Button == tea.MouseLeft
	if p.modal != nil {
		if n := wheelLines(ev, 1); n != 0 {
			p.scrollModal(g, -n)
		}
		return nil, true
	}
	if p.board {
		if press {
			if ci, ri, ok := p.boardTaskAt(g, ev.X, ev.Y); ok {
				p.boardCol, p.boardRow = ci, ri
				return p.openModal(p.boardSelected(), modeTaskBoard), true
			}
		}
		return nil, true
	}
	d := g.dock
	if d.Width == 0 || ev.X < d.X || ev.X >= d.X+d.Width || ev.Y < d.Y || ev.Y >= d.Y+d.Height {
		if press && *p.mode == modeTaskDock {
			*p.mode = modeTerminal // a click elsewhere takes the keys back there
		}
		return nil, false
	}
	if n := wheelLines(ev, 1); n != 0 {
		p.dockTop = max(p.dockTop-n, 0)
		return nil, true
	}
	if !press {
		return nil, true
	}
	i := p.dockRowAt(g, ev.Y)
	if i >= 0 && *p.mode == modeTaskDock && p.tasks[i].ID == p.dockSel {
		return p.openModal(p.dockSel, modeTaskDock), true // the selected row again
	}
	if i >= 0 {
		p.dockSel = p.tasks[i].ID
	}
	*p.mode = modeTaskDock
	return nil, true
}
