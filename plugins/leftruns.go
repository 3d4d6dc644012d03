package plugins

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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

// newRunToken draws 96 random bits. Unique, not secret: math/rand/v2's
// generator (ChaCha8, seeded by the runtime from the OS) keeps crypto/rand
// and its two dozen packages' inits out of the front, which every herdr
// call starts.
func newRunToken() string {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(b[8:], rand.Uint32())
	return hex.EncodeToString(b[:])
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
