package pane

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// pane.process_info is answered from the foreground job the detector
// walked (actors/detector), never by walking processes in the pane's
// Receive. The pane keeps the newest walk; one made for the screen's
// current revision, of the job in front now, and at most jobFresh old
// answers at once. Otherwise the pane asks the detector for a walk
// (Describe) and answers every request that came meanwhile when it
// replies.
const jobFresh = 100 * time.Millisecond

// jobCache is the newest walk and the requests waiting for the next one.
type jobCache struct {
	job    *detector.Job
	at     time.Time // when it came
	asking []infoAsk // waiting for a Described
	// launches are agent launches waiting for a walk to name the shell
	// they type into (launch.go).
	launches []launchAsk
	walking  bool // a Describe is out
}

// waiting reports whether anything waits for a Described (none without
// a cache).
func (c *jobCache) waiting() bool { return c != nil && (len(c.asking) > 0 || len(c.launches) > 0) }

// busy reports whether a walk is out or anything waits for one.
func (c *jobCache) busy() bool { return c != nil && (c.walking || c.waiting()) }

// jobsOf returns the pane's job cache, made at first need.
func (p *Pane) jobsOf() *jobCache {
	if p.jobs == nil {
		p.jobs = new(jobCache)
	}
	return p.jobs
}

// walkNow asks the detector for a walk of the job in front now, unless
// one is out already.
func (p *Pane) walkNow(ctx actor.Context) {
	c := p.jobsOf()
	if c.walking {
		return
	}
	c.walking = true
	ctx.Send(p.detectorPID(ctx), &detector.Describe{Revision: p.term.Revision(), Shell: p.con.Pid(), Group: p.con.ForegroundGroup(), Pane: ctx.Self(), Log: p.spec.Log})
}

type infoAsk struct {
	to     *actor.PID
	paneID string
}

// running reports whether the pane's child is still there to ask about.
func (p *Pane) running() bool { return p.con != nil && !p.exited }

// foregroundGroup is the job that owns the terminal now, or 0 when unknown.
func (p *Pane) foregroundGroup() int {
	if !p.running() {
		return 0
	}
	return p.con.ForegroundGroup()
}

func (p *Pane) processInfo(ctx actor.Context, req *Request) *kit.Reply {
	if !p.running() {
		return kit.Done(protocol.PaneProcessInfoResult{ProcessInfo: protocol.PaneProcessInfo{PaneID: req.PaneID}})
	}
	group := p.con.ForegroundGroup()
	c := p.jobsOf()
	if j := c.job; group <= 0 || (j != nil && j.Group == group && j.Revision == p.term.Revision() && time.Since(c.at) < jobFresh) {
		return kit.Done(protocol.PaneProcessInfoResult{ProcessInfo: processInfo(req.PaneID, p.con, &detector.Job{Group: group}, c.job)})
	}
	c.asking = append(c.asking, infoAsk{to: ctx.Sender(), paneID: req.PaneID})
	p.walkNow(ctx)
	return nil
}

// described keeps a walk the detector made (for a Describe, or after
// output) and answers the requests waiting for one.
func (p *Pane) described(ctx actor.Context, job detector.Job, asked bool) {
	c := p.jobsOf()
	c.job, c.at = &job, time.Now()
	if !asked {
		return
	}
	c.walking = false
	for _, a := range c.asking {
		info := protocol.PaneProcessInfo{PaneID: a.paneID}
		if p.running() {
			info = processInfo(a.paneID, p.con, &job, &job)
		}
		ctx.Send(a.to, kit.Done(protocol.PaneProcessInfoResult{ProcessInfo: info}))
	}
	clear(c.asking)
	c.asking = c.asking[:0]
	p.launchWalked(ctx, &job)
}

// processInfo is the wire form of con's shell and job (a group of 0 has
// no job); walked holds the processes when it is job's walk.
func processInfo(paneID string, con console, job, walked *detector.Job) protocol.PaneProcessInfo {
	info := protocol.PaneProcessInfo{PaneID: paneID, ShellPID: protocol.Ptr(uint32(con.Pid()))}
	if tty := con.TTY(); tty != "" {
		info.TTY = protocol.Ptr(tty)
	}
	if job.Group <= 0 {
		return info
	}
	info.ForegroundProcessGroupID = protocol.Ptr(uint32(job.Group))
	if walked == nil || walked.Group != job.Group {
		return info
	}
	for _, e := range walked.Processes {
		proc := protocol.PaneProcessInfoProcess{PID: uint32(e.PID), Name: e.Name}
		if len(e.Argv) > 0 {
			proc.Argv = e.Argv
			proc.Argv0 = protocol.Ptr(e.Argv[0])
			proc.Cmdline = protocol.Ptr(strings.Join(e.Argv, " "))
		}
		if e.Cwd != "" {
			proc.Cwd = protocol.Ptr(e.Cwd)
		}
		info.ForegroundProcesses = append(info.ForegroundProcesses, proc)
	}
	return info
}
