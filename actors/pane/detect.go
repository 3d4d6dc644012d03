package pane

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/emulator"
)

// The pane tells its detector (actors/detector, its child) a snapshot
// after output — at most every detectEvery, and once more shortly after
// output stops — so an idle pane costs nothing and a server with many idle
// panes stays near zero CPU.
const detectEvery = 250 * time.Millisecond

// SetCatalog replaces the agent manifests (server.reload_agent_manifests).
type SetCatalog struct{ Catalog *rules.Catalog }

// detectTick asks for a refresh after output went quiet.
type detectTick struct{}

// The detector is spawned by the first snapshot or walk that needs it
// (detectorPID) and let go once the pane has been quiet for quietAfter
// with its shell alone in front and no agent (idleDetector): an idle
// shell's pane holds no detector actor, and any output, input, refresh
// or walk brings one back. A detector at such a pane holds nothing the
// next one does not rebuild from its first snapshot: the holds of an
// agent's state (its only timer) need an agent, and its last result only
// spares a repeat of the same Saw.

// detection is what the pane keeps of its detector's work.
type detection struct {
	pid       *actor.PID // the detector; nil while there is none (its rules: spec.Catalog)
	last      time.Time  // when a snapshot was last sent
	tickArmed bool
	idled     bool   // the detector was let go once (idleDetector)
	seen      uint64 // the revision of the newest result applied
	agent     string
	state     rules.State
}

// refreshSoon re-reads the process facts (foreground cwd, agent and its
// state) now if they were not read lately, else once the window passes, so
// a change followed by silence (a quiet cd) is still seen.
// Output right after input is someone's echo: the screen read and the
// detector's process walk wait echoWindow, so they share neither the
// echo's turn nor, on a small machine, its core.
func (p *Pane) refreshSoon(ctx actor.Context) {
	if wait := refreshWait(time.Since(p.det.last), time.Since(p.typedAt)); wait > 0 {
		p.armTick(ctx, wait)
		return
	}
	p.refresh(ctx)
}

// refreshWait is how long a refresh waits, given the time since the last
// one and since the last input: zero for now.
func refreshWait(sinceRefresh, sinceInput time.Duration) time.Duration {
	if sinceRefresh >= detectEvery && sinceInput >= echoWindow {
		return 0
	}
	return max(detectEvery-sinceRefresh, echoWindow)
}

func (p *Pane) armTick(ctx actor.Context, after time.Duration) {
	if p.det.tickArmed {
		return
	}
	p.det.tickArmed = true
	p.timers.After(ctx, after, &detectTick{})
}

// refresh tells the detector what the terminal shows now.
func (p *Pane) refresh(ctx actor.Context) {
	p.det.last = time.Now()
	snap := &detector.Snapshot{Revision: p.term.Revision(), Title: p.title}
	if p.running() {
		snap.Shell, snap.Group = p.con.Pid(), p.con.ForegroundGroup()
	}
	if p.spec.Catalog != nil {
		text := p.term.Read(emulator.ReadOptions{Source: emulator.SourceDetection}).Text
		snap.Lines = strings.Split(text, "\n")
	}
	snap.Pane, snap.Log = ctx.Self(), p.spec.Log
	ctx.Send(p.detectorPID(ctx), snap)
	p.checkLaunch(ctx)
}

// saw applies a detector result, unless a newer one was applied already,
// and tells the session what changed.
func (p *Pane) saw(ctx actor.Context, r *detector.Saw) {
	if r.Revision < p.det.seen {
		return
	}
	p.det.seen = r.Revision
	p.described(ctx, r.Job, false)
	p.det.agent, p.det.state = r.Agent, r.State
	f := p.facts
	f.Agent, f.AgentState = r.Agent, string(r.State)
	if r.Cwd != "" {
		f.ForegroundCwd = r.Cwd
	}
	f.Job = p.jobKind(r.Job)
	if f != p.facts {
		p.facts = f
		p.sendFacts(ctx)
	}
	if p.det.pid == nil && !p.atShell() && !p.exited {
		// The result of a snapshot a detector let go took (idleDetector)
		// says a program runs after all: watch it again.
		p.refreshSoon(ctx)
	}
	p.idleDetector(ctx)
}

// jobKind says whether job, a walk of the terminal's foreground, is the
// shell alone or a program it started. A child in the shell's own group
// (a shell without job control) is a program too.
func (p *Pane) jobKind(job detector.Job) JobKind {
	if !p.running() || job.Group <= 0 {
		return JobUnknown
	}
	shell := p.con.Pid()
	if job.Group != shell {
		return JobOther
	}
	for _, pr := range job.Processes {
		if pr.PID != shell {
			return JobOther
		}
	}
	return JobShell
}

// jobWalked keeps what a walk made for a Describe says holds the terminal.
func (p *Pane) jobWalked(ctx actor.Context, job detector.Job) {
	if k := p.jobKind(job); k != JobUnknown && k != p.facts.Job {
		p.facts.Job = k
		p.sendFacts(ctx)
	}
}

// detectorPID is the pane's detector, spawned now if it has none. It is
// spawned from the root, supervised by its props' guardian
// (Runtime.detectorProps), and watched: a child would make the pane's
// context keep a set of children (protoactor keeps it, and a removed
// child's PID in it, for good), some 500 bytes an idle pane would carry.
func (p *Pane) detectorPID(ctx actor.Context) *actor.PID {
	if p.det.pid == nil {
		p.det.pid = ctx.ActorSystem().Root.Spawn(p.rt.detectorProps(p.spec.Catalog))
		ctx.Watch(p.det.pid)
		p.rt.detecting.Add(1)
	}
	return p.det.pid
}

// atShell reports whether the detector's last word is that the shell is
// alone in front and no agent runs: nothing to detect until output.
func (p *Pane) atShell() bool {
	return p.facts.Job == JobShell && p.det.agent == ""
}

// idleDetector lets the detector go when the pane is at its shell, has
// been quiet for quietAfter, and nothing waits for a walk or a refresh. A
// poison pill, not a stop: it ends after the snapshots it has queued, and
// their results still come (saw).
func (p *Pane) idleDetector(ctx actor.Context) {
	if p.det.pid == nil || !p.atShell() || p.det.tickArmed || p.jobs.busy() ||
		p.launch != nil || time.Since(p.quiet.changed) < quietAfter {
		return
	}
	p.dropDetector(ctx, ctx.Poison)
	// Its last walk, long past jobFresh, answers no pane.process_info, and
	// nothing waits for a walk (busy): the cache goes with it.
	p.jobs = nil
	if !p.det.idled {
		// The first time a pane settles, what its start left (the spawn's,
		// the shell's first output's and walks' garbage) goes back to the
		// system: one trim for all the panes settling within trimAfter.
		p.det.idled = true
		p.rt.trimSoon()
	}
}

// dropDetector ends the detector (poison or stop) unwatched: its end is
// counted now and tells the pane nothing.
func (p *Pane) dropDetector(ctx actor.Context, end func(*actor.PID)) {
	if p.det.pid == nil {
		return
	}
	ctx.Unwatch(p.det.pid)
	end(p.det.pid)
	p.det.pid = nil
	p.rt.detecting.Add(-1)
}

// detectorEnded reports whether who, ended, is the pane's detector, which
// gave up (its supervision's restarts ran out): the next need spawns
// another.
func (p *Pane) detectorEnded(who *actor.PID) bool {
	if p.det.pid == nil || !who.Equal(p.det.pid) {
		return false
	}
	p.det.pid = nil
	if p.jobs != nil {
		p.jobs.walking = false
	}
	p.rt.detecting.Add(-1)
	return true
}
