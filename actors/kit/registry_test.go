package kit

import (
	"errors"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

func testTable() []protocol.Method {
	return []protocol.Method{
		{Name: "a.one", Owner: protocol.OwnerClients, Shape: protocol.ShapeAnswer},
		{Name: "a.two", Owner: protocol.OwnerClients, Shape: protocol.ShapeAnswer},
		{Name: "b.one", Owner: protocol.OwnerWeb, Shape: protocol.ShapeAnswer},
	}
}

func TestRegistry_MatchingTablePasses(t *testing.T) {
	r := NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1}, map[string]int{"a.two": 2})
	if err := r.CheckAgainst(testTable()); err != nil {
		t.Fatal(err)
	}
	if h, ok := r.Lookup("a.two"); !ok || h != 2 {
		t.Fatalf("Lookup(a.two) = %d, %v", h, ok)
	}
}

// A method the table gives the owner without a handler names the method,
// its owner in the table and the registry that lacks it.
func TestRegistry_MissingHandlerNamesBothPlaces(t *testing.T) {
	r := NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1})
	err := r.CheckAgainst(testTable())
	want := "method a.two: the method table (protocol) gives it to clients, but the clients registry (actors/clients) has no handler for it"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// A method its callers route elsewhere (Routed) needs no handler, and
// Lookup finds none for it; another method still does.
func TestRegistry_RoutedMethodsNeedNoHandler(t *testing.T) {
	r := NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1}).Routed([]string{"a.two"})
	if err := r.CheckAgainst(testTable()); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup("a.two"); ok {
		t.Fatal("Lookup found a handler for a routed method")
	}
	r = NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1}).Routed([]string{"b.one"})
	if err := r.CheckAgainst(testTable()); err == nil || !strings.Contains(err.Error(), "method a.two") {
		t.Fatalf("a.two has no handler and is not routed: %v", err)
	}
}

// A handler of a method the table gives another owner names the method,
// the owner the table gives it to and the registry that holds it.
func TestRegistry_MisplacedHandlerNamesBothPlaces(t *testing.T) {
	r := NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1, "a.two": 2, "b.one": 3, "c.none": 4})
	err := r.CheckAgainst(testTable())
	for _, want := range []string{
		"method b.one: the method table (protocol) gives it to web, but the clients registry (actors/clients) has a handler for it",
		"method c.none: the clients registry (actors/clients) has a handler for it, but the method table (protocol) has no such method",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

func TestRegistry_FitRefusesAWrongKind(t *testing.T) {
	r := NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1, "a.two": -2}).WithFit(func(m protocol.Method, h int) error {
		if h < 0 {
			return errNegative
		}
		return nil
	})
	err := r.CheckAgainst(testTable())
	if err == nil || !strings.Contains(err.Error(), "method a.two: the clients registry (actors/clients): negative") {
		t.Fatalf("got %v", err)
	}
}

var errNegative = errors.New("negative")

func TestRegistry_DuplicateAcrossAreasPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "a.one registered twice") {
			t.Fatalf("recovered %v", r)
		}
	}()
	NewRegistry(protocol.OwnerClients, "actors/clients", map[string]int{"a.one": 1}, map[string]int{"a.one": 2})
}

// CheckAll names an owner of the table that has no registry at all.
func TestCheckAll_OwnerWithoutRegistry(t *testing.T) {
	err := CheckAll()
	if err == nil || !strings.Contains(err.Error(), "gives it to gateway, which has no registry") {
		t.Fatalf("got %v", err)
	}
}
