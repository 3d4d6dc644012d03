package protocol

// ClientFrontEvent is the line an interactive client is pushed when it is in
// front again because the client that took the size from it went away; it
// answers with client.resize, so the panes follow its size at once.
const ClientFrontEvent = "client.front"
