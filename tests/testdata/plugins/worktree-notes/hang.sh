# Hang on purpose: note this shell's pid and a child's, then wait for ever.
# The server must kill both at its command timeout.
echo $$ > "$HERDR_PLUGIN_STATE_DIR/hang.pid"
sleep 300 &
echo $! > "$HERDR_PLUGIN_STATE_DIR/hang-child.pid"
wait
