package meta

import (
	"maps"

	"github.com/herdr-go/herdr/protocol"
)

// SeqBook remembers the last seq accepted per (kind, source).
type SeqBook struct {
	last    map[string]uint64
	sources map[string]bool
}

// Accept reports whether a report is new. Reports without seq always are;
// one with seq ≤ the last accepted from its source is accepted but ignored.
// A new sequenced source beyond the limit is refused.
func (b *SeqBook) Accept(kind, source string, seq *uint64) (bool, error) {
	if seq == nil {
		return true, nil
	}
	if b.last == nil {
		b.last, b.sources = map[string]uint64{}, map[string]bool{}
	}
	if !b.sources[source] && len(b.sources) >= protocol.MaxSequencedSources {
		return false, protocol.Errorf(protocol.CodeMetadataSeqSourceLimit, "at most %d sources may report with seq", protocol.MaxSequencedSources)
	}
	b.sources[source] = true
	key := kind + "\x00" + source
	if last, ok := b.last[key]; ok && *seq <= last {
		return false, nil
	}
	b.last[key] = *seq
	return true, nil
}

type token struct {
	value string
	gen   uint64
}

// Tokens holds a pane's or workspace's reported tokens, each tagged with
// the TTL generation that set it (0: no expiry).
type Tokens map[string]token

// Apply sets and clears tokens (an empty or null value clears), refusing
// to hold more than the limit; on refusal nothing changes.
func (ts *Tokens) Apply(in map[string]*string, gen uint64) error {
	if len(in) == 0 {
		return nil
	}
	next := maps.Clone(*ts)
	if next == nil {
		next = Tokens{}
	}
	for k, v := range in {
		val := ""
		if v != nil {
			val = protocol.SanitizeText(*v, protocol.MaxMetadataText)
		}
		if val == "" {
			delete(next, k)
		} else {
			next[k] = token{value: val, gen: gen}
		}
	}
	if len(next) > protocol.MaxTokensPerResource {
		return protocol.Errorf(protocol.CodeMetadataTokenLimit, "at most %d tokens per pane or workspace", protocol.MaxTokensPerResource)
	}
	*ts = next
	return nil
}

// Expire drops the tokens of one TTL generation and reports whether any went.
func (ts Tokens) Expire(gen uint64) bool {
	changed := false
	for k, v := range ts {
		if v.gen == gen {
			delete(ts, k)
			changed = true
		}
	}
	return changed
}

// Wire is the tokens as the API shows them (nil when there are none).
func (ts Tokens) Wire() map[string]string {
	if len(ts) == 0 {
		return nil
	}
	out := make(map[string]string, len(ts))
	for k, v := range ts {
		out[k] = v.value
	}
	return out
}

// Value is one token's value.
func (ts Tokens) Value(key string) (string, bool) {
	t, ok := ts[key]
	return t.value, ok
}

// Lasting is the tokens that have no TTL, as a report would set them.
func (ts Tokens) Lasting() map[string]*string {
	out := map[string]*string{}
	for k, v := range ts {
		if v.gen == 0 {
			out[k] = &v.value
		}
	}
	return out
}
