package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The audit log's defaults: a file is rotated past MaxBytes, and Keep
// rotated files are kept beside it (audit.log.1 the newest).
const (
	DefaultMaxBytes = 4 << 20
	DefaultKeep     = 3
	// maxPending bounds the entries held while the disk does not take
	// them; past it the oldest are dropped (counted, and said at warn).
	maxPending = 10000
	// maxLine bounds one entry's line (an error message is cut to fit).
	maxErrorBytes = 300
)

// Options configure the audit log's actor.
type Options struct {
	// Path is the log file (audit.log in the session's state folder).
	Path     string
	MaxBytes int64
	Keep     int
	Log      *slog.Logger
}

// Registry holds the method the audit actor answers.
var Registry = kit.NewRegistry(protocol.OwnerAudit, "actors/audit", map[string]func(*Log, actor.Context, *kit.Call){
	"audit.list": (*Log).list,
})

// Log is the audit log's actor: connections send it entries (never
// waiting), and it hands them in batches to one writer goroutine at a
// time, so the gateway's path costs a message and nothing else.
type Log struct {
	opts    Options
	pending []protocol.AuditEntry
	lists   []listJob
	busy    bool
	dropped int64
	warned  bool
	file    *fileState // the writer goroutine's; handed to it with each job
}

type listJob struct {
	params *protocol.AuditListParams
	to     *actor.PID
}

// batchDone says the writer goroutine finished a job.
type batchDone struct {
	err error
}

// Props returns the audit log actor's props.
func Props(opts Options) *actor.Props {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Log{opts: opts, file: &fileState{path: opts.Path, max: opts.MaxBytes, keep: opts.Keep}}
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (l *Log) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *protocol.AuditEntry:
		if len(l.pending) >= maxPending {
			l.pending = l.pending[1:]
			l.dropped++
		}
		l.pending = append(l.pending, *msg)
		l.flush(ctx)
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", msg.Method)))
			return
		}
		h(l, ctx, msg)
	case *batchDone:
		l.busy = false
		if msg.err != nil && !l.warned {
			l.warned = true
			l.opts.Log.Warn("audit log not written", "path", l.opts.Path, "err", msg.err)
		} else if msg.err == nil {
			l.warned = false
		}
		l.flush(ctx)
	case *actor.Stopping:
		if !l.busy { // else the writer holds the file: what waits is lost
			_ = l.file.write(l.pending) // the last entries, as the server stops
			l.file.close()
		}
	case *actor.Started, *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, l.opts.Log)
	}
}

func (l *Log) list(ctx actor.Context, c *kit.Call) {
	l.lists = append(l.lists, listJob{params: c.Params.(*protocol.AuditListParams), to: ctx.Sender()})
	l.flush(ctx)
}

// flush starts the writer goroutine on what waits, unless it runs: the
// entries first, then the lists, which so see them.
func (l *Log) flush(ctx actor.Context) {
	if l.busy || (len(l.pending) == 0 && len(l.lists) == 0) {
		return
	}
	l.busy = true
	entries, lists, f, dropped := l.pending, l.lists, l.file, l.dropped
	l.pending, l.lists = nil, nil
	root, self := ctx.ActorSystem().Root, ctx.Self()
	go func() {
		err := f.write(entries)
		for _, j := range lists {
			root.Send(j.to, f.list(j.params, dropped))
		}
		root.Send(self, &batchDone{err: err})
	}()
}

// fileState is the log file as its writer goroutine holds it.
type fileState struct {
	path string
	max  int64
	keep int
	f    *os.File
	size int64
}

// write appends entries as JSON lines, rotating at the line that would
// take the file past its bound.
func (s *fileState) write(entries []protocol.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if s.f == nil {
		if err := s.open(); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	flush := func() error {
		n, err := s.f.Write(buf.Bytes())
		s.size += int64(n)
		buf.Reset()
		return err
	}
	for i := range entries {
		e := &entries[i]
		if len(e.Error) > maxErrorBytes {
			e.Error = e.Error[:maxErrorBytes] + "…"
		}
		line, err := json.Marshal(e)
		if err != nil {
			continue
		}
		if full := s.size + int64(buf.Len()); full > 0 && full+int64(len(line))+1 > s.max {
			if err := flush(); err != nil {
				return err
			}
			s.rotate()
			if err := s.open(); err != nil {
				return err
			}
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return flush()
}

func (s *fileState) open() error {
	f, err := protocol.OpenPrivateLog(s.path)
	if err != nil {
		return err
	}
	s.f, s.size = f, 0
	if fi, err := f.Stat(); err == nil {
		s.size = fi.Size()
	}
	return nil
}

// rotate moves audit.log to audit.log.1, .1 to .2, …, dropping the one
// past keep.
func (s *fileState) rotate() {
	s.close()
	_ = os.Remove(s.rotated(s.keep))
	for i := s.keep - 1; i >= 1; i-- {
		_ = os.Rename(s.rotated(i), s.rotated(i+1))
	}
	_ = os.Rename(s.path, s.rotated(1))
}

func (s *fileState) rotated(i int) string { return s.path + "." + strconv.Itoa(i) }

func (s *fileState) close() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// list reads the newest entries from the current file back through the
// rotated ones.
func (s *fileState) list(p *protocol.AuditListParams, dropped int64) *kit.Reply {
	limit := p.Limit
	if limit == 0 {
		limit = protocol.DefaultAuditListLimit
	}
	since := p.SinceTime()
	var newest []protocol.AuditEntry // newest first
	files := []string{s.path}
	for i := 1; i <= s.keep; i++ {
		files = append(files, s.rotated(i))
	}
read:
	for _, path := range files {
		b, err := protocol.ReadRegularFile(path, 4*s.max+(1<<20))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return kit.Fail(protocol.Errorf(protocol.CodeInternal, "read the audit log: %v", err))
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		for i := len(lines) - 1; i >= 0; i-- {
			var e protocol.AuditEntry
			if lines[i] == "" || protocol.Unmarshal([]byte(lines[i]), &e) != nil {
				continue // a line cut short by a crash
			}
			if !since.IsZero() && e.Time.Before(since) {
				break read
			}
			newest = append(newest, e)
			if len(newest) == limit {
				break read
			}
		}
	}
	out := protocol.AuditList{Entries: make([]protocol.AuditEntry, len(newest)), Dropped: dropped}
	for i, e := range newest {
		out.Entries[len(newest)-1-i] = e
	}
	return kit.Done(out)
}

// Entry is the audit line of a call: its outcome "ok" or the error's code.
func Entry(client, policy string, pid int, m protocol.Method, params protocol.Params, err error) *protocol.AuditEntry {
	reads, _ := m.Reads()
	e := &protocol.AuditEntry{Time: time.Now().UTC(), Client: client, Policy: policy, PID: pid, Method: m.Name, Access: "write", Outcome: "ok"}
	if reads {
		e.Access = "read"
	}
	if machine, all := Machine(params); all {
		e.Machine = "all"
	} else if machine != "local" {
		e.Machine = machine
	}
	var ids []string
	for _, r := range Refs(params) {
		ids = append(ids, r.ID)
	}
	e.Target = strings.Join(ids, ",")
	if len(e.Target) > 200 {
		e.Target = e.Target[:200] + "…"
	}
	if err != nil {
		pe := protocol.AsError(err)
		e.Outcome, e.Error = pe.Code, pe.Message
	}
	return e
}

// Outcome fills in e's outcome from a call's reply.
func Outcome(e *protocol.AuditEntry, r *kit.Reply) {
	if r != nil && r.Err != nil {
		pe := protocol.AsError(r.Err)
		e.Outcome, e.Error = pe.Code, pe.Message
	}
}
