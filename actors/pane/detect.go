package pane

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detect"
	"github.com/herdr-go/herdr/emulator"
)

// Detection runs in the pane actor, on the pane's own facts: it is redone
// after output (at most every detectEvery) and once more shortly after
// output stops, so an idle pane costs nothing and a server with many idle
// panes stays near zero CPU.
const (
	detectEvery = 250 * time.Millisecond
	// idleConfirm is how long a working → idle change without a visible
	// idle marker must hold before it is reported.
	idleConfirm = 300 * time.Millisecond
)

// SetCatalog replaces the agent manifests (server.reload_agent_manifests).
type SetCatalog struct{ Catalog *detect.Catalog }

// detectTick asks for a refresh after output went quiet.
type detectTick struct{}

// detector is the detection state of one pane.
type detector struct {
	catalog    *detect.Catalog
	last       time.Time // when detection last ran
	tickArmed  bool
	agent      string
	state      detect.State
	idleSince  time.Time // when a working → idle change was first seen
	lastResult detect.Result
}

// refreshSoon re-reads the process facts (foreground cwd, agent and its
// state) now if they were not read lately, else once the window passes, so
// a change followed by silence (a quiet cd) is still seen.
func (p *Pane) refreshSoon(ctx actor.Context) {
	if time.Since(p.det.last) >= detectEvery {
		p.refresh(ctx)
		return
	}
	p.armTick(ctx, detectEvery-time.Since(p.det.last))
}

func (p *Pane) armTick(ctx actor.Context, after time.Duration) {
	if p.det.tickArmed {
		return
	}
	p.det.tickArmed = true
	p.timers.After(ctx, after, &detectTick{})
}

// refresh reads the foreground cwd, recognises the agent in the
// foreground and evaluates its screen rules, telling the session what changed.
func (p *Pane) refresh(ctx actor.Context) {
	p.det.last = time.Now()
	changed := false
	if cwd := p.foregroundCwd(); cwd != "" && cwd != p.facts.ForegroundCwd {
		p.facts.ForegroundCwd = cwd
		changed = true
	}
	if p.det.catalog != nil && p.detectAgent(ctx) {
		changed = true
	}
	if changed {
		p.sendFacts(ctx)
	}
}

// detectAgent updates the agent and its state; it reports a change.
func (p *Pane) detectAgent(ctx actor.Context) bool {
	agent := ""
	if procs := p.foregroundProcesses(); len(procs) > 0 {
		agent, _ = detect.Recognize(procs)
	}
	state := detect.StateUnknown
	if agent != "" {
		state = detect.StateIdle
		if m, ok := p.det.catalog.Get(agent); ok {
			text := p.term.Read(emulator.ReadOptions{Source: emulator.SourceDetection}).Text
			res := m.Evaluate(detect.Input{Lines: strings.Split(text, "\n"), Title: p.term.Title()})
			p.det.lastResult = res
			state = res.State
			if res.SkipStateUpdate && agent == p.det.agent {
				state = p.det.state
			}
			// A working agent that looks idle without saying so is held a
			// moment: spinners blink and redraws pass through blank frames.
			if state == detect.StateIdle && p.det.state == detect.StateWorking && !res.VisibleIdle && agent == p.det.agent {
				if p.det.idleSince.IsZero() {
					p.det.idleSince = time.Now()
				}
				if time.Since(p.det.idleSince) < idleConfirm {
					state = detect.StateWorking
					p.armTick(ctx, idleConfirm/3)
				}
			} else {
				p.det.idleSince = time.Time{}
			}
		}
	}
	if agent == p.det.agent && state == p.det.state {
		return false
	}
	p.det.agent, p.det.state = agent, state
	p.facts.Agent, p.facts.AgentState = agent, string(state)
	return true
}

// foregroundProcesses describes the terminal's foreground job for
// recognition.
func (p *Pane) foregroundProcesses() []detect.Process {
	group, procs := p.foregroundJob()
	var out []detect.Process
	for _, e := range procs {
		argv := hostProcesses.Argv(e.PID)
		if len(argv) == 0 {
			continue
		}
		proc := detect.Process{PID: e.PID, Leader: e.PID == group, Argv: argv}
		if v, ok := hostProcesses.Env(e.PID, detect.EnvAgentHint); ok {
			proc.Env = map[string]string{detect.EnvAgentHint: v}
		}
		out = append(out, proc)
	}
	return out
}
