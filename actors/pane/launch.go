package pane

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents/shellquote"
	"github.com/herdr-go/herdr/actors/detector"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// An agent.start's argv is quoted for the shell running in the pane now,
// not the one the pane was started with: a bash pane that ran `exec fish`
// runs fish, which reads '\' and '\'' inside single quotes as escapes, so
// bash's spelling of an argument would let it run a command. The launch
// waits for a walk of the job in front (the detector's Describe); the
// shell is that job's leader, by its process name. A walk that names no
// leader (the process table cannot be read) leaves the shell unknown,
// which takes only words that need no quoting in any shell; any other
// is refused with invalid_agent_argument, saying why.

// launchAsk is an AgentLaunch waiting for the walk that names the shell.
type launchAsk struct {
	to *actor.PID
	r  *AgentRequest
}

// launchWalked types the launches waiting for job, the walk just made.
func (p *Pane) launchWalked(ctx actor.Context, job *detector.Job) {
	if p.jobs == nil {
		return
	}
	asks := p.jobs.launches
	p.jobs.launches = nil
	for _, a := range asks {
		p.typeLaunch(ctx, a, job)
	}
}

// typeLaunch types one launch into the shell job names, once the shell
// is still idle.
func (p *Pane) typeLaunch(ctx actor.Context, a launchAsk, job *detector.Job) {
	answer := func(err error) { ctx.Send(a.to, &AgentInput{Token: a.r.Token, Err: err}) }
	if err := p.shellIdle(); err != nil {
		answer(err)
		return
	}
	shell := runningShell(job, p.con.Pid())
	line, err := shellquote.Line(shell, a.r.Argv)
	if err != nil {
		if shell == "" {
			answer(protocol.Errorf(protocol.CodeInvalidAgentArgument, "the shell running in the pane is not known, so only plain words can be typed: %v", err))
			return
		}
		answer(protocol.Errorf(protocol.CodeInvalidAgentArgument, "%v", err))
		return
	}
	err = p.inputErr([]byte(line+"\r"), protocol.CodeAgentStartInput)
	answer(err)
	if err == nil {
		p.watchLaunch(a.to, a.r.Token, a.r.Argv[0], line)
	}
}

// runningShell is the name of the program in front of the pane's
// terminal when it is the pane's own process (the shell, whatever it has
// exec'd since), as job's walk found it; "" when the walk does not say.
func runningShell(job *detector.Job, shellPID int) string {
	if job == nil || job.Group != shellPID {
		return ""
	}
	for _, pr := range job.Processes {
		if pr.PID == job.Group {
			return pr.Name
		}
	}
	return ""
}

// An agent.start types a command line into the pane's shell and answers
// at once; the agent is then named once it shows. When the shell gets the
// terminal back first (the program is not found, cannot run, or ended
// before it was recognised), the pane tells the launch's asker
// LaunchFailed with the shell's own words, so the caller learns it
// promptly instead of at the launch's timeout.

// launchWatchFor bounds how long a launch is watched: past it the program
// is the user's business.
const launchWatchFor = 5 * time.Minute

// LaunchFailed tells the agents actor that the agent a launch typed did
// not start (Token is the launch's AgentRequest.Token).
type LaunchFailed struct {
	TerminalID string
	Token      uint64
	Reason     string
}

// launchWatch is a launch typed into the pane, looked at with each
// detection snapshot (after output, and once it goes quiet) until its
// agent shows or the shell has the terminal back.
type launchWatch struct {
	to      *actor.PID
	token   uint64
	program string // the executable's name, as the shell's error names it
	line    string // the command line typed, as the shell echoes it
	at      time.Time
	away    bool // the program was seen owning the terminal
	// before is how many complaints naming the program the screen showed
	// as the launch was typed (an earlier launch's): only one more is
	// this launch's.
	before int
}

func (p *Pane) watchLaunch(to *actor.PID, token uint64, program, line string) {
	w := &launchWatch{to: to, token: token, program: filepath.Base(program), line: line, at: time.Now()}
	_, w.before = launchFailure(p.recentText(), line, w.program)
	p.launch = w
}

func (p *Pane) recentText() string {
	return p.term.Read(emulator.ReadOptions{Source: emulator.SourceRecent, Lines: 40}).Text
}

// checkLaunch looks at the watched launch as a snapshot goes to the
// detector (the agent is the last result's).
func (p *Pane) checkLaunch(ctx actor.Context) {
	w := p.launch
	switch {
	case w == nil:
		return
	case p.det.agent != "", time.Since(w.at) > launchWatchFor:
		p.launch = nil
		return
	case !p.running():
		p.launchFailed(ctx, "the pane's shell exited")
		return
	}
	if fg := p.con.ForegroundGroup(); fg > 0 && fg != p.con.Pid() {
		w.away = true
		return
	}
	if reason, n := launchFailure(p.recentText(), w.line, w.program); reason != "" && n > w.before {
		p.launchFailed(ctx, reason)
		return
	}
	if w.away {
		p.launchFailed(ctx, w.program+" ended before it was recognised as an agent")
	}
}

func (p *Pane) launchFailed(ctx actor.Context, reason string) {
	w := p.launch
	p.launch = nil
	ctx.Send(w.to, &LaunchFailed{TerminalID: p.spec.TerminalID, Token: w.token, Reason: reason})
}

// launchPhrases are how shells say a program cannot run: sh and bash
// ("not found", "command not found"), zsh, fish ("Unknown command"),
// PowerShell ("is not recognized"), and a file that is not executable.
var launchPhrases = []string{"not found", "unknown command", "is not recognized", "no such file or directory", "permission denied", "cannot execute"}

// launchFailure is the shell's complaint about program in text printed
// after the typed command line's last echo ("" when there is none), and
// how many complaints text holds in all.
func launchFailure(text, line, program string) (reason string, all int) {
	rows := strings.Split(text, "\n")
	echo := -1
	for i, row := range rows {
		c := complaint(row, program)
		switch {
		case c != "":
			all++
			if reason == "" && echo >= 0 {
				reason = c
			}
		case strings.Contains(row, line):
			echo, reason = i, "" // the echo: only what follows it is this launch's
		}
	}
	return reason, all
}

// complaint is row when it is a shell's error naming program.
func complaint(row, program string) string {
	row = strings.TrimSpace(row)
	if !strings.Contains(row, program) {
		return ""
	}
	lower := strings.ToLower(row)
	for _, ph := range launchPhrases {
		if strings.Contains(lower, ph) {
			return row
		}
	}
	return ""
}
