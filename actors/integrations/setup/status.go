package setup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// Status is what is installed for one target.
type Status struct {
	Target *Target
	// Path is the installed file carrying the markers ("" when unknown).
	Path string
	// Installed is the version its marker names; 0 when the file has none.
	Installed int
	// Present reports whether the file exists.
	Present bool
	// Err is set when the target's directory cannot be resolved.
	Err error
}

// Outdated reports an installed integration older than this herdr's.
func (s Status) Outdated() bool { return s.Present && s.Installed < s.Target.Version }

// State is the status as integration.list names it: not_installed,
// current, or outdated (an installed file older than this herdr's, or
// one that cannot be read: installing again replaces it).
func (s Status) State() string {
	switch {
	case !s.Present:
		return protocol.IntegrationNotInstalled
	case s.Err != nil || s.Outdated():
		return protocol.IntegrationOutdated
	}
	return protocol.IntegrationCurrent
}

// String is the status line: "claude: current (v7) (path)",
// "claude: outdated (v5 < v7) (path)" or "claude: not installed".
func (s Status) String() string {
	switch {
	case s.Err != nil:
		return fmt.Sprintf("%s: unknown (%v)", s.Target.Name, s.Err)
	case !s.Present:
		return s.Target.Name + ": not installed"
	case s.Outdated():
		return fmt.Sprintf("%s: outdated (v%d < v%d) (%s)", s.Target.Name, s.Installed, s.Target.Version, s.Path)
	default:
		return fmt.Sprintf("%s: current (v%d) (%s)", s.Target.Name, s.Installed, s.Path)
	}
}

// StatusOf reads the target's installed marker file.
func StatusOf(t *Target, getenv func(string) string) Status {
	s := Status{Target: t}
	s.Path, s.Err = t.MarkerFile(getenv)
	if s.Err != nil {
		return s
	}
	data, err := protocol.ReadRegularFile(s.Path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return s
	}
	s.Present = true
	if err != nil {
		s.Err = err // a FIFO or a device there is reported, never waited on
		return s
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 0; sc.Scan() && n < 20; n++ {
		if _, v, ok := strings.Cut(sc.Text(), "HERDR_INTEGRATION_VERSION="); ok {
			s.Installed, _ = strconv.Atoi(strings.TrimSpace(v))
			break
		}
	}
	return s
}

// List is every target as integration.list shows it, in the schema's
// order. An installed target is available whatever its folders say now.
func List(getenv func(string) string) []protocol.IntegrationInfo {
	out := make([]protocol.IntegrationInfo, 0, len(targets()))
	for _, t := range targets() {
		state := StatusOf(t, getenv).State()
		out = append(out, protocol.IntegrationInfo{Target: t.Wire, Label: t.Name, Command: t.Command(),
			Available: state != protocol.IntegrationNotInstalled || t.Available(getenv), State: state})
	}
	return out
}
