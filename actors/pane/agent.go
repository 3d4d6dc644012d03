package pane

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// The pane's side of the agent API. The session resolves the agent target
// to this pane and sends an AgentRequest; reads, explanations and keys are
// answered to the connection directly, typed prompts and launches to the
// session (which owns names and waits) as an AgentInput.

// Agent request operations.
const (
	AgentRead     = "read"
	AgentExplain  = "explain"
	AgentSendKeys = "send_keys"
	AgentPrompt   = "prompt" // Text is typed (pasted when asked) then Enter
	AgentLaunch   = "launch" // Argv is typed into an idle shell, quoted for that shell
)

// AgentRequest is an agent.* call resolved to this pane.
type AgentRequest struct {
	Op  string
	Req Request // the call and the pane's public ids
	// What the session sees: the agent, its internal state, and whether
	// hook authority replaces screen detection (and whose).
	Agent     string
	State     string
	Skipped   bool
	Authority string
	Text      string
	Argv      []string // AgentLaunch's command
	Keys      []string
	Token     uint64 // echoed in AgentInput
}

// AgentInput answers AgentPrompt and AgentLaunch to the session.
type AgentInput struct {
	Token uint64
	Err   error
}

func (p *Pane) handleAgent(ctx actor.Context, r *AgentRequest) {
	switch r.Op {
	case AgentRead:
		prm := r.Req.Call.Params.(*protocol.AgentReadParams)
		if p.readFullScreen(ctx, r, prm) {
			return // refused, or answered once its transcript is read (altread.go)
		}
		ctx.Respond(kit.Done(protocol.PaneRead{Read: p.readScreen(&r.Req, prm.Source, prm.Lines, prm.Format, prm.StripANSI)}))
	case AgentExplain:
		ctx.Respond(p.explain(r))
	case AgentSendKeys:
		b, err := p.encodeKeys(nil, r.Keys)
		if err == nil {
			err = p.inputErr(b, protocol.CodeAgentSendKeysFailed)
		}
		if err != nil {
			ctx.Respond(kit.Fail(err))
			return
		}
		ctx.Respond(kit.OK())
	case AgentPrompt:
		b := p.pasteText(nil, r.Text)
		b = append(b, '\r')
		ctx.Respond(&AgentInput{Token: r.Token, Err: p.inputErr(b, protocol.CodeAgentPromptFailed)})
	case AgentLaunch:
		if err := p.shellIdle(); err != nil {
			ctx.Respond(&AgentInput{Token: r.Token, Err: err})
			return
		}
		// Typed once a walk names the shell in front (launch.go).
		c := p.jobsOf()
		c.launches = append(c.launches, launchAsk{to: ctx.Sender(), r: r})
		p.walkNow(ctx)
	default:
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "unknown agent request %q", r.Op)))
	}
}

// pasteText appends text, wrapped as a bracketed paste when the program
// asked for it.
func (p *Pane) pasteText(dst []byte, text string) []byte {
	if p.term.Modes().BracketedPaste {
		dst = append(dst, "\x1b[200~"...)
		dst = append(dst, text...)
		return append(dst, "\x1b[201~"...)
	}
	return append(dst, text...)
}

// inputErr writes to the program in one write, reporting failure with code.
func (p *Pane) inputErr(b []byte, code string) error {
	if r := p.input(b); r.Err != nil {
		return protocol.Errorf(code, "%s", protocol.AsError(r.Err).Message)
	}
	return nil
}

// shellIdle reports agent_pane_busy unless the shell itself owns the
// terminal's foreground (nothing else runs in the pane).
func (p *Pane) shellIdle() error {
	if !p.running() {
		return protocol.Errorf("agent_pane_unavailable", "the pane has exited")
	}
	if fg := p.foregroundGroup(); fg > 0 && fg != p.con.Pid() {
		return protocol.Errorf(protocol.CodeAgentPaneBusy, "another program runs in the pane's foreground")
	}
	if p.det.agent != "" {
		return protocol.Errorf(protocol.CodeAgentPaneBusy, "the pane already runs %s", p.det.agent)
	}
	return nil
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// explain evaluates the agent's manifest on the screen as it is now.
func (p *Pane) explain(r *AgentRequest) *kit.Reply {
	var m *rules.Manifest
	if p.spec.Catalog != nil {
		m, _ = p.spec.Catalog.Get(r.Agent)
	}
	var doc protocol.AgentExplanation
	if m == nil {
		if r.Authority == "" {
			return kit.Fail(protocol.Errorf(protocol.CodeAgentExplainUnavail, "no detection manifest for %s", r.Agent))
		}
		doc = protocol.AgentExplanation{Agent: r.Agent, EvaluatedRules: []protocol.ExplainedRule{},
			Warning: strPtr("no detection manifest for " + r.Agent + "; its state comes from hook " + r.Authority)}
	} else {
		text := p.term.Read(emulator.ReadOptions{Source: emulator.SourceDetection}).Text
		doc = rules.Explain(r.Agent, m, m.Evaluate(rules.Input{Lines: strings.Split(text, "\n"), Title: p.title}))
	}
	doc.PaneID, doc.State = r.Req.PaneID, r.State
	doc.DetectedAgent, doc.ScreenState = strPtr(p.det.agent), strPtr(string(p.det.state))
	doc.ScreenDetectionSkipped, doc.HookAuthority = r.Skipped, strPtr(r.Authority)
	if r.Skipped {
		// The rules are still evaluated (evidence for the curious), but
		// the hook's state is the one in force.
		doc.ScreenDetectionSkipReason = strPtr("full_lifecycle_hook_authority")
	}
	return kit.Done(protocol.AgentExplainResult{Explain: doc})
}
