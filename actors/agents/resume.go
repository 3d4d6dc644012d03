package agents

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Agent resume: a restored pane whose agent's official integration
// reported its session starts that agent again on the same session, typed
// into the pane's new shell once an interactive client is there (agents
// draw for a real terminal size), or after resumeGrace without one. An
// invalid reference, or one a second pane also holds, leaves a plain shell.
// The session says which panes to resume as it restores them (a Resume
// each, before their first Placement) and when a client attaches
// (ClientAttached).

// resumeGrace is how long resumes wait for an interactive client.
const resumeGrace = 10 * time.Second

// Resume asks for a restored pane's agent to be resumed in its new shell.
type Resume struct {
	TermID  string
	Session protocol.AgentSessionInfo
}

// ClientAttached tells the actor an interactive client has sized the tab
// area: the pending resumes start now.
type ClientAttached struct{}

// resumeDue is the grace period ending.
type resumeDue struct{}

type pendingResume struct {
	termID string
	agent  string
	argv   []string
}

// resumeCommand is how each official integration's agent resumes a
// session: the executable, and the arguments around the reference.
var resumeCommand = map[string]struct {
	agent, exe string
	args       func(ref string) []string
	paths      bool // a path reference is accepted too
}{
	"herdr:claude":          {"claude", "claude", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:codex":           {"codex", "codex", func(r string) []string { return []string{"resume", r} }, false},
	"herdr:copilot":         {"copilot", "copilot", func(r string) []string { return []string{"--resume=" + r} }, false},
	"herdr:devin":           {"devin", "devin", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:droid":           {"droid", "droid", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:kimi":            {"kimi", "kimi", func(r string) []string { return []string{"--session", r} }, false},
	"herdr:mastracode":      {"mastracode", "mastracode", func(r string) []string { return []string{"--thread", r} }, false},
	"herdr:pi":              {"pi", "pi", func(r string) []string { return []string{"--session", r} }, true},
	"herdr:omp":             {"omp", "omp", func(r string) []string { return []string{"--resume=" + r} }, true},
	"herdr:hermes":          {"hermes", "hermes", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:opencode":        {"opencode", "opencode", func(r string) []string { return []string{"--session", r} }, false},
	"herdr:qodercli":        {"qodercli", "qodercli", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:qwen":            {"qwen", "qwen", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:kilo":            {"kilo", "kilo", func(r string) []string { return []string{"--session", r} }, false},
	"herdr:cursor":          {"cursor", "cursor-agent", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:antigravity_cli": {"agy", "agy", func(r string) []string { return []string{"--conversation", r} }, false},
	"herdr:grok":            {"grok", "grok", func(r string) []string { return []string{"--resume", r} }, false},
}

// ResumeArgv is the command resuming ref: the one its hook reported
// (resume_argv), else its official integration's; nil when there is
// neither, or the reference is not valid.
func ResumeArgv(ref *protocol.AgentSessionInfo) []string {
	if len(ref.ResumeArgv) > 0 {
		if protocol.ValidResumeArgv(ref.ResumeArgv) != nil { // a session file edited by hand
			return nil
		}
		return slices.Clone(ref.ResumeArgv)
	}
	c, ok := resumeCommand[ref.Source]
	if !ok || c.agent != ref.Agent || ref.Value == "" || strings.IndexFunc(ref.Value, unicode.IsControl) >= 0 {
		return nil
	}
	switch ref.Kind {
	case "id":
		if len(ref.Value) > 512 {
			return nil
		}
	case "path":
		if !c.paths || len(ref.Value) > 4096 || !filepath.IsAbs(ref.Value) {
			return nil
		}
	default:
		return nil
	}
	return append([]string{c.exe}, c.args(ref.Value)...)
}

// planResume queues a restored pane's agent resume, unless the reference
// is invalid or already taken by another pane.
func (a *Agents) planResume(m *Resume) {
	ref := &m.Session
	argv := ResumeArgv(ref)
	key := ref.Source + "\x00" + ref.Agent + "\x00" + ref.Kind + "\x00" + ref.Value + "\x00" + strings.Join(ref.ResumeArgv, "\x00")
	if argv == nil || a.resumeTaken[key] {
		a.opts.Log.Warn("agent not resumed: invalid or duplicate session reference", "terminal", m.TermID, "source", ref.Source)
		return
	}
	if a.resumeTaken == nil {
		a.resumeTaken = map[string]bool{}
	}
	a.resumeTaken[key] = true
	if len(a.resumes) == 0 {
		a.after(resumeGrace, &resumeDue{})
	}
	a.resumes = append(a.resumes, pendingResume{termID: m.TermID, agent: ref.Agent, argv: argv})
}

// resumeSpacing is the time between two resumed agents' starts (as in
// Herdr 0.9.2): a restart does not start every agent at the same moment.
// A variable so a test can hold the next start back.
var resumeSpacing = 100 * time.Millisecond

// resumeNext is the spacing after one resume ending: the next one starts.
type resumeNext struct{}

// startResumes starts the pending resumes, one now and each next one
// resumeSpacing later, unless that chain is already running.
func (a *Agents) startResumes() {
	if !a.resumeChain {
		a.resumeOne()
	}
}

// resumeOne types the first pending resume into its pane's shell (a pane
// closed meanwhile is passed over) and times the next. The pane's answer
// carries token 0, which no input of the actor's has, so it is dropped.
func (a *Agents) resumeOne() {
	a.resumeChain = false
	for len(a.resumes) > 0 {
		p := a.resumes[0]
		a.resumes = a.resumes[1:]
		r := a.recs[p.termID]
		if r == nil {
			continue
		}
		a.opts.Log.Info("resuming agent", "pane", r.PaneID, "argv", p.argv)
		a.hookOf(r).resuming = p.agent // a LaunchFailed of token 0 is this resume's (resumeFailed)
		a.ctx.Request(r.PID, &pane.AgentRequest{Op: pane.AgentLaunch, Req: pane.Request{PaneID: r.PaneID}, Argv: p.argv})
		if len(a.resumes) > 0 {
			a.resumeChain = true
			a.after(resumeSpacing, &resumeNext{})
		}
		return
	}
	a.resumes = nil
}

// resumeFailed records that a resumed agent did not start (the shell had
// the terminal back first, saying why): its pane's restore_error says so,
// as in Herdr, and the pane keeps its shell.
func (a *Agents) resumeFailed(r *rec, reason string) {
	h := a.hookOf(r)
	a.opts.Log.Warn("agent not resumed", "pane", r.PaneID, "agent", h.resuming, "reason", reason)
	h.restoreError = fmt.Sprintf("cannot resume %s: %s", h.resuming, reason)
	h.resuming = ""
	a.touch(r)
}
