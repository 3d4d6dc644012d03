package session

import "github.com/herdr-go/herdr/actors/session/model"

var tabHandlers = map[string]handler{
	"tab.create": placing((*model.Tx).CreateTab, (*model.Tx).TabMade),
	"tab.focus":  onTab((*model.Tx).TabFocus),
	"tab.close":  onTab((*model.Tx).TabClose),
}
