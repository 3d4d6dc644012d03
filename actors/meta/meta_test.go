package meta

import (
	"maps"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

func u(n uint64) *uint64 { return &n }
func s(v string) *string { return &v }

func TestSeqBook_DropsStaleReportsPerSource(t *testing.T) {
	var b SeqBook
	for _, c := range []struct {
		source string
		seq    *uint64
		want   bool
	}{{"a", u(2), true}, {"a", u(2), false}, {"a", u(1), false}, {"b", u(1), true}, {"a", u(3), true}, {"a", nil, true}} {
		got, err := b.Accept("meta", c.source, c.seq)
		if err != nil || got != c.want {
			t.Fatalf("Accept(%s, %v) = %v, %v; want %v", c.source, c.seq, got, err, c.want)
		}
	}
	if ok, _ := b.Accept("agent", "a", u(1)); !ok {
		t.Fatal("kinds must keep separate sequences")
	}
}

func TestSeqBook_SourceLimit(t *testing.T) {
	var b SeqBook
	for i := range protocol.MaxSequencedSources {
		if _, err := b.Accept("meta", string(rune('a'+i%26))+string(rune('A'+i/26)), u(1)); err != nil {
			t.Fatalf("source %d: %v", i, err)
		}
	}
	_, err := b.Accept("meta", "one-too-many", u(1))
	if protocol.AsError(err).Code != protocol.CodeMetadataSeqSourceLimit {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestTokens_ApplyExpireLimit(t *testing.T) {
	var ts Tokens
	if err := ts.Apply(map[string]*string{"a": s("1"), "b": s("2")}, 0); err != nil {
		t.Fatal(err)
	}
	if err := ts.Apply(map[string]*string{"b": nil, "c": s("3")}, 7); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a": "1", "c": "3"}; !maps.Equal(ts.Wire(), want) {
		t.Fatalf("tokens %v, want %v", ts.Wire(), want)
	}
	if !ts.Expire(7) || ts.Expire(7) {
		t.Fatal("generation 7 should expire once")
	}
	if want := map[string]string{"a": "1"}; !maps.Equal(ts.Wire(), want) {
		t.Fatalf("after expiry %v, want %v", ts.Wire(), want)
	}
	many := map[string]*string{}
	for i := range protocol.MaxTokensPerResource + 1 {
		many[string(rune('a'+i%26))+string(rune('A'+i/26))] = s("x")
	}
	if err := ts.Apply(many, 0); protocol.AsError(err).Code != protocol.CodeMetadataTokenLimit {
		t.Fatalf("over the limit: %v", err)
	}
	if want := map[string]string{"a": "1"}; !maps.Equal(ts.Wire(), want) {
		t.Fatalf("a refused apply changed the tokens: %v", ts.Wire())
	}
}
