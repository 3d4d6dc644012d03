package server

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestLibLogDemotesDeadLetters(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		log := slog.New(libLog{slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})}).With("lib", "protoactor")
		log.Info("[DeadLetter]", "pid", "term_1")
		log.Info("actor restarted")
		out := buf.String()
		if !strings.Contains(out, "actor restarted") || !strings.Contains(out, "lib=protoactor") {
			t.Errorf("level %v: other lines must pass: %q", level, out)
		}
		if got := strings.Contains(out, "DeadLetter"); got != (level == slog.LevelDebug) {
			t.Errorf("level %v: dead letter logged = %v: %q", level, got, out)
		}
		if level == slog.LevelDebug && !strings.Contains(out, "level=DEBUG msg=[DeadLetter]") {
			t.Errorf("a dead letter must be logged at debug: %q", out)
		}
	}
}

func TestLogLevel(t *testing.T) {
	for spec, want := range map[string]slog.Level{"": slog.LevelInfo, "debug": slog.LevelDebug, "herdr=warn": slog.LevelWarn, "info,herdr=error": slog.LevelError, "trace": slog.LevelDebug} {
		if got, err := logLevel(spec); err != nil || got != want {
			t.Errorf("logLevel(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	if _, err := logLevel("loud"); err == nil {
		t.Error("an unknown level was accepted")
	}
}
