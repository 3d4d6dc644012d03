package keeper

import (
	"crypto/sha256"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
)

// saveDelay is how long a change waits for the ones that follow it (a
// script's burst) before the session file is written. The first change of
// a spell arms it and later ones do not push it back, so a change is on
// disk within saveDelay plus one write (a few ms; see
// BenchmarkKeeperSave200Panes), and a storm of changes costs at most one
// topology and one marshal per saveDelay.
const saveDelay = 30 * time.Millisecond

// linesDelay is how often the keeper looks at the session's published
// read side (Options.Reads) for panes whose record changed, and asks
// those for their lines: what a killed server loses at most (plus one
// write). A pane copies only the lines that scrolled off since it last
// handed and its screen, so a busy pane costs one such copy per
// linesDelay, and an idle server one look at the View.
const linesDelay = 500 * time.Millisecond

// Options configure the keeper.
type Options struct {
	// SessionFile is the session.json to keep the session in; "" keeps
	// nothing (the keeper then only trims).
	SessionFile string
	// Lines is the pane-history writer (LinesDir beside the session file),
	// nil when no lines are kept ([advanced] persist_scrollback_lines = 0). The session hands its
	// Hand to the panes it starts; the keeper closes it when it stops.
	Lines *pane.LinesWriter
	Log   *slog.Logger
	// Tasks is the task board restored at start, written with every save
	// until the tasks actor hands a newer one (Tasks).
	Tasks *model.SavedTasks
	// UI is the sidebar state restored at start, written with every save
	// until the clients actor hands a newer one (UI).
	UI model.UIState
	// Reads is the session's published read side: the panes there are
	// (for the trim), and the ones whose record changed, which are asked
	// for their lines (lines.go). nil: neither.
	Reads *view.ReadSide
}

// LinesDir is the folder of the panes' kept lines, beside the session file.
func LinesDir(sessionFile string) string {
	return filepath.Join(filepath.Dir(sessionFile), "history")
}

// Attach names the session that saves, sent as it starts. KeepOriginal
// says its restore left part of the file out: the first save copies the
// file aside before it replaces it, so what was left out is not lost.
type Attach struct {
	Session      *actor.PID
	KeepOriginal bool
}

// Changed is the session telling that what session.json holds changed
// since the keeper last asked: it is saved in a while.
type Changed struct{}

// SaveNow asks the session for the topology to save; it answers Save.
type SaveNow struct{}

// Save is the topology to write. Saved shares nothing with the sender's
// model: the keeper marshals it on its own goroutine. Keys are the lines
// keys of the panes there are, by terminal id (LineKeys.Live; nil when no
// lines are kept): the files of the others are removed, and only these
// panes are asked for their lines (lines.go).
type Save struct {
	Saved *model.Saved
	Keys  map[string]string
}

// Tasks is the tasks actor's snapshot after a change: written with the
// session's next save (asked for in a while, like a Changed). Saved
// shares nothing with the sender's state.
type Tasks struct {
	Saved *model.SavedTasks
	// Sync, when not 0, asks for the file now and a TasksSaved with this
	// token to ReplyTo once a file holding Saved is on disk (tasksync.go).
	Sync    uint64
	ReplyTo *actor.PID
}

// UI is the clients actor's sidebar state after a change
// (client.ui_state.set): written with the session's next save (asked for
// in a while, like a Changed). State shares nothing with the sender's.
type UI struct {
	State model.UIState
}

// saveDue and linesDue are the keeper's timers going off.
type (
	saveDue  struct{}
	linesDue struct{}
)

// Keeper is the keeper actor.
type Keeper struct {
	opts    Options
	timers  kit.Timers
	session *actor.PID
	file    *fileWriter // nil when no file is kept
	save    uint64      // the pending saveDue, 0 for none
	unasked bool        // a save came due before the session attached
	trim    trimmer
	lines   lineState         // the panes asked for lines (lines.go)
	tasks   *model.SavedTasks // the newest task board, added to every save
	ui      model.UIState     // the newest sidebar state, added to every save
	// The versions of the file handed to the writer (tasksync.go): the
	// newest's number and digest, the newest on disk, the syncs waiting.
	handedGen    uint64
	handedDigest [sha256.Size]byte
	writtenGen   uint64
	syncs        []pendingSync
}

// Props returns the keeper's props.
func Props(opts Options) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return newKeeper(opts) })
}

func newKeeper(opts Options) *Keeper {
	k := &Keeper{opts: opts, tasks: opts.Tasks, ui: opts.UI}
	if opts.SessionFile != "" {
		k.file = newFileWriter(opts.SessionFile, opts.Log)
	}
	return k
}

// Receive implements actor.Actor.
func (k *Keeper) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = k.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *Attach:
		k.session = msg.Session
		if k.unasked {
			k.unasked = false
			k.ask(ctx, &SaveNow{})
		}
		if k.file != nil && msg.KeepOriginal {
			k.file.keepOriginal.Store(true)
		}
		if k.opts.Reads != nil {
			k.timers.After(ctx, linesDelay, &linesDue{})
		}
	case *Changed:
		k.saveSoon(ctx)
	case *Tasks:
		k.tasks = msg.Saved
		if msg.Sync != 0 {
			k.syncTasks(ctx, msg)
		} else {
			k.saveSoon(ctx)
		}
	case *UI:
		k.ui = msg.State
		k.saveSoon(ctx)
	case *saveDue:
		k.save = 0
		k.ask(ctx, &SaveNow{})
	case *linesDue:
		k.look(ctx)
		k.timers.After(ctx, linesDelay, &linesDue{})
	case *Save:
		k.keepKeys(msg.Keys)
		k.write(ctx, msg.Saved)
	case *written:
		if msg.err == nil {
			k.writtenGen = max(k.writtenGen, msg.gen)
		}
		k.answerSyncs(ctx, msg.gen, msg.err)
	case *trimDue:
		k.trimNow(ctx)
	case *actor.Stopping:
		// The session stopped first (actors/server): its last Save came
		// before the poison that stops the keeper, and its panes handed
		// their lines as they stopped. Wait (boundedly) for both writers,
		// so the server does not exit with a file half-written.
		k.timers.StopAll()
		k.close()
	}
}

// saveSoon arms the save, unless it is armed: the first change of a
// spell starts the wait (saveDelay).
func (k *Keeper) saveSoon(ctx actor.Context) {
	if k.file != nil && k.save == 0 {
		k.save = k.timers.After(ctx, saveDelay, &saveDue{})
	}
}

// ask tells the session a save is due; before the session attached (a
// sidebar change during a long restore), once it does.
func (k *Keeper) ask(ctx actor.Context, msg any) {
	if k.session == nil {
		k.unasked = true
		return
	}
	ctx.Send(k.session, msg)
}

// write marshals a save and hands it to the file's writer.
func (k *Keeper) write(ctx actor.Context, saved *model.Saved) {
	if k.file == nil || saved == nil {
		return
	}
	saved.Tasks = k.tasks
	k.ui.SaveInto(saved)
	data, err := encodeSession(saved)
	if err != nil {
		k.opts.Log.Error("session file not encoded", "err", err)
		return
	}
	// The writer skips data equal to the last handed: that version
	// stands for this one.
	if d := sha256.Sum256(data); d != k.handedDigest || k.handedGen == 0 {
		k.handedGen++
		k.handedDigest = d
		k.file.versions.put(d, k.handedGen)
		if k.file.notify == nil {
			self, root := ctx.Self(), ctx.ActorSystem().Root
			k.file.notify = func(gen uint64, err error) { root.Send(self, &written{gen: gen, err: err}) }
		}
		k.file.latest.Hand(data)
	}
	k.handed(ctx, k.handedGen)
}

// close waits for the writers, at most a few seconds each.
func (k *Keeper) close() {
	if k.file != nil {
		if !k.file.latest.Close(5 * time.Second) {
			k.opts.Log.Error("session file still being written at exit", "path", k.file.path)
		}
		k.file = nil
	}
	if k.opts.Lines != nil {
		if !k.opts.Lines.Close(5 * time.Second) {
			k.opts.Log.Error("pane history still being written at exit", "dir", LinesDir(k.opts.SessionFile))
		}
		k.opts.Lines = nil
	}
}

// Keeping implements kit.Keeping.
func (*SaveNow) Keeping() {}
