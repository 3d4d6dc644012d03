# Conveniences only: every recipe is a plain go command.

build:
    CGO_ENABLED=0 go build -o bin/ ./cmd/herdr ./cmd/herdr-full

test:
    go test ./...

bench:
    go test -run '^$' -bench . -benchmem ./emulator/ ./actors/server/

lint:
    gofmt -l . && go vet ./...
