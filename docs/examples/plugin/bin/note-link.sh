#!/bin/sh
# The note-link action, run by the issue link handler: the clicked link
# (in the invocation context) is noted beside the tabs.
set -eu
printf '%s\n' "$HERDR_PLUGIN_CONTEXT_JSON" >> "$HERDR_PLUGIN_STATE_DIR/links.jsonl"
