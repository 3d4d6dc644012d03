//go:build unix

package harness

import (
	"path/filepath"
)

// HistoryDir is the folder of the kept lines of session name.
func (h *Home) HistoryDir(name string) string {
	return filepath.Join(filepath.Dir(h.SessionFile(name)), "history")
}
