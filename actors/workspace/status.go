package workspace

import (
	"strconv"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// gitStatusState is the workspace.git_status work of one workspace: at
// most one git run at a time; callers who ask about the same folder while
// it runs share its answer (several clients, bursts of asks), so a
// repository is read at most once at a time however many ask. An answer
// is never kept for later: the next ask reads the work tree again.
type gitStatusState struct {
	running string       // the folder being read, "" when idle
	waiting []*actor.PID // callers of the run in flight
	next    []statusAsk  // callers for another folder, after it
}

type statusAsk struct {
	cwd    string
	caller *actor.PID
}

// statusRead brings a git run's result back to the actor.
type statusRead struct{ st protocol.WorkspaceGitStatus }

func (w *Workspace) gitStatus(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.WorkspaceGitStatusParams)
	cwd := req.Cwd
	if prm.Cwd != nil {
		cwd = *prm.Cwd
	}
	g := &w.status
	switch {
	case g.running == cwd:
		g.waiting = append(g.waiting, ctx.Sender())
	case g.running != "":
		g.next = append(g.next, statusAsk{cwd: cwd, caller: ctx.Sender()})
	default:
		w.startStatus(ctx, cwd, ctx.Sender())
	}
	return nil
}

// startStatus runs git on a goroutine; its answer comes back as statusRead.
func (w *Workspace) startStatus(ctx actor.Context, cwd string, callers ...*actor.PID) {
	w.status.running, w.status.waiting = cwd, callers
	root, self, id := ctx.ActorSystem().Root, ctx.Self(), w.seed.ID
	go func() { root.Send(self, &statusRead{readStatus(id, cwd)}) }()
}

func (w *Workspace) statusDone(ctx actor.Context, msg *statusRead) {
	g := &w.status
	st := msg.st
	for _, c := range g.waiting {
		ctx.Send(c, kit.Done(st))
	}
	g.running, g.waiting = "", nil
	if len(g.next) > 0 {
		cwd := g.next[0].cwd
		var callers []*actor.PID
		rest := g.next[:0]
		for _, a := range g.next {
			if a.cwd == cwd {
				callers = append(callers, a.caller)
			} else {
				rest = append(rest, a)
			}
		}
		g.next = rest
		w.startStatus(ctx, cwd, callers...)
	}
}

// abandon answers every caller still waiting when the actor stops or is
// restarted: the run's result would reach an instance that never heard
// of them.
func (g *gitStatusState) abandon(ctx actor.Context, id string) {
	fail := kit.Fail(protocol.Errorf(protocol.CodeInternal, "workspace %s stopped before git answered; try again", id))
	for _, c := range g.waiting {
		ctx.Send(c, fail)
	}
	for _, a := range g.next {
		ctx.Send(a.caller, fail)
	}
	*g = gitStatusState{}
}

// readStatus asks git for the branch, its distance from upstream and
// whether the work tree has changes (one `git status`, so one process).
func readStatus(id, cwd string) protocol.WorkspaceGitStatus {
	st := protocol.WorkspaceGitStatus{WorkspaceID: id, Cwd: cwd}
	out, err := git(cwd, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=normal")
	if err != nil {
		return st // not a repository, or git is missing: no marks
	}
	st.Repo = true
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "# branch.head "):
			if head := strings.TrimPrefix(line, "# branch.head "); head != "(detached)" {
				st.Branch = head
			}
		case strings.HasPrefix(line, "# branch.ab "):
			f := strings.Fields(strings.TrimPrefix(line, "# branch.ab "))
			if len(f) == 2 {
				st.Ahead, _ = strconv.Atoi(strings.TrimPrefix(f[0], "+"))
				st.Behind, _ = strconv.Atoi(strings.TrimPrefix(f[1], "-"))
			}
		case line != "" && !strings.HasPrefix(line, "#"):
			st.Dirty = true
		}
	}
	return st
}
