package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The review threads are kept in review.json beside session.json: the
// whole set, rewritten atomically after each change by a writer goroutine
// (kit.Latest: a burst writes the newest only). It is small: at most
// MaxReviewSubjects threads of MaxReviewComments comments.

// FileName is the threads' file, beside the session file.
const FileName = "review.json"

// maxFile bounds the read: every bound full, each byte escaped six times.
const maxFile = 64 << 20

// Thread is one task's or workspace's comments as kept (and restored).
type Thread struct {
	Key         string                   `json:"key"`
	TaskID      string                   `json:"task_id,omitempty"`
	WorkspaceID string                   `json:"workspace_id,omitempty"`
	Checkout    string                   `json:"checkout"`
	Branch      string                   `json:"branch"`
	Comments    []protocol.ReviewComment `json:"comments"`
	NextID      int                      `json:"next_id"`
	// QueuedTo is the agent (its pane id) the queued comments go to when
	// its turn ends.
	QueuedTo  string `json:"queued_to,omitempty"`
	UpdatedMS int64  `json:"updated_ms"`
}

type file struct {
	Version int       `json:"version"`
	Threads []*Thread `json:"threads"`
}

// Load reads the threads kept at path (none when it does not exist).
func Load(path string) ([]*Thread, error) {
	data, err := protocol.ReadRegularFile(path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	if err := protocol.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f.Threads, nil
}

// Path is the threads' file of a session file ("" keeps nothing).
func Path(sessionFile string) string {
	if sessionFile == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(sessionFile), FileName)
}

// newWriter starts the writer of path (nil for none).
func newWriter(path string, log *slog.Logger) *kit.Latest {
	if path == "" {
		return nil
	}
	return kit.NewLatest(func(data []byte) {
		if err := protocol.WriteOwnFile(path, data, 0o600); err != nil && log != nil {
			log.Warn("review comments not saved", "path", path, "err", err)
		}
	})
}

// encode is the file's bytes of the threads.
func encode(threads map[string]*Thread) []byte {
	f := file{Version: 1, Threads: make([]*Thread, 0, len(threads))}
	for _, t := range threads {
		f.Threads = append(f.Threads, t)
	}
	sortThreads(f.Threads)
	data, _ := json.Marshal(f)
	return data
}
