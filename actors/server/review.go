package server

import (
	"log/slog"
	"os"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/review"
)

// startReview spawns the review actor with the threads kept beside the
// session file (none without one); a file that cannot be read is moved
// aside (review.json.bad-<time>, named in the log) so the first save does
// not write over it, and the threads start empty.
func startReview(system *actor.ActorSystem, root *actor.PID, sessionFile string, session, tasksPID, loopPID, bus *actor.PID, routes *kit.SessionRoutes, log *slog.Logger) (*actor.PID, error) {
	path := review.Path(sessionFile)
	var kept []*review.Thread
	if path != "" {
		var err error
		if kept, err = review.Load(path); err != nil {
			aside := path + ".bad-" + time.Now().UTC().Format("20060102T150405")
			if rerr := os.Rename(path, aside); rerr != nil {
				aside = "(not moved: " + rerr.Error() + ")"
			}
			log.Warn("review comments not restored; starting without them", "path", path, "err", err, "kept_as", aside)
		}
	}
	return spawnChild(system, root, review.Props(review.Options{Session: session, Routes: routes, Tasks: tasksPID, Loop: loopPID, Events: bus, Path: path, Restore: kept, Log: log}), "review")
}
