package server

import (
	"log/slog"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/tasks"
)

// openTaskStore opens the task board's store beside the session file and
// returns it with the board to restore. A board still inside session.json
// (a server from before the store, or a live handoff's) is migrated into
// the store first, once; the keeper then saves session.json without it.
// Without a session file, or with a store that cannot be read, the board
// lives in memory only (said in the log).
func openTaskStore(sessionFile string, saved *model.Saved, log *slog.Logger) (tasks.Saver, *model.SavedTasks) {
	var inSession *model.SavedTasks
	if saved != nil {
		inSession = saved.Tasks
		saved.Tasks = nil
	}
	if sessionFile == "" {
		return nil, inSession
	}
	dir := tasks.StoreDir(sessionFile)
	store, board, found, err := tasks.OpenStore(dir, log)
	if err != nil {
		// The session file keeps what it holds (the keeper writes it back).
		log.Error("task store unreadable; the board is not restored or saved this run", "dir", dir, "err", err)
		if saved != nil {
			saved.Tasks = inSession
		}
		return nil, inSession
	}
	if found || inSession == nil {
		return store, board
	}
	if err := store.Migrate(inSession); err != nil {
		log.Error("task board not moved out of the session file; it is kept there this run", "dir", dir, "err", err)
		if saved != nil {
			saved.Tasks = inSession
		}
		return nil, inSession
	}
	log.Info("task board moved out of the session file", "dir", dir, "tasks", len(inSession.Tasks))
	return store, inSession
}

// keptTasks is the board the keeper goes on writing into session.json:
// none once it has a store of its own, the old one when it could not be
// moved (so it is not lost).
func keptTasks(saved *model.Saved) *model.SavedTasks {
	if saved == nil {
		return nil
	}
	return saved.Tasks
}

// taskRetention is [tasks]' retention for the tasks actor.
func taskRetention(cfg config.Tasks) tasks.Retention {
	return tasks.Retention{KeepDone: cfg.KeepDone, KeepDays: cfg.KeepDoneDays}
}
