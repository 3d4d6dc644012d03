// Package gateway accepts API connections and gives each one a conn actor.
//
// A conn actor decodes request lines, answers ping and server.stop itself,
// sends every other call to the session (which may hand it on to a pane)
// and writes the replies back in request order. Socket reads and writes run
// on two goroutines per connection, so a slow client never blocks an actor.
package gateway
