package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// The git commands of review (actors/review): read a bounded output, run
// a command whose failure is an answer (a merge that conflicts). Like the
// others they run on the caller's goroutine, never in a Receive, with
// argv and never a shell.

// Git runs one git command in dir and returns its standard output; a
// failure carries git's own message (GitTimeout bounds it).
func Git(dir string, args ...string) (string, error) { return git(dir, args...) }

// GitBounded runs one git command in dir and returns at most limit bytes
// of its standard output; truncated says there was more (git is stopped
// then, its failure to write the rest not counted as one).
func GitBounded(dir string, limit int, args ...string) (out string, truncated bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = 2 * time.Second
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", false, err
	}
	if err := cmd.Start(); err != nil {
		return "", false, err
	}
	buf, rerr := io.ReadAll(io.LimitReader(pipe, int64(limit)+1))
	if len(buf) > limit {
		buf, truncated = buf[:limit], true
		_ = cmd.Process.Kill() // the rest is not wanted
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return "", false, fmt.Errorf("git %s timed out after %v", args[0], GitTimeout)
	case truncated:
		return string(buf), true, nil
	case rerr != nil:
		return "", false, rerr
	case werr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return "", false, &gitError{msg: msg}
	}
	return string(buf), false, nil
}

// GitMessage is git's own words of a failed command (its standard
// error), or the error's text.
func GitMessage(err error) string {
	var ge *gitError
	if errors.As(err, &ge) {
		return ge.msg
	}
	if err == nil {
		return ""
	}
	return err.Error()
}
