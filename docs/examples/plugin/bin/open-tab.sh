#!/bin/sh
# The open-tab action: a tab labelled "notes" in the workspace the action
# was invoked from, made through herdr's own CLI (HERDR_SOCKET_PATH names
# the server). Its JSON answer is the action's output.
set -eu
exec "${HERDR_BIN_PATH:-herdr}" tab create --workspace "$HERDR_WORKSPACE_ID" --label notes
