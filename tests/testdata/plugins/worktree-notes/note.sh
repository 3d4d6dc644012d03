# Keep the event and the context a worktree.created hook receives.
printf '%s\n' "$HERDR_PLUGIN_EVENT_JSON" > "$HERDR_PLUGIN_STATE_DIR/event.json"
printf '%s\n' "$HERDR_PLUGIN_CONTEXT_JSON" > "$HERDR_PLUGIN_STATE_DIR/context.json"
printf '%s\n' "$HERDR_PLUGIN_EVENT" > "$HERDR_PLUGIN_STATE_DIR/event-name"
