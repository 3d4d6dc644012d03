#!/bin/sh
# The tab.created hook: one line per new tab, the event's JSON as it came.
set -eu
printf '%s\n' "$HERDR_PLUGIN_EVENT_JSON" >> "$HERDR_PLUGIN_STATE_DIR/tabs.jsonl"
