# Conveniences only: every recipe is a plain go command.

build:
    go build -o bin/herdr ./cmd/herdr

test:
    go test ./...

bench:
    go test -run '^$' -bench . -benchmem ./emulator/ ./actors/server/

lint:
    gofmt -l . && go vet ./...
