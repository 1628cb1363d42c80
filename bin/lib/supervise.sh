# shellcheck shell=bash
# Supervision of Lahar's processes for bin/start, and the pid files bin/stop reads. Source it after
# setting LAHAR_DATA (the data dir: logs go there, pid files under LAHAR_DATA/run) and defining say.
#
#   supervise_start NAME READY_URL [--live LIVE_URL] COMMAND...
#       Runs COMMAND (output appended to LAHAR_DATA/NAME.log) under a supervisor that starts it
#       again when it dies, after 1 s, then 2, 4, ... up to 30 s; after LAHAR_RESTART_LIMIT
#       (default 5) restarts in a row it gives up and says so (a run of LAHAR_STABLE_AFTER seconds
#       resets the count). A dead service never stops the others. Returns at once, so that
#       services which do not need each other start side by side.
#       A service that runs but is no longer live is treated as dead, as Kubernetes' liveness
#       probe does: LIVE_URL (READY_URL when not given) is asked every LAHAR_LIVENESS_PERIOD seconds
#       (default 10); once it has answered (or LAHAR_LIVENESS_GRACE seconds after the start, the
#       ready timeout by default), LAHAR_LIVENESS_FAILURES (default 6) failed answers in a row (an
#       error status, or none within 3 s) get the process killed (a Java one first prints its
#       threads into its log, SIGQUIT) and restarted like one that died.
#   await_ready NAME
#       Returns once NAME's READY_URL answers 2xx; fails (exit 1) if it does not within
#       LAHAR_READY_TIMEOUT seconds of its start, or if its supervisor gave up.
#   stop_supervised
#       SIGTERM to every supervisor, newest first (each passes it on to its process and waits for
#       it); SIGKILL for what still runs after LAHAR_STOP_GRACE seconds.
#   pidfile_write FILE PID / pidfile_alive FILE
#       A pid file names its process and when it started, so a pid reused by another process is
#       never taken for ours: pidfile_alive prints the pid only while that same process runs.

LAHAR_RESTART_LIMIT=${LAHAR_RESTART_LIMIT:-5}
LAHAR_STABLE_AFTER=60
LAHAR_READY_TIMEOUT=180
LAHAR_STOP_GRACE=30
LAHAR_LIVENESS_PERIOD=${LAHAR_LIVENESS_PERIOD:-10}
LAHAR_LIVENESS_FAILURES=${LAHAR_LIVENESS_FAILURES:-6}
LAHAR_LIVENESS_GRACE=${LAHAR_LIVENESS_GRACE:-$LAHAR_READY_TIMEOUT}
LAHAR_RUN="$LAHAR_DATA/run"
LAHAR_SUPERVISORS=()

# When process $1 started, as ps says it ("Fri Dec 4 13:00:01 2026"); empty if it is gone.
started_at() {
  ps -o lstart= -p "$1" 2>/dev/null | tr -s ' ' | sed 's/^ //; s/ $//'
}

pidfile_write() {
  printf '%s %s\n' "$2" "$(started_at "$2")" > "$1.tmp" && mv "$1.tmp" "$1"
}

pidfile_alive() {
  local pid started
  [ -f "$1" ] || return 1
  read -r pid started < "$1" || true
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  [ "$(started_at "$pid")" = "$started" ] || return 1
  echo "$pid"
}

# How a process ended, from the status wait gave.
describe_exit() {
  case "$1" in
    137) echo "killed (SIGKILL)" ;;
    143) echo "terminated (SIGTERM)" ;;
    1[3-9][0-9]|2[0-9][0-9]) echo "killed by signal $(($1 - 128))" ;;
    *) echo "exit status $1" ;;
  esac
}

# -k: the kube-emulator serves TLS with a certificate it makes at each start (127.0.0.1 only).
ready_url() {
  curl -fsSk -o /dev/null --max-time 3 "$1" 2>/dev/null
}

# Kills process $3 (service $1, log $4) once $2 has failed LAHAR_LIVENESS_FAILURES times in a row,
# LAHAR_LIVENESS_PERIOD seconds apart: held, not dead (a thread stuck in a call that never returns, a
# stopped process), and only a restart ends that. Failures count once $2 has answered, or once
# LAHAR_LIVENESS_GRACE seconds (as long as a start may take) have passed without an answer.
# $5 = 1: a JVM, which prints its threads into its log on SIGQUIT first, to say what held it.
liveness_watch() {
  local name=$1 url=$2 pid=$3 log=$4 java=$5 failures=0 answered=0 nap="" since=$SECONDS
  # Stopped by its supervisor: no sleep of its own left behind.
  trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null; exit 0' TERM
  while sleep "$LAHAR_LIVENESS_PERIOD" & nap=$!; wait "$nap"; kill -0 "$pid" 2>/dev/null; do
    if ready_url "$url"; then answered=1; failures=0; continue; fi
    ((answered || SECONDS - since >= LAHAR_LIVENESS_GRACE)) || continue
    failures=$((failures + 1))
    ((failures >= LAHAR_LIVENESS_FAILURES)) || continue
    say "$name is not live ($url failed $failures times in a row, ${LAHAR_LIVENESS_PERIOD}s apart): killing it for a restart (log $log)"
    printf '=== %s: not live (%s failed %d times in a row): killed by bin/start\n' "$(date '+%F %T')" "$url" "$failures" >> "$log"
    if ((java)); then
      kill -QUIT "$pid" 2>/dev/null && sleep 1
    fi
    kill -KILL "$pid" 2>/dev/null || true
    return 0
  done
}

# The supervisor's loop; runs in a background subshell started by supervise.
supervisor_loop() {
  local name=$1 ready=$2 live=$2; shift 2
  if [ "${1:-}" = --live ]; then live=$2; shift 2; fi
  local log="$LAHAR_DATA/$name.log" pidfile="$LAHAR_RUN/$name.pid"
  local child="" watcher="" stopping=0 restarts=0 delay=1 started rc java=0
  [ "$(basename "$1")" = java ] && java=1
  trap 'stopping=1; [ -n "$watcher" ] && kill "$watcher" 2>/dev/null; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null' TERM
  while :; do
    started=$SECONDS
    "$@" >> "$log" 2>&1 &
    child=$!
    pidfile_write "$pidfile" "$child"
    liveness_watch "$name" "$live" "$child" "$log" "$java" &
    watcher=$!
    if ((restarts > 0)); then
      # Say when it is back, without holding up the wait for it to die again.
      ( while kill -0 "$child" 2>/dev/null; do
          if ready_url "$ready"; then say "$name is back (restart $restarts)"; break; fi
          sleep 1
        done ) &
    fi
    rc=0
    { wait "$child"; } 2>/dev/null || rc=$?
    # A signal to the supervisor ends the wait early: wait for the process itself.
    while kill -0 "$child" 2>/dev/null; do rc=0; { wait "$child"; } 2>/dev/null || rc=$?; done
    child="" # its pid may be another process's from now on
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
    watcher=""
    rm -f "$pidfile"
    ((stopping)) && exit 0
    if ((SECONDS - started >= LAHAR_STABLE_AFTER)); then restarts=0; delay=1; fi
    if ((restarts >= LAHAR_RESTART_LIMIT)); then
      say "$name $(describe_exit "$rc") after $restarts restarts in a row: not restarting it again (log $log)"
      exit 1
    fi
    restarts=$((restarts + 1))
    say "$name $(describe_exit "$rc"); restarting it in ${delay}s (restart $restarts of at most $LAHAR_RESTART_LIMIT in a row; log $log)"
    printf '=== %s: %s; restarted by bin/start (restart %d)\n' "$(date '+%F %T')" "$(describe_exit "$rc")" "$restarts" >> "$log"
    sleep "$delay" & wait $! || true
    ((stopping)) && exit 0
    delay=$((delay * 2 > 30 ? 30 : delay * 2))
  done
}

# What await_ready needs of each service supervise_start started.
declare -gA LAHAR_READY_URL=() LAHAR_READY_DEADLINE=() LAHAR_SUPERVISOR_OF=()

supervise_start() {
  local name=$1 ready=$2; shift 2
  mkdir -p "$LAHAR_RUN"
  supervisor_loop "$name" "$ready" "$@" &
  local supervisor=$!
  LAHAR_SUPERVISORS+=("$supervisor")
  pidfile_write "$LAHAR_RUN/$name.supervisor.pid" "$supervisor"
  LAHAR_READY_URL[$name]=$ready
  LAHAR_READY_DEADLINE[$name]=$((SECONDS + LAHAR_READY_TIMEOUT))
  LAHAR_SUPERVISOR_OF[$name]=$supervisor
}

await_ready() {
  local name=$1
  local url=${LAHAR_READY_URL[$name]} supervisor=${LAHAR_SUPERVISOR_OF[$name]} deadline=${LAHAR_READY_DEADLINE[$name]}
  until ready_url "$url"; do
    if ! kill -0 "$supervisor" 2>/dev/null || ((SECONDS > deadline)); then
      say "$name did not come up (log $LAHAR_DATA/$name.log):"
      tail -50 "$LAHAR_DATA/$name.log" >&2
      exit 1
    fi
    sleep 0.5
  done
}

stop_supervised() {
  local i pid file deadline
  for ((i = ${#LAHAR_SUPERVISORS[@]} - 1; i >= 0; i--)); do
    kill -TERM "${LAHAR_SUPERVISORS[$i]}" 2>/dev/null || true
  done
  deadline=$((SECONDS + LAHAR_STOP_GRACE))
  for pid in "${LAHAR_SUPERVISORS[@]}"; do
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  done
  for file in "$LAHAR_RUN"/*.pid; do
    [ -e "$file" ] || continue
    case "$file" in */bin-start.pid) continue ;; esac
    if pid=$(pidfile_alive "$file"); then
      say "$(basename "$file" .pid) still runs after ${LAHAR_STOP_GRACE}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
  done
  for pid in "${LAHAR_SUPERVISORS[@]}"; do wait "$pid" 2>/dev/null || true; done
  LAHAR_SUPERVISORS=()
}
