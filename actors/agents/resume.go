package agents

import (
	"path/filepath"
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

// ResumeArgv is the command resuming ref, or nil when ref is not an
// official integration's valid reference.
func ResumeArgv(ref *protocol.AgentSessionInfo) []string {
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
	key := ref.Source + "\x00" + ref.Agent + "\x00" + ref.Kind + "\x00" + ref.Value
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
	a.resumes = append(a.resumes, pendingResume{termID: m.TermID, argv: argv})
}

// startResumes types each pending resume into its pane's shell; a pane
// closed meanwhile is passed over. The pane's answer carries token 0,
// which no input of the actor's has, so it is dropped.
func (a *Agents) startResumes() {
	for _, p := range a.resumes {
		r := a.recs[p.termID]
		if r == nil {
			continue
		}
		a.opts.Log.Info("resuming agent", "pane", r.PaneID, "argv", p.argv)
		a.ctx.Request(r.PID, &pane.AgentRequest{Op: pane.AgentLaunch, Req: pane.Request{PaneID: r.PaneID}, Argv: p.argv})
	}
	a.resumes = nil
}
