package protocol

import (
	"slices"
	"strings"
	"testing"
)

// resume_argv on the report pair: a program and its words, kept exactly;
// an empty program, a control character or too many words is refused
// with invalid_params naming the field.
func TestResumeArgvParams(t *testing.T) {
	prm, err := DecodeParams("pane.report_agent", []byte(`{"pane_id":"w1:p1","source":"s","agent":"claude","state":"idle","resume_argv":["claude","--resume","a b;c"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := prm.(*PaneReportAgentParams).ResumeArgv; !slices.Equal(got, []string{"claude", "--resume", "a b;c"}) {
		t.Fatalf("resume_argv %q", got)
	}
	many := `"x"` + strings.Repeat(`,"x"`, MaxResumeArgs)
	for _, bad := range []string{`[""]`, `[" "]`, `["claude","a\nb"]`, `[` + many + `]`, `"claude"`} {
		for _, m := range []string{"pane.report_agent", "pane.report_agent_session"} {
			_, err := DecodeParams(m, []byte(`{"pane_id":"w1:p1","source":"s","agent":"claude","state":"idle","resume_argv":`+bad+`}`))
			if e := AsError(err); e == nil || e.Code != CodeInvalidParams || !strings.Contains(e.Message, "resume_argv") {
				t.Errorf("%s resume_argv %s: %v, want invalid_params on resume_argv", m, bad, err)
			}
		}
	}
}
