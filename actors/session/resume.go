package session

import (
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Agent resume: a restored pane whose agent's official integration
// reported its session starts that agent again on the same session, typed
// into the pane's new shell once an interactive client is there (agents
// draw for a real terminal size), or after resumeGrace without one. An
// invalid reference, or one a second pane also holds, leaves a plain shell.

// resumeGrace is how long resumes wait for an interactive client.
const resumeGrace = 10 * time.Second

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
	"herdr:kilo":            {"kilo", "kilo", func(r string) []string { return []string{"--session", r} }, false},
	"herdr:cursor":          {"cursor", "cursor-agent", func(r string) []string { return []string{"--resume", r} }, false},
	"herdr:antigravity_cli": {"agy", "agy", func(r string) []string { return []string{"--conversation", r} }, false},
	"herdr:grok":            {"grok", "grok", func(r string) []string { return []string{"--resume", r} }, false},
}

// resumeArgv is the command resuming ref, or nil when ref is not an
// official integration's valid reference.
func resumeArgv(ref *protocol.AgentSessionInfo) []string {
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

// planResume queues a restored pane's agent resume, unless resuming is off
// or the reference is invalid or already taken by another pane.
func (s *Session) planResume(ctx actor.Context, termID string, ref *protocol.AgentSessionInfo, taken map[string]bool) {
	if !s.cfg.Session.ResumeAgentsOnRestore {
		return
	}
	argv := resumeArgv(ref)
	key := ref.Source + "\x00" + ref.Agent + "\x00" + ref.Kind + "\x00" + ref.Value
	if argv == nil || taken[key] {
		s.opts.Log.Warn("agent not resumed: invalid or duplicate session reference", "terminal", termID, "source", ref.Source)
		return
	}
	taken[key] = true
	if len(s.resumes) == 0 {
		s.timers.After(ctx, resumeGrace, &resumeDue{})
	}
	s.resumes = append(s.resumes, pendingResume{termID: termID, argv: argv})
}

// startResumes types each pending resume into its pane's shell.
func (s *Session) startResumes(ctx actor.Context) {
	for _, r := range s.resumes {
		p := s.terms[r.termID]
		if p == nil {
			continue
		}
		s.opts.Log.Info("resuming agent", "pane", p.ID, "argv", r.argv)
		ctx.Request(p.pid, &pane.AgentRequest{Op: pane.AgentLaunch, Req: pane.Request{PaneID: p.ID}, Argv: r.argv})
	}
	s.resumes = nil
}
