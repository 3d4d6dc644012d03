package protocol

import (
	"runtime/debug"
	"sync"
)

// BuildName names this implementation in Build, beside Herdr's Version.
const BuildName = "herdr-go"

// Build is this program's own build, "herdr-go <version>": the module
// version it was built at, else its VCS revision (with "+dirty" when the
// tree had changes), else "devel". ping reports it as "build" (an
// extension: Herdr's pong has no such field) and `herdr --version` prints
// it under the Herdr version, so two builds that speak the same Herdr
// version are still told apart.
var Build = sync.OnceValue(func() string { return BuildName + " " + buildVersion() })

func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "devel"
	}
	return rev + dirty
}
