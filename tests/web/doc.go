// Package web is one area of the end-to-end suite (tests/doc.go):
// the web dashboard, through its HTTP API and a headless
// chromium where installed.
package web
