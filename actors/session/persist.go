package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// Persistence: the session writes session.json (Herdr's version-3 shape)
// saveDelay after a change, and once more when it stops. The session
// marshals the model itself (it is the model's only reader and writer) and
// hands the bytes to an api.Latest writer, so no file I/O runs in Receive.

// saveDelay is how long after a change the session file is written.
const saveDelay = 5 * time.Second

// saveDue is the save timer going off.
type saveDue struct{}

// persister is the session file's writer and the pending save.
type persister struct {
	path   string
	writer *api.Latest
	timer  uint64 // the pending save, 0 for none
}

func newPersister(path string, log *slog.Logger) *persister {
	return &persister{path: path, writer: api.NewLatest(func(data []byte) {
		if err := WriteSessionFile(path, data); err != nil {
			log.Error("session file not saved", "path", path, "err", err)
		}
	})}
}

// changed arms the save timer after a change, unless one is pending.
func (s *Session) changed(ctx actor.Context) {
	if s.persist != nil && s.persist.timer == 0 {
		s.persist.timer = s.timers.After(ctx, saveDelay, &saveDue{})
	}
}

// save hands the model's current file to the writer.
func (s *Session) save() {
	if s.persist == nil {
		return
	}
	s.persist.timer = 0
	data, err := json.MarshalIndent(s.m.Save(s.savedPane), "", "  ")
	if err != nil {
		s.opts.Log.Error("session file not encoded", "err", err)
		return
	}
	s.persist.writer.Hand(append(data, '\n'))
}

// savedPane is what the session keeps of a pane beyond its place: the
// agent session its agent reported, and its terminal session's leader (for
// the next server to end it should this one die: pane.EndLeftovers).
func (s *Session) savedPane(p *model.Pane) model.SavedPane {
	r := s.terms[p.TermID]
	if r == nil {
		return model.SavedPane{}
	}
	var sp model.SavedPane
	if r.shown.Session != nil {
		ref := *r.shown.Session
		sp.AgentSession = &ref
	}
	if r.facts.ShellStart != "" {
		sp.Process = &model.SavedProcess{Pid: r.facts.ShellPID, Start: r.facts.ShellStart}
	}
	return sp
}

// finalSave writes the file one last time as the session stops, waiting
// (at most a few seconds) for the writer.
func (s *Session) finalSave() {
	if s.persist == nil {
		return
	}
	s.timers.Cancel(s.persist.timer)
	s.save()
	if !s.persist.writer.Close(5 * time.Second) {
		s.opts.Log.Error("session file still being written at exit", "path", s.persist.path)
	}
	s.persist = nil
}

// WriteSessionFile writes the session file: atomically, through symlinks,
// private to its owner.
func WriteSessionFile(path string, data []byte) error {
	return protocol.WriteFileAtomic(path, data, 0o600)
}

// ReadSessionFile reads the session file. No file is (nil, "", nil). A
// file that cannot be used (corrupt, or from a newer release) is moved
// aside to path.bad-<time>, never overwritten or dropped, and reported:
// the result is then nil with a description of what happened.
func ReadSessionFile(path string) (saved *model.Saved, problem string, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, "", nil // nothing there to lose
	}
	if err != nil {
		return nil, "", err
	}
	saved, perr := model.Parse(data)
	if perr == nil {
		return saved, "", nil
	}
	aside := fmt.Sprintf("%s.bad-%s", path, time.Now().UTC().Format("20060102T150405Z"))
	if err := os.Rename(path, aside); err != nil {
		return nil, "", fmt.Errorf("session file unusable (%v) and not moved aside: %w", perr, err)
	}
	return nil, fmt.Sprintf("%v; moved aside to %s", perr, aside), nil
}
