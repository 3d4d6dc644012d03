package agents

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

func TestResumeArgv(t *testing.T) {
	ref := func(source, agent, kind, value string) *protocol.AgentSessionInfo {
		return &protocol.AgentSessionInfo{Source: source, Agent: agent, Kind: kind, Value: value}
	}
	for _, c := range []struct {
		ref  *protocol.AgentSessionInfo
		want []string
	}{
		{ref("herdr:claude", "claude", "id", "abc"), []string{"claude", "--resume", "abc"}},
		{ref("herdr:codex", "codex", "id", "t-1"), []string{"codex", "resume", "t-1"}},
		{ref("herdr:copilot", "copilot", "id", "x"), []string{"copilot", "--resume=x"}},
		{ref("herdr:pi", "pi", "path", "/s/p.jsonl"), []string{"pi", "--session", "/s/p.jsonl"}},
		{ref("herdr:omp", "omp", "id", "7f"), []string{"omp", "--resume=7f"}},
		{ref("herdr:cursor", "cursor", "id", "c"), []string{"cursor-agent", "--resume", "c"}},
		{ref("herdr:antigravity_cli", "agy", "id", "c"), []string{"agy", "--conversation", "c"}},
		// Not official, wrong agent, a path where only ids resume, a
		// relative path, control characters, empty: a plain shell.
		{ref("my-plugin", "claude", "id", "abc"), nil},
		{ref("herdr:claude", "codex", "id", "abc"), nil},
		{ref("herdr:claude", "claude", "path", "/abs"), nil},
		{ref("herdr:pi", "pi", "path", "rel/p"), nil},
		{ref("herdr:claude", "claude", "id", "a\nrm -rf /"), nil},
		{ref("herdr:claude", "claude", "id", ""), nil},
	} {
		if got := ResumeArgv(c.ref); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", *c.ref, got, c.want)
		}
	}
}

// Restored agents are resumed once a client attaches, not before: each
// valid reference once, into the pane it was restored in, answered by the
// pane with an input nobody waits for; a duplicate or invalid reference,
// or a pane closed before the client came, gets nothing; a second client
// resumes nothing again.
func TestResume_OnClientAttach_OncePerLivePane(t *testing.T) {
	r := newRig(t)
	var mu sync.Mutex
	typed := map[string][][]string{}
	var panes []*actor.PID
	paneActor := func(term string) *actor.PID {
		pid := r.system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *pane.AgentRequest:
				if m.Op == pane.AgentLaunch {
					mu.Lock()
					typed[term] = append(typed[term], m.Argv)
					mu.Unlock()
					ctx.Respond(&pane.AgentInput{Token: m.Token})
				}
			case string: // drained
				ctx.Respond(m)
			}
		}))
		panes = append(panes, pid)
		return pid
	}
	ref := func(v string) protocol.AgentSessionInfo {
		return protocol.AgentSessionInfo{Source: "herdr:claude", Agent: "claude", Kind: "id", Value: v}
	}
	for _, m := range []*Resume{
		{TermID: "term_1", Session: ref("s-1")},
		{TermID: "term_2", Session: ref("s-1")}, // the same session again
		{TermID: "term_3", Session: ref("s-3")}, // closed before the client
		{TermID: "term_4", Session: ref("bad\nref")},
	} {
		r.system.Root.Send(r.agents, m)
	}
	place := func(terms ...string) {
		pl := &Placement{FocusedWorkspace: "w1", FocusedTab: "w1:t1"}
		for _, id := range terms {
			pl.Panes = append(pl.Panes, Place{TermID: "term_" + id, PaneID: "w1:p" + id, TabID: "w1:t1", WorkspaceID: "w1", PID: paneActor(id)})
		}
		r.system.Root.Send(r.agents, pl)
	}
	place("1", "2", "3", "4")
	place("1", "2", "4")
	// count is what the panes were typed, once the actor has handled all
	// it was sent and each pane everything the actor sent it before.
	count := func() map[string][][]string {
		r.settle()
		for _, pid := range panes {
			if _, err := r.system.Root.RequestFuture(pid, "drain", 5*time.Second).Result(); err != nil {
				t.Fatal(err)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		out := map[string][][]string{}
		for k, v := range typed {
			out[k] = append([][]string(nil), v...)
		}
		return out
	}
	if got := count(); len(got) != 0 {
		t.Fatalf("resumed before a client attached: %v", got)
	}
	r.system.Root.Send(r.agents, &ClientAttached{})
	r.system.Root.Send(r.agents, &ClientAttached{})
	got := count()
	if len(got) != 1 || len(got["1"]) != 1 || !slices.Equal(got["1"][0], []string{"claude", "--resume", "s-1"}) {
		t.Fatalf("typed %v, want claude --resume s-1 once into pane 1 only", got)
	}
}

// Restored agents start resumeSpacing apart, in restore order: the first
// when the client attaches, each next one when the spacing ends (the test
// holds the timer back and ends the spacing itself). A hook's resume_argv
// is run exactly as reported, whoever the source.
func TestResume_Staggered_ExactArgv(t *testing.T) {
	saved := resumeSpacing
	resumeSpacing = time.Hour
	t.Cleanup(func() { resumeSpacing = saved })
	r := newRig(t)
	var mu sync.Mutex
	var typed [][]string
	pl := &Placement{FocusedWorkspace: "w1", FocusedTab: "w1:t1"}
	var pids []*actor.PID
	for _, id := range []string{"1", "2", "3"} {
		pid := r.system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *pane.AgentRequest:
				mu.Lock()
				typed = append(typed, append([]string{id}, m.Argv...))
				mu.Unlock()
			case string:
				ctx.Respond(m)
			}
		}))
		pids = append(pids, pid)
		pl.Panes = append(pl.Panes, Place{TermID: "term_" + id, PaneID: "w1:p" + id, TabID: "w1:t1", WorkspaceID: "w1", PID: pid})
	}
	exact := []string{"sandbox", "--", "claude", "--resume", "s 2; rm -rf ~", "$HOME"}
	for _, m := range []*Resume{
		{TermID: "term_1", Session: protocol.AgentSessionInfo{Source: "herdr:claude", Agent: "claude", Kind: "id", Value: "s-1"}},
		{TermID: "term_2", Session: protocol.AgentSessionInfo{Source: "shepherd", Agent: "claude", ResumeArgv: exact}},
		{TermID: "term_3", Session: protocol.AgentSessionInfo{Source: "herdr:codex", Agent: "codex", Kind: "id", Value: "t-3"}},
	} {
		r.system.Root.Send(r.agents, m)
	}
	r.system.Root.Send(r.agents, pl)
	r.system.Root.Send(r.agents, &ClientAttached{})
	count := func() [][]string {
		r.settle()
		for _, pid := range pids {
			if _, err := r.system.Root.RequestFuture(pid, "drain", 5*time.Second).Result(); err != nil {
				t.Fatal(err)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(typed)
	}
	if got := count(); len(got) != 1 || !slices.Equal(got[0], []string{"1", "claude", "--resume", "s-1"}) {
		t.Fatalf("when the client attached: %q, want pane 1's resume alone", got)
	}
	r.system.Root.Send(r.agents, &resumeDue{}) // the grace period ending starts no second chain
	if got := count(); len(got) != 1 {
		t.Fatalf("the grace period ended: %q, want still pane 1's resume alone", got)
	}
	r.system.Root.Send(r.agents, &resumeNext{})
	if got := count(); len(got) != 2 || !slices.Equal(got[1], append([]string{"2"}, exact...)) {
		t.Fatalf("after one spacing: %q, want pane 2's reported argv exactly", got)
	}
	r.system.Root.Send(r.agents, &resumeNext{})
	if got := count(); len(got) != 3 || !slices.Equal(got[2], []string{"3", "codex", "resume", "t-3"}) {
		t.Fatalf("after two spacings: %q, want pane 3's resume last", got)
	}
}

// A hook's resume_argv is kept with its agent session (saved with the
// session) but no record shows it; reported alone, no agent_session shows.
func TestReportAgent_ResumeArgvKeptNotShown(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t1")
	r.call("pane.report_agent", "term_1", `{"pane_id":"w1:p1","source":"shepherd","agent":"claude","state":"working","agent_session_id":"s-1","resume_argv":["claude","--resume","s-1"]}`)
	r.call("pane.report_agent_session", "term_2", `{"pane_id":"w1:p2","source":"shepherd","agent":"claude","resume_argv":["sb","claude","-c"]}`)
	r.settle()
	sh1, sh2 := r.lastShown("term_1"), r.lastShown("term_2")
	if sh1.Session == nil || !slices.Equal(sh1.Session.ResumeArgv, []string{"claude", "--resume", "s-1"}) || sh1.Session.Value != "s-1" {
		t.Fatalf("kept session %+v, want id s-1 with its resume_argv", sh1.Session)
	}
	if sh2.Session == nil || !slices.Equal(ResumeArgv(sh2.Session), []string{"sb", "claude", "-c"}) {
		t.Fatalf("kept session %+v, want the reported argv to resume", sh2.Session)
	}
	var p1, p2 protocol.PaneInfo
	sh1.Decorate(&p1)
	sh2.Decorate(&p2)
	if p1.AgentSession == nil || p1.AgentSession.ResumeArgv != nil || p1.AgentSession.Value != "s-1" || p2.AgentSession != nil {
		t.Fatalf("records show %+v and %+v: want id s-1 without argv, and none", p1.AgentSession, p2.AgentSession)
	}
}
