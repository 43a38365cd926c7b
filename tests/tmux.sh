# tests/tmux.sh - a private tmux server for the TUI tests, sourced after
# tests/lib.sh: $T runs tmux on it, $S names the session, screen prints
# the pane, wait_for PATTERN [TENTHS] polls it (default WAIT_TENTHS, 5 s)
# for an extended regex.  The server (kept up by a session of its own)
# dies with the test.  Without tmux
# the test says it is skipped and ends here.
if ! command -v tmux >/dev/null 2>&1; then
	skip "$(basename "$0" .sh)" "tmux is not installed"
	exit 0
fi

S=urbscope-$(basename "$0" .sh)-$$
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
cleanup_tmux() { $T kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup_tmux EXIT
# A session that stays: without it, killing the test's session to start
# it again (start FILE in the tests) empties the server, which exits, and
# a new-session racing that exit fails with "server exited unexpectedly"
# (4 in 300 here: the first screen never comes, and every check after).
# Its name starts no test's session name, which tmux would take as a
# prefix of it while the test's session is not there.
$T new-session -d -s keeper "sleep 100000" >/dev/null 2>&1

screen() { $T capture-pane -p -t "$S" 2>/dev/null; }

wait_for() {
	i=0
	while [ $i -lt "${2:-${WAIT_TENTHS:-50}}" ]; do
		if screen | grep -qE -- "$1"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
