package tui

import (
	"reflect"

	"github.com/herdr-go/herdr/protocol"
)

// clean makes every string in v (a pointer to a snapshot or any other
// value from the server) printable, in place. Every label, title, agent
// name or token can come from another client or a program in a pane; they
// are cleaned once when they arrive, so nothing drawn from them can carry
// an escape sequence to the person's terminal, whatever field a later
// version adds.
func clean(v any) { cleanValue(reflect.ValueOf(v)) }

func cleanValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanValue(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				cleanValue(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			cleanValue(v.Index(i))
		}
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.String {
			return
		}
		for _, k := range v.MapKeys() {
			if s := v.MapIndex(k).String(); protocol.Printable(s) != s {
				v.SetMapIndex(k, reflect.ValueOf(protocol.Printable(s)).Convert(v.Type().Elem()))
			}
		}
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); protocol.Printable(s) != s {
				v.SetString(protocol.Printable(s))
			}
		}
	}
}
