//go:build unix

package pane

import (
	"log/slog"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/herdr-go/herdr/actors/procs"
)

// A server that dies without closing its panes (SIGKILL, a crash) leaves
// their programs running: the shell goes with its terminal, but jobs in
// the background live on, terminal-less, with no server to end them. The
// next server ends them before it restores the session (EndLeftovers),
// from what session.json recorded of each pane: its terminal session's
// leader, the shell, by pid and start stamp.

// Leftover is one pane's terminal session as a previous server recorded
// it: the leader's pid (the session's id) and its procs.StartStamp.
type Leftover struct {
	Pid   int
	Start string
}

// leftoverGrace is how long hung-up leftovers get to exit before they are
// killed.
const leftoverGrace = time.Second

// EndLeftovers ends what is left of the terminal sessions of left that are
// provably ours (see ourSessions): SIGHUP (and SIGCONT, for a stopped job)
// to each of their process groups, then, for what is still there after
// leftoverGrace, SIGKILL. socket is this server's: its panes carry it as
// HERDR_SOCKET_PATH. It returns how many processes were signalled.
// Run it only while this server holds the socket and before it starts a
// pane: neither a live server's panes nor this one's may be taken for
// leftovers.
func EndLeftovers(left []Leftover, socket string, log *slog.Logger) int {
	found := ourSessions(left, socket, hostProbe{})
	if len(found) == 0 {
		return 0
	}
	ended := 0
	for sid, members := range found {
		log.Warn("ending the processes a previous server left running", "session", sid, "processes", members)
		ended += len(members)
		signalSession(members, unix.SIGHUP)
		signalSession(members, unix.SIGCONT)
	}
	deadline := time.Now().Add(leftoverGrace)
	for len(found) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // poll: these processes are not our children
		found = ourSessions(left, socket, hostProbe{})
	}
	for sid, members := range found {
		log.Warn("killing the leftover processes that outlived their hangup", "session", sid, "processes", members)
		signalSession(members, unix.SIGKILL)
	}
	return ended
}

// signalSession sends sig to each member and its process group (a group
// never spans sessions, so every process reached is of the session).
func signalSession(members []int, sig unix.Signal) {
	for _, pid := range members {
		if pgid, err := unix.Getpgid(pid); err == nil && pgid > 1 {
			unix.Kill(-pgid, sig)
		}
		if pid > 1 {
			unix.Kill(pid, sig)
		}
	}
}

// probe is what ourSessions reads of the process table (a fake in tests).
type probe interface {
	startStamp(pid int) string
	liveSessions(sids map[int]bool) map[int][]procs.Member
	env(pid int, key string) (string, bool)
}

type hostProbe struct{}

func (hostProbe) startStamp(pid int) string { return procs.StartStamp(pid) }
func (hostProbe) liveSessions(sids map[int]bool) map[int][]procs.Member {
	return procs.LiveSessions(sids)
}
func (hostProbe) env(pid int, key string) (string, bool) { return procs.Host.Env(pid, key) }

// ourSessions returns the live members of each session of left that is
// still ours, by session id. A session is ours when no member has a
// controlling terminal any more (its terminal was hung up: the server
// holding it is gone; a pane a server still serves is never taken), and
//   - its leader is alive with the start stamp recorded: the same
//     process, so every member of its session is what it left; or
//   - its leader is gone and one of the members carries this server's
//     socket as HERDR_SOCKET_PATH: a process of one of our panes, in the
//     session the leader's pid names. The kernel does not give a pid to a
//     new process while a live one has it as its session id, so that
//     session is the pane's, and so is every member.
//
// A live pid with another start stamp is someone else's (the pid was used
// again), and so is a session none of whose members is marked as ours;
// neither is touched. Without a recorded stamp (a platform that cannot
// tell) nothing is.
func ourSessions(left []Leftover, socket string, p probe) map[int][]int {
	sids := map[int]bool{}
	for _, l := range left {
		if l.Pid > 1 && l.Start != "" {
			sids[l.Pid] = true
		}
	}
	if len(sids) == 0 {
		return nil
	}
	sessions := p.liveSessions(sids)
	out := map[int][]int{}
	for _, l := range left {
		members := sessions[l.Pid]
		if !sids[l.Pid] || len(members) == 0 || slices.ContainsFunc(members, func(m procs.Member) bool { return m.Attached }) {
			continue
		}
		pids := make([]int, len(members))
		for i, m := range members {
			pids[i] = m.PID
		}
		if now := p.startStamp(l.Pid); now != "" {
			if now == l.Start {
				out[l.Pid] = pids
			}
			continue
		}
		for _, pid := range pids {
			if v, ok := p.env(pid, "HERDR_SOCKET_PATH"); ok && v == socket {
				out[l.Pid] = pids
				break
			}
		}
	}
	return out
}
