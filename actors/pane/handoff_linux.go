package pane

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// zombie reads /proc/<pid>/stat: state Z (or X) means the program has
// exited; field 52 is its exit status as waitpid reports it.
func zombie(pid int) (bool, int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return os.IsNotExist(err), -1
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false, -1
	}
	fields := strings.Fields(s[i+1:]) // fields[0] is field 3, the state
	if len(fields) == 0 || (fields[0] != "Z" && fields[0] != "X") {
		return false, -1
	}
	if len(fields) > 49 {
		if v, err := strconv.Atoi(fields[49]); err == nil {
			return true, exitCode(syscall.WaitStatus(v))
		}
	}
	return true, -1
}
