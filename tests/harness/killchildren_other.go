//go:build unix && !linux

package harness

import (
	"os/exec"
	"strconv"
	"strings"
)

// childrenOf lists the processes whose parent is pid, from pgrep.
func childrenOf(pid int) []int {
	out, _ := exec.Command("pgrep", "-P", strconv.Itoa(pid)).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}
