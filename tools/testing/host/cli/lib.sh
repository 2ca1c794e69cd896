# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test's helpers, sourced by testing/host/cli-test before the tests of
# cli/NN-*.sh: the checks and their counts, running the CLI, JSON.

# result NAME OK [DETAIL-FILE]
result() {
	if [ "$2" = 0 ]; then
		echo "ok - $1"
		passed=$((passed + 1))
	else
		echo "not ok - $1"
		[ -n "${3:-}" ] && sed 's/^/#   /' "$3"
		failed=$((failed + 1))
	fi
}

# norm FILE: the age of a state (list) varies: "state-age 0.001s",
# "state_age_ms":1 and "age":0.001 read "state-age Ns", "state_age_ms":N
# and "age":N
norm() {
	sed -E -e 's/ state-age [0-9]+\.[0-9]{3}s/ state-age Ns/' \
	       -e 's/"state_age_ms":[0-9]+/"state_age_ms":N/' \
	       -e 's/"age":[0-9]+\.[0-9]{3}/"age":N/' "$1"
}

# expect NAME WANT-RC WANT-STDERR-REGEX: compares $TMP/out (its ages
# normalised) with $TMP/want and $TMP/rc with WANT-RC; stderr must match
# the regex ('' = empty).
expect() {
	local name=$1 rc=$2 err=$3 bad=0

	: > "$TMP/why"
	norm "$TMP/out" > "$TMP/out.n"
	if ! diff -u "$TMP/want" "$TMP/out.n" > "$TMP/diff"; then
		cat "$TMP/diff" >> "$TMP/why"
		bad=1
	fi
	if [ "$(cat "$TMP/rc")" != "$rc" ]; then
		echo "exit status $(cat "$TMP/rc"), wanted $rc" >> "$TMP/why"
		bad=1
	fi
	if [ -z "$err" ] && [ -s "$TMP/err" ]; then
		{ echo "unexpected stderr:"; cat "$TMP/err"; } >> "$TMP/why"
		bad=1
	elif [ -n "$err" ] && ! grep -Eq -- "$err" "$TMP/err"; then
		{ echo "stderr does not match '$err':"; cat "$TMP/err"; } \
			>> "$TMP/why"
		bad=1
	fi
	result "$name" "$bad" "$TMP/why"
}

# json_log ARGS...: with -j or -p among ARGS, keeps $TMP/out and $TMP/err
# and ARGS in $TMP/json, for the check of every JSON object every command
# printed against the schema (at the end: "every -j and -p object")
mkdir "$TMP/json"
json_runs=0
json_log() {
	local a

	for a in "$@"; do
		case $a in
		-j|--json|-p|--pretty)
			json_runs=$((json_runs + 1))
			cp "$TMP/out" "$TMP/json/$json_runs.out"
			cp "$TMP/err" "$TMP/json/$json_runs.err"
			printf '%s\0' "$@" > "$TMP/json/$json_runs.args"
			return;;
		esac
	done
}

# run STDIN-TEXT ARGS...: runs the CLI with STDIN-TEXT as its stdin
run() {
	local input=$1

	shift
	printf '%b' "$input" | timeout "$HANG" "$CLI" "$@" > "$TMP/out" \
		2> "$TMP/err"
	echo $? > "$TMP/rc"
	json_log "$@"
}

# cli ARGS...: runs the CLI with stdin from $CLI_STDIN (/dev/null),
# stdout in $TMP/out, stderr in $TMP/err, exit status in $TMP/rc
cli() {
	timeout "$HANG" "$CLI" "$@" < "${CLI_STDIN:-/dev/null}" > "$TMP/out" \
		2> "$TMP/err"
	echo $? > "$TMP/rc"
	json_log "$@"
}

# signal_when SIG OUT-LINES ERR-LINES STDIN ARGS...: runs the CLI with
# stdin from the file STDIN ("open": a FIFO held open and empty), waits
# until it has printed OUT-LINES lines on stdout and ERR-LINES on stderr,
# sends SIG and waits for it to exit ($TMP/rc). It waits for output, not
# for a time: the lines waited for are printed once the CLI has blocked
# SIGINT and SIGTERM into its signalfd, so a signal sent after them is one
# it handles, however slow the machine. (A signal that came earlier would
# kill it, or, for SIGINT, be lost: a background job starts with SIGINT
# ignored.) A CLI that exited before the signal, never printed its lines or
# outlives the signal by $HANG seconds (then SIGKILLed) gets a line on its
# stderr saying so, which fails the test.
signal_when() {
	local sig=$1 want_out=$2 want_err=$3 input=$4 fd='' short='' end

	shift 4
	if [ "$input" = open ]; then
		rm -f "$TMP/fifo"
		mkfifo "$TMP/fifo"
		exec {fd}<> "$TMP/fifo"
		input=$TMP/fifo
	fi
	# empty now: the previous case's output must not count as this one's
	: > "$TMP/out"
	: > "$TMP/err"
	"$CLI" "$@" < "$input" > "$TMP/out" 2> "$TMP/err" &
	cli_pid=$!
	end=$((SECONDS + HANG))
	until [ "$(wc -l < "$TMP/out")" -ge "$want_out" ] &&
	      [ "$(wc -l < "$TMP/err")" -ge "$want_err" ]; do
		if ! kill -0 "$cli_pid" 2> /dev/null; then
			short="cli-test: exited before its $want_out/$want_err lines on stdout/stderr"
			break
		elif [ "$SECONDS" -ge "$end" ]; then
			short="cli-test: $want_out/$want_err lines never came on stdout/stderr; SIG$sig sent anyway"
			break
		fi
		sleep 0.05
	done
	if ! kill "-$sig" "$cli_pid" 2> /dev/null; then
		[ -n "$short" ] || short="cli-test: exited before SIG$sig"
	else
		end=$((SECONDS + HANG))
		while kill -0 "$cli_pid" 2> /dev/null && [ "$SECONDS" -lt "$end" ]; do
			sleep 0.05
		done
		if kill -KILL "$cli_pid" 2> /dev/null; then
			short="cli-test: still running ${HANG}s after SIG$sig; SIGKILLed"
		fi
	fi
	wait "$cli_pid"
	echo $? > "$TMP/rc"
	cli_pid=
	[ -n "$fd" ] && exec {fd}>&-
	[ -z "$short" ] || echo "$short" >> "$TMP/err"
	json_log "$@"
}

VERSION=$(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)

# json_lines FILE: every line of FILE is one JSON object
json_lines() {
	python3 -c '
import json, sys
for n, line in enumerate(open(sys.argv[1], "rb"), 1):
    try:
        obj = json.loads(line.decode("utf-8"))
        assert isinstance(obj, dict)
    except Exception as e:
        sys.exit("line %d is not a JSON object: %r (%s)" % (n, line, e))
' "$1" 2>> "$TMP/why.json"
}

J1='joined 239.1.1.1 handle 1 mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 sl 0 port 1'
J2='joined 239.1.1.2 handle 2 mgid ::ffff:239.1.1.2 mlid 0x0 qkey 0x1234567 sl 0 port 1'
L2='ctx 1 handle 2 group 239.1.1.2 state joined type full mgid ::ffff:239.1.1.2 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm'

SCHEMA=../Documentation/rdma-mcm.schema.json
# schema_ok DEF FILE [MIN]: FILE's objects are valid $defs/DEF
schema_ok() {
	python3 testing/vm/json_check.py "$SCHEMA" "$1" "$2" --min "${3:-1}" \
		--jsonschema 2> "$TMP/why.json"
}
