package server

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/web"
)

// Every owner's handlers are exactly the methods the table gives it: the
// check Run does before it starts anything.
func TestRegistries_MatchMethodTable(t *testing.T) {
	if err := checkRegistries(registries); err != nil {
		t.Fatal(err)
	}
}

// Leaving an owner's registry out fails the start-up check, naming a
// method of that owner.
func TestRegistries_MissingOwnerFailsStartUp(t *testing.T) {
	var without []kit.Checker
	for _, r := range registries {
		if r != kit.Checker(web.Registry) {
			without = append(without, r)
		}
	}
	err := checkRegistries(without)
	if err == nil || !strings.Contains(err.Error(), "gives it to web, which has no registry") {
		t.Fatalf("got %v", err)
	}
}
