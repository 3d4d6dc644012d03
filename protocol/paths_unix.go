//go:build unix

package protocol

import (
	"os"
	"strconv"
)

// On Unix, XDG variables and HOME decide.
func platformConfigDir(Env) string { return "" }
func platformStateDir(Env) string  { return "" }

// userTag names the per-user temporary fallback: the uid.
func userTag(Env) string { return strconv.Itoa(os.Getuid()) }
