# processes.sh — sourced by the headless session runners (scripts/desktop-tests/run-desktop.sh,
# scripts/wayland-tests/session-lib.sh): finding a session's processes and ending them.
#   proc_descendants PID        all descendants of PID (walks /proc), children before parents
#   proc_alive PID              PID exists and is not a zombie (kill -0 is true for zombies)
#   proc_marked VAR VALUE       pids whose environment has VAR=VALUE, this shell left out
#   proc_end SECONDS PID...     TERM to each, up to SECONDS for all to go, then KILL what is left
#   proc_session CMD_PID VAR VALUE PID...
#                               a session's processes in teardown order: CMD's descendants and CMD
#                               (CMD_PID may be empty), those marked VAR=VALUE (what CMD left in the
#                               background, what D-Bus activated), then the PIDs the runner started,
#                               last started first, each after its descendants

proc_descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do proc_descendants "$c"; echo "$c"; done
}

proc_alive() {
  local st; read -r st 2>/dev/null <"/proc/$1/stat" || return 1
  st=${st##*) }; [ "${st%% *}" != Z ]
}

proc_marked() {
  local p
  for p in $(grep -lzx "$1=$2" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
    [ "$p" != $$ ] && [ "$p" != "$BASHPID" ] && echo "$p"
  done
}

proc_end() {
  local secs=$1 p i left; shift
  for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
  for (( i = 0; i < secs * 20; i++ )); do
    left=0
    for p in "$@"; do proc_alive "$p" && left=1 && break; done
    [ $left = 0 ] && break; sleep 0.05
  done
  for p in "$@"; do kill -KILL "$p" 2>/dev/null; done
}

proc_session() {
  local cmd=$1 var=$2 value=$3 i; shift 3
  local started=("$@")
  [ -n "$cmd" ] && { proc_descendants "$cmd"; echo "$cmd"; }
  proc_marked "$var" "$value"
  for (( i=${#started[@]}-1; i>=0; i-- )); do proc_descendants "${started[i]}"; echo "${started[i]}"; done
}
