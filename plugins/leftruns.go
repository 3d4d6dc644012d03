package plugins

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// A server killed -9 cannot end the plugin commands it runs, nor their
// timeout: each running command is recorded in a file of Job.Records
// (its session leader's pid and start stamp, and a token every process it
// starts inherits in RunTokenEnv) so the next server of the session finds
// what is left (EndLeftRuns) and ends it, only when it is provably ours.

// RunTokenEnv names the variable that marks every process of one run.
const RunTokenEnv = "HERDR_PLUGIN_RUN"

// runRecord is one running command's file.
type runRecord struct {
	PID   int      `json:"pid"`
	Start string   `json:"start"` // the leader's start stamp (procs.StartStamp)
	Token string   `json:"token"`
	Argv  []string `json:"argv"`
}

// maxRecordBytes bounds a record read back: ours are a few hundred bytes.
const maxRecordBytes = 64 << 10

func newRunToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// writeRecord records a started run; its path, "" when it could not be
// written (the run goes on: only a crash would miss the record).
func writeRecord(dir string, rec runRecord) string {
	if dir == "" || rec.Start == "" {
		return ""
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return ""
	}
	path := filepath.Join(dir, strconv.Itoa(rec.PID)+".run")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return ""
	}
	return path
}

// readRecords reads every record of dir; one that cannot be read as a
// record is removed, with a warning.
func readRecords(dir string, log *slog.Logger) map[string]runRecord {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]runRecord{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".run") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var rec runRecord
		if err := readRecord(path, &rec); err != nil {
			log.Warn("plugin run record unreadable: removed", "path", path, "err", err)
			os.Remove(path)
			continue
		}
		out[path] = rec
	}
	return out
}

func readRecord(path string, rec *runRecord) error {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return os.ErrInvalid
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxRecordBytes {
		return os.ErrInvalid
	}
	if err := protocol.Unmarshal(b, rec); err != nil {
		return err
	}
	if rec.PID <= 1 || rec.Start == "" || rec.Token == "" {
		return os.ErrInvalid
	}
	return nil
}
