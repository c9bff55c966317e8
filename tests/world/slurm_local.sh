#!/usr/bin/env bash
# slurm_local.sh - throwaway single-node Slurm cluster (munged + slurmctld +
# slurmd) on localhost, for tests.  Everything it creates lives under
# STATE_DIR; it never reads or writes /etc/slurm, /etc/munge or /run/munge.
#
# Usage:
#   slurm_local.sh start  STATE_DIR   start (or reuse) the cluster; prints
#                                     "export SLURM_CONF=..." on stdout
#   slurm_local.sh stop   STATE_DIR   cancel its jobs, stop its daemons
#   slurm_local.sh status STATE_DIR   exit 0 if the cluster answers
#   slurm_local.sh env    STATE_DIR   print the export line again
#
#   eval "$(tests/world/slurm_local.sh start /tmp/slurm-test)"
#   srun -N1 hostname
#   tests/world/slurm_local.sh stop /tmp/slurm-test
#
# Environment knobs:
#   SLURM_LOCAL_CTLD_PORT    slurmctld port (default: first free pair of
#                            16817+2k, 16818+2k on 127.0.0.1)
#   SLURM_LOCAL_SLURMD_PORT  slurmd port (default CTLD_PORT+1)
#   SLURM_LOCAL_TIMEOUT      seconds to wait for the node to be idle (30)
#   SLURM_LOCAL_PARTITION    partition name (default "debug")
#   SLURM_LOCAL_CLUSTER      ClusterName (default "localtest")
#
# Requires the Debian packages slurm-wlm (slurmctld, slurmd, slurm-client)
# and munge.  Needs no cgroups and no systemd (proctrack/linuxproc,
# task/none).  Stdout carries only the export line; progress goes to stderr.
set -euo pipefail

die() { echo "slurm_local.sh: error: $*" >&2; exit 1; }
say() { echo "slurm_local.sh: $*" >&2; }

[ $# -eq 2 ] || die "usage: $0 {start|stop|status|env} STATE_DIR"
cmd=$1
STATE=$(realpath -m -- "$2")

CONF=$STATE/etc/slurm.conf
RUN=$STATE/run
LOG=$STATE/log
MUNGE_DIR=$STATE/munge
SOCK=$MUNGE_DIR/munge.socket
CTLD_PORT=${SLURM_LOCAL_CTLD_PORT:-}
SLURMD_PORT=${SLURM_LOCAL_SLURMD_PORT:-}
TIMEOUT=${SLURM_LOCAL_TIMEOUT:-30}
PARTITION=${SLURM_LOCAL_PARTITION:-debug}
CLUSTER=${SLURM_LOCAL_CLUSTER:-localtest}

# Daemons in stop order; each has run/<name>.pid and /proc/<pid>/comm == name.
DAEMONS="slurmd slurmctld munged"

alive() {  # $1 pid; zombies count as dead (PID 1 in a container may reap late)
    local st
    st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

pid_of() {  # print the pid of daemon $1 if its pid file names a live process of that name
    local f=$RUN/$1.pid pid comm
    [ -s "$f" ] || return 1
    pid=$(tr -dc '0-9' < "$f")
    [ -n "$pid" ] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [ "$comm" = "$1" ] || return 1
    alive "$pid" || return 1
    echo "$pid"
}

daemon_pids() {  # daemons started for this STATE_DIR, found by pid file or command line
    local name f p
    for name in $DAEMONS; do pid_of "$name" || true; done
    # Also by command line (covers deleted/overwritten pid files):
    # "slurmctld -f CONF", "slurmd -f CONF", "munged ... --socket=SOCK ...".
    for f in $(grep -lsxzF -e "$CONF" -e "--socket=$SOCK" /proc/[0-9]*/cmdline 2>/dev/null || true); do
        p=${f#/proc/}; p=${p%/cmdline}
        case $(cat "/proc/$p/comm" 2>/dev/null) in
            slurmctld|slurmd|munged) alive "$p" && echo "$p" ;;
        esac
    done
}

print_env() { echo "export SLURM_CONF=$CONF"; }

dump_logs() {
    local f
    for f in "$LOG"/munged.log "$LOG"/slurmctld.log "$LOG"/slurmd.log \
             "$LOG"/slurmctld.stderr "$LOG"/slurmd.stderr "$LOG"/munged.stderr; do
        [ -s "$f" ] || continue
        echo "----- $f (last 40 lines) -----" >&2
        tail -n 40 "$f" >&2
    done
}

cluster_ok() {  # controller answers and our node is idle (or allocated/mixed)
    local state
    [ -f "$CONF" ] || return 1
    state=$(SLURM_CONF=$CONF timeout 5 sinfo -h -N -o '%T' 2>/dev/null | head -n1) || return 1
    case $state in idle|mixed|allocated|completing) return 0 ;; *) return 1 ;; esac
}

# Normally scancel ends all jobs.  If slurmctld/slurmd died (kill -9, crash),
# job processes outlive them: kill slurmstepd processes and job processes
# (SLURM_JOB_ID set) whose environment carries *this* cluster's SLURM_CONF.
# Never this script or its ancestors.
kill_orphans() {
    local p self_chain="" q=$$
    while [ -n "$q" ] && [ "$q" -gt 1 ]; do
        self_chain="$self_chain $q "
        q=$(awk '{print $4}' "/proc/$q/stat" 2>/dev/null || true)
    done
    local f
    for f in $(grep -lsxzF "SLURM_CONF=$CONF" /proc/[0-9]*/environ 2>/dev/null || true); do
        p=${f#/proc/}; p=${p%/environ}
        case "$self_chain" in *" $p "*) continue ;; esac
        if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ] ||
           grep -qsz '^SLURM_JOB_ID=' "$f" 2>/dev/null; then
            kill -KILL "$p" 2>/dev/null || true
        fi
    done
}

do_stop() {
    local name pid i
    # Cancel jobs first so that no job processes are left behind.
    if [ -f "$CONF" ] && pid_of slurmctld >/dev/null; then
        local ids
        ids=$(SLURM_CONF=$CONF timeout 5 squeue -h -o %i 2>/dev/null || true)
        if [ -n "$ids" ]; then
            # shellcheck disable=SC2086
            SLURM_CONF=$CONF timeout 10 scancel --full $ids 2>/dev/null || true
            for i in $(seq 1 20); do
                [ -z "$(SLURM_CONF=$CONF timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
                sleep 0.5
            done
        fi
    fi
    # Jobs are gone; the daemons can be stopped together (each takes ~2 s).
    local pids
    pids=$(daemon_pids | sort -u)
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $pids; do
        for i in $(seq 1 50); do
            alive "$pid" || break
            sleep 0.1
        done
        if alive "$pid"; then
            say "pid $pid ignored SIGTERM for 5s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    for name in $DAEMONS; do rm -f "$RUN/$name.pid"; done
    kill_orphans
    rm -f "$SOCK" "$SOCK.lock"
}

abort_start() {  # print logs, stop whatever started, exit 1
    dump_logs
    do_stop
    die "$*"
}

wait_pidfile() {  # $1 daemon name, $2 seconds
    local i
    for i in $(seq 1 $(($2 * 10))); do
        pid_of "$1" >/dev/null && return 0
        sleep 0.1
    done
    return 1
}

write_conf() {
    local host cpus mem hw layout
    host=$(hostname -s)
    # slurmd -C reports what slurmd will detect; using it keeps the node
    # from being drained for "Low RealMemory" / CPU count mismatch.
    hw=$(slurmd -C 2>/dev/null | head -n1)
    cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
    mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
    [ -n "$cpus" ] || cpus=$(nproc)
    layout=$(grep -oE '(Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+' <<<"$hw" | tr '\n' ' ')
    [ -n "$mem" ] || mem=$(($(awk '/^MemTotal:/{print $2}' /proc/meminfo) / 1024))
    cat > "$CONF" <<EOF
# Generated by slurm_local.sh; single node, no cgroups, no accounting.
ClusterName=$CLUSTER
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$STATE/spool/slurmctld
SlurmdSpoolDir=$STATE/spool/slurmd
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LOG/jobcomp.txt
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
MailProg=/bin/true
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus ${layout}RealMemory=$mem State=UNKNOWN
PartitionName=$PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    # Slurm looks for plugstack.conf next to slurm.conf; keep an empty one
    # here so the host's /etc/slurm/plugstack.conf is never read.
    : > "$STATE/etc/plugstack.conf"
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {
    local k p
    if [ -z "$CTLD_PORT" ]; then
        for k in $(seq 0 40); do
            p=$((16817 + 2 * k))
            if ! port_busy "$p" && ! port_busy $((p + 1)); then CTLD_PORT=$p; break; fi
        done
        [ -n "$CTLD_PORT" ] || die "no free port pair in 16817-16898"
    fi
    [ -n "$SLURMD_PORT" ] || SLURMD_PORT=$((CTLD_PORT + 1))
    port_busy "$CTLD_PORT" && die "port $CTLD_PORT (slurmctld) is in use"
    port_busy "$SLURMD_PORT" && die "port $SLURMD_PORT (slurmd) is in use"
    return 0
}

do_start() {
    local t0 t1 i
    t0=$(date +%s.%N)
    for b in munged mungekey slurmctld slurmd sinfo scontrol; do
        command -v "$b" >/dev/null || die "$b not found (apt-get install slurm-wlm munge)"
    done
    # Check pid files first: sinfo against a dead controller blocks for seconds.
    if pid_of munged >/dev/null && pid_of slurmctld >/dev/null && pid_of slurmd >/dev/null && cluster_ok; then
        say "already running under $STATE"
        print_env
        return 0
    fi
    # Leftovers (crashed run, half-started cluster, deleted pid files): stop
    # whatever belongs to this STATE_DIR, then rebuild our subdirectories.
    do_stop
    [ ${#SOCK} -lt 100 ] || die "STATE_DIR path too long for a unix socket: $SOCK"
    rm -rf "$STATE/etc" "$RUN" "$LOG" "$MUNGE_DIR" "$STATE/spool"
    mkdir -p "$STATE"
    (umask 077 && mkdir -p "$STATE/etc" "$RUN" "$LOG" "$MUNGE_DIR" "$STATE/spool/slurmctld" "$STATE/spool/slurmd")
    # munged checks the permissions of its paths: own dirs 0755, spool 0700.
    chmod 0755 "$STATE" "$STATE/etc" "$RUN" "$LOG"
    chmod 0755 "$MUNGE_DIR"   # clients (srun, sbatch) must reach the socket

    # --- munge -----------------------------------------------------------
    mungekey --create --keyfile="$MUNGE_DIR/munge.key" 2>"$LOG/munged.stderr" \
        || abort_start "mungekey failed"
    chmod 0600 "$MUNGE_DIR/munge.key"
    # --force: run as root, and only warn about group-writable parents of
    # STATE_DIR (e.g. a CI workspace) instead of refusing to start.
    munged --force --socket="$SOCK" --key-file="$MUNGE_DIR/munge.key" \
        --pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
        --seed-file="$MUNGE_DIR/munged.seed" >>"$LOG/munged.stderr" 2>&1 \
        || { abort_start "munged failed to start"; }
    wait_pidfile munged 10 || { abort_start "munged did not write its pid file"; }
    for i in $(seq 1 50); do [ -S "$SOCK" ] && break; sleep 0.1; done
    munge -n --socket="$SOCK" | unmunge --socket="$SOCK" >/dev/null 2>&1 \
        || { abort_start "munge round trip through $SOCK failed"; }

    # --- slurm -----------------------------------------------------------
    pick_ports
    write_conf
    export SLURM_CONF=$CONF
    # -i: ignore (absent) saved state; fresh cluster every time.
    slurmctld -f "$CONF" -i >"$LOG/slurmctld.stderr" 2>&1 \
        || { abort_start "slurmctld failed to start"; }
    wait_pidfile slurmctld 10 || { abort_start "slurmctld did not write its pid file"; }
    slurmd -f "$CONF" >"$LOG/slurmd.stderr" 2>&1 \
        || { abort_start "slurmd failed to start"; }
    wait_pidfile slurmd 10 || { abort_start "slurmd did not write its pid file"; }

    for i in $(seq 1 $((TIMEOUT * 5))); do
        cluster_ok && break
        sleep 0.2
    done
    if ! cluster_ok; then
        echo "sinfo says:" >&2
        timeout 5 sinfo -N -l >&2 2>&1 || true
        timeout 5 scontrol show node >&2 2>&1 || true
        abort_start "node did not become idle within ${TIMEOUT}s"
    fi
    t1=$(date +%s.%N)
    say "cluster up under $STATE in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')s (partition $PARTITION)"
    print_env
}

case $cmd in
    start) do_start ;;
    stop) do_stop; say "stopped (nothing of $STATE left running; files kept)" ;;
    status) pid_of munged >/dev/null && pid_of slurmctld >/dev/null && pid_of slurmd >/dev/null && cluster_ok ;;
    env) [ -f "$CONF" ] || die "no cluster config under $STATE"; print_env ;;
    *) die "usage: $0 {start|stop|status|env} STATE_DIR" ;;
esac
