package server

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/gateway"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/loop"
	"github.com/herdr-go/herdr/actors/pane"
	panesup "github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/actors/web"
	"github.com/herdr-go/herdr/protocol"
)

// Live handoff (server.live_handoff): this server starts a new one and
// gives it, over a socket pair, the listening socket, every terminal's
// master descriptor (SCM_RIGHTS) and a versioned state: the topology with
// terminal ids, each emulator's state, the agents' records and the event
// bus's retained history with its next sequence number. The new server adopts all of it and says it is ready; this one
// takes that as a claim only and checks it (confirmHeir): the new server
// must answer on the socket, which only it accepts on now, with every
// pane handed over. Then this one answers, closes its connections (their
// clients reconnect) and exits without touching a terminal. Until then
// nothing is lost: a failure at any step (a new process that fails, times
// out, or says ready without serving the panes, which is then killed)
// thaws the panes and resumes accepting, and this server goes on as
// before (output a killed new server had already read from a terminal is
// the only thing missing from that pane's screen).
//
// What moves is paused first: the accept loop (new clients wait in the
// socket's backlog) and each pane's reader (output waits in the kernel's
// buffer), so no byte is read twice or by nobody.

// handoffVersion is the version of handoffState; a new binary refuses
// any other and says so.
const handoffVersion = 1

// handoffEnv names the descriptor a new server reads its handoff from.
const handoffEnv = "HERDR_HANDOFF_FD"

// handoffTimeout bounds each step: freezing, the new server's start.
const handoffTimeout = 20 * time.Second

// confirmTimeout bounds the check of a new server's "ready": it already
// serves when it says so, so a pane list is all it has to answer.
const confirmTimeout = 10 * time.Second

// handoffState is everything but the descriptors. Panes[i] goes with the
// i-th master descriptor; the listener's comes first.
type handoffState struct {
	Version          int
	ExpectedProtocol *uint32
	ExpectedVersion  *string
	Saved            model.Saved
	Panes            []handedPane
	Agents           *agents.Carried
	// NextSeq is Events.NextSeq, kept for a new binary that predates
	// Events (gob leaves a field the reader does not know out).
	NextSeq uint64
	// Events is the bus's retained history, so a subscriber resumes
	// across the handoff with its since_seq; nil from an older server.
	Events *events.Carried
	// Web is the running dashboard, whose listener is the last
	// descriptor: the new server serves it at once, with its token; nil
	// when it was not running.
	Web *web.Carried
}

type handedPane struct {
	TerminalID string
	Pid        int
	TTY        string
	Emulator   []byte
}

// handoffActors are the actors a handoff freezes and reads.
type handoffActors struct {
	system               *actor.ActorSystem
	session, agents, bus *actor.PID
	tasks                *actor.PID
	clients              *actor.PID // holds the sidebar state the saved session carries
	panes                *actor.PID // the pane actors' supervisor: the actors to freeze
	web                  *actor.PID
	loop                 *actor.PID // queued prompts: on disk before the heir reads them
	gateway              *actor.PID
	root                 *actor.PID // runs h.exit when its timer fires
	listener             net.Listener
	socket               string // the listener's path, to check the new server on
	gate                 *gateway.AcceptGate
	log                  *slog.Logger
	args                 []string // this server's command line, for the new one
	bin                  string   // this server's binary (a go run one copied to stay)
	exit                 func()
	busy                 chan struct{} // one handoff at a time
}

// handoff runs one handoff; done gets its answer.
func (h *handoffActors) handoff(prm *protocol.ServerLiveHandoffParams, done func(*kit.Reply, func())) {
	select {
	case h.busy <- struct{}{}:
	default:
		done(kit.Fail(protocol.Errorf(protocol.CodeHandoffFailed, "a live handoff is already in progress")), nil)
		return
	}
	go func() {
		start := time.Now()
		err := h.run(prm)
		if err != nil {
			<-h.busy
			h.log.Error("live handoff failed; this server goes on", "err", err)
			done(kit.Fail(protocol.Errorf(protocol.CodeHandoffFailed, "live handoff failed; this server goes on: %v", err)), nil)
			return
		}
		h.log.Info("live handoff done; exiting", "pause", time.Since(start))
		done(kit.OK(), func() {
			h.system.Root.Send(h.gateway, &gateway.HangupAll{Err: protocol.Errorf(protocol.CodeServerUnavailable,
				"the server was handed over to a new process; reconnect")})
			h.system.Root.Send(h.web, &web.Release{})
			// Exit once the hangups are written: a timer of the actor
			// system's scheduler, run by the root actor (runNow).
			scheduler.NewTimerScheduler(h.system.Root).SendOnce(200*time.Millisecond, h.root, &runNow{fn: h.exit})
		})
	}()
}

// run freezes what moves, hands it to a new server and waits for it.
func (h *handoffActors) run(prm *protocol.ServerLiveHandoffParams) (err error) {
	exe := h.bin // by default the same binary: a restart without a restart
	if prm.ImportExe != nil {
		exe = *prm.ImportExe
	}
	if fi, err := os.Stat(exe); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", exe)
	}
	if err := h.gate.Pause(h.listener); err != nil {
		return err
	}
	var frozen []*actor.PID
	exported := false
	defer func() {
		if err != nil {
			for _, pid := range frozen {
				h.system.Root.Send(pid, &pane.Thaw{})
			}
			if h.loop != nil {
				h.system.Root.Send(h.loop, &loop.Thaw{})
			}
			if exported {
				h.system.Root.Send(h.bus, &events.Resume{})
			}
			h.gate.Resume(h.listener)
		}
	}()
	ask := func(pid *actor.PID, msg any) (any, error) {
		res, err := h.system.Root.RequestFuture(pid, msg, handoffTimeout).Result()
		if r, ok := res.(*kit.Reply); ok && r.Err != nil {
			return nil, r.Err
		}
		return res, err
	}
	res, err := ask(h.session, &session.HandoffExport{})
	if err != nil {
		return err
	}
	topo := res.(*session.Handoff)
	if res, err = ask(h.panes, &panesup.List{}); err != nil {
		return err
	}
	paneActors := res.(*panesup.Listed).PIDs
	state := &handoffState{Version: handoffVersion, ExpectedProtocol: prm.ExpectedProtocol, ExpectedVersion: prm.ExpectedVersion, Saved: topo.Saved}
	lfd, err := listenerFD(h.listener)
	if err != nil {
		return err
	}
	fds := []int{lfd}
	for _, pid := range paneActors {
		res, err := ask(pid, &pane.Freeze{})
		if err != nil {
			return err
		}
		frozen = append(frozen, pid)
		f := res.(*pane.Frozen)
		state.Panes = append(state.Panes, handedPane{TerminalID: f.TerminalID, Pid: f.Pid, TTY: f.TTY, Emulator: f.Emulator})
		fds = append(fds, f.FD)
	}
	if res, err = ask(h.agents, &agents.Export{}); err != nil {
		return err
	}
	state.Agents = res.(*agents.Carried)
	// A running dashboard's listener goes last; one that cannot be
	// passed is not worth failing the handoff for: the new server
	// starts without it, saying so.
	if res, err = ask(h.web, &web.Export{}); err != nil {
		return err
	}
	if ex := res.(*web.Exported); ex.Carried != nil {
		if fd, err := listenerFD(ex.Listener); err != nil {
			h.log.Warn("live handoff: the web dashboard is not handed over; start it again with `herdr web`", "err", err)
		} else {
			state.Web = ex.Carried
			fds = append(fds, fd)
		}
	}
	// The task board rides in the saved session, as it does on disk.
	if res, err = ask(h.tasks, &tasks.Export{}); err != nil {
		return err
	}
	state.Saved.Tasks = res.(*model.SavedTasks)
	// So does the sidebar state, which the clients actor holds.
	if res, err = ask(h.clients, &clients.ExportUI{}); err != nil {
		return err
	}
	res.(model.UIState).SaveInto(&state.Saved)
	// The queues' newest version on disk, and no prompt started after it:
	// the new server reads queues.json as it starts.
	if h.loop != nil {
		if _, err = ask(h.loop, &loop.HandoffFlush{}); err != nil {
			return err
		}
	}
	// Last: from here on this bus numbers nothing (events wait until a
	// failed handoff resumes it), so the new server's numbers are its own.
	if res, err = ask(h.bus, &events.Export{}); err != nil {
		return err
	}
	exported = true
	state.Events = res.(*events.Carried)
	state.NextSeq = state.Events.NextSeq
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(state); err != nil {
		return err
	}
	want := handedTerminals(&topo.Saved)
	confirm := func() error { return confirmHeir(h.socket, want) }
	return startSuccessor(exe, h.args, fds, payload.Bytes(), confirm, h.log)
}

// handedTerminals lists the terminal ids of the panes of a handed-over
// topology, sorted: the panes the new server must serve.
func handedTerminals(saved *model.Saved) []string {
	var ids []string
	for _, w := range saved.Workspaces {
		for _, t := range w.Tabs {
			for _, p := range t.Panes {
				ids = append(ids, p.TerminalID)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// confirmHeir checks a new server's "ready", a mere line any program can
// write: while this server's accept loop is paused only the new process
// accepts on the socket, so a pane list from it, naming exactly the
// terminals handed over, shows that it adopted them and serves them.
func confirmHeir(socket string, want []string) error {
	c, err := protocol.Connect(socket)
	if err != nil {
		return fmt.Errorf("the new server said it was ready, but its socket cannot be reached: %w", err)
	}
	defer c.Close()
	_ = c.Conn().SetDeadline(time.Now().Add(confirmTimeout))
	resp, err := c.Do("handoff-confirm", "pane.list", nil)
	if err != nil {
		return fmt.Errorf("the new server said it was ready, but did not answer on the socket: %w", err)
	}
	if resp.Error != nil {
		return fmt.Errorf("the new server said it was ready, but answered pane.list with %s: %s", resp.Error.Code, resp.Error.Message)
	}
	var list protocol.PaneList
	if err := protocol.Unmarshal(resp.Result, &list); err != nil {
		return fmt.Errorf("the new server said it was ready, but its pane list is unreadable: %w", err)
	}
	got := make([]string, 0, len(list.Panes))
	for _, p := range list.Panes {
		got = append(got, p.TerminalID)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return fmt.Errorf("the new server said it was ready, but serves %d of the %d panes handed over (terminals %v, want %v)",
			countIn(got, want), len(want), got, want)
	}
	return nil
}

// countIn counts the items of got that are in want (both sorted).
func countIn(got, want []string) int {
	n := 0
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); ok {
			n++
		}
	}
	return n
}

// received is what a new server got from its predecessor.
type received struct {
	state    *handoffState
	listener net.Listener
	web      net.Listener        // the dashboard's, when it ran
	webErr   error               // why the dashboard's could not be taken
	masters  map[string]*os.File // by terminal id
	reply    func(msg string)    // "ready", or why not
}

// adoptions turns what was received into the session's Adopt option.
func (r *received) adoptions() map[string]pane.Adoption {
	out := map[string]pane.Adoption{}
	for _, p := range r.state.Panes {
		out[p.TerminalID] = pane.Adoption{Master: r.masters[p.TerminalID], Pid: p.Pid, TTY: p.TTY, Emulator: p.Emulator}
	}
	return out
}

// webAdoption is the dashboard handed over, for web.Options.Adopt (nil
// when none was running).
func (r *received) webAdoption() *web.Adopted {
	if r == nil || r.state.Web == nil || r.web == nil {
		return nil
	}
	return &web.Adopted{Carried: *r.state.Web, Listener: r.web}
}

// inherit reads a live handoff when this server was started by one
// (HERDR_HANDOFF_FD), else returns nil. The variable is cleared so that
// no pane inherits it.
func inherit(env func(string) string, log *slog.Logger) (*received, error) {
	v := env(handoffEnv)
	if v == "" {
		return nil, nil
	}
	os.Unsetenv(handoffEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q is not a descriptor", handoffEnv, v)
	}
	r, err := receiveHandoff(fd)
	if err != nil {
		log.Error("live handoff refused", "err", err)
		return nil, fmt.Errorf("live handoff refused: %w", err)
	}
	if r.webErr != nil {
		log.Warn("live handoff: the web dashboard's listener is unusable; start it again with `herdr web`", "err", r.webErr)
	}
	return r, nil
}

// history is the bus's part of the state: the history carried, or, from
// an older server that carried only its next number, that alone.
func (st *handoffState) history() *events.Carried {
	if st.Events != nil {
		return st.Events
	}
	return &events.Carried{NextSeq: st.NextSeq}
}
