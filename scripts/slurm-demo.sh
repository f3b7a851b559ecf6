#!/usr/bin/env bash
# A sharded `sente arena` match on a real scheduler: starts a one-node Slurm cluster
# on this machine (munged, slurmctld and slurmd, run as root, with a slurm.conf
# generated in a temporary folder), submits the match as an `sbatch --array` job with
# one task per shard, waits for it, merges the shards' results with
# `sente arena merge`, checks the merge against an unsharded run of the same match
# (results and game records, byte for byte), and stops the daemons it started.
#
# Needs root (the daemons) and Debian/Ubuntu's slurm-wlm and munge packages, which it
# installs with apt-get when missing. Not part of `cargo test`; see docs/cluster.md.
#
# Usage: scripts/slurm-demo.sh [SHARDS] [ROUNDS]   (default 3 shards, 6 game pairs)
# Environment: SENTE (the engine binary, default target/release/sente; build it with
# `cargo build --release -p sente`), KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."

SHARDS=${1:-3}
ROUNDS=${2:-6}
SENTE=$(realpath "${SENTE:-target/release/sente}")

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'slurm-demo: %s\n' "$*" >&2
    exit 1
}

[[ $SHARDS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "usage: $0 [SHARDS] [ROUNDS] (positive numbers)"
[ "$(id -u)" -eq 0 ] || die "run as root: the demo starts munged, slurmctld and slurmd"
[ -x "$SENTE" ] || die "no engine at $SENTE: run 'cargo build --release -p sente' or set SENTE"

# --- Slurm and MUNGE, from the distribution's packages ------------------------------
need=()
command -v munged >/dev/null || need+=(munge)
for program in slurmctld slurmd sbatch; do
    command -v "$program" >/dev/null || { need+=(slurm-wlm); break; }
done
if [ ${#need[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || die "${need[*]} missing and no apt-get here: install Slurm and MUNGE"
    say "installing ${need[*]} with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    # Debian's packages start the services with the default configuration where an
    # init system runs; the demo uses its own daemons, so stop those if they started.
    for service in slurmd slurmctld munge; do
        command -v systemctl >/dev/null && systemctl stop "$service" 2>/dev/null || true
    done
fi
for program in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$program" >/dev/null || die "$program is still missing"
done

# --- A temporary cluster ------------------------------------------------------------
WORK=$(mktemp -d /tmp/sente-slurm.XXXXXX)
chmod 755 "$WORK"
NODE=$(hostname -s)
export SLURM_CONF=$WORK/slurm.conf
started=()

# Stops what this script started (by the pids it recorded), newest first.
cleanup() {
    local status=$?
    set +e
    if [ -n "${JOB:-}" ]; then scancel "$JOB" 2>/dev/null; fi
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        local pidfile=${started[i]}
        if [ -s "$pidfile" ]; then
            local pid
            pid=$(cat "$pidfile")
            kill "$pid" 2>/dev/null
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
        fi
    done
    [ ${#started[@]} -gt 0 ] && say "daemons stopped"
    if [ "${KEEP:-0}" = 1 ] || [ $status -ne 0 ]; then
        say "logs and results kept in $WORK"
    else
        rm -rf "$WORK"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 5))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}

mkdir -p "$WORK/munge" "$WORK/state" "$WORK/spool" "$WORK/match"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$WORK/munge"
chmod 400 "$WORK/munge/munge.key"
SOCKET=$WORK/munge/munge.socket
munged --force --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" \
    --seed-file="$WORK/munge/munged.seed"
started+=("$WORK/munge/munged.pid")
wait_for 10 munge --socket="$SOCKET" -n || die "munged did not start (see $WORK/munge/munged.log)"
say "$(munged --version 2>&1 | head -n 1) up, socket $SOCKET"

cat >"$SLURM_CONF" <<EOF
# One-node cluster for scripts/slurm-demo.sh (generated; everything under $WORK).
ClusterName=sente-demo
SlurmctldHost=$NODE
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$NODE CPUs=$(nproc) State=UNKNOWN
PartitionName=demo Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -f "$SLURM_CONF"
started+=("$WORK/slurmctld.pid")
wait_for 30 scontrol ping || die "slurmctld did not start (see $WORK/slurmctld.log)"
slurmd -f "$SLURM_CONF"
started+=("$WORK/slurmd.pid")
node_idle() { [ "$(sinfo -h -n "$NODE" -o %T)" = idle ]; }
wait_for 60 node_idle || die "node $NODE is not idle: $(sinfo -h -o '%T %E') (see $WORK/slurmd.log)"
say "$(sbatch --version) up: $(sinfo -h -o 'partition %P, node %N, %c CPUs, %T')"

# --- The match, one array task per shard ---------------------------------------------
# Fixed nodes per move, so that a game is the same wherever and whenever it is played.
MATCH=(--game othello --rounds "$ROUNDS" --nodes 300
    --engine "name=a cmd=$SENTE proto=ugi" --engine "name=b cmd=$SENTE proto=ugi option.Hash=8")
printf -v MATCH_LINE '%q ' "${MATCH[@]}"
# The sbatch file of docs/cluster.md, with this demo's paths and match.
cat >"$WORK/arena.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=sente-arena
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --cpus-per-task=1
#SBATCH --output=$WORK/match/slurm-%A_%a.out
set -euo pipefail
SHARDS=$SHARDS
SENTE=$(printf '%q' "$SENTE")
cd "\$SLURM_SUBMIT_DIR"
resume=()
[ -s "shard-\$SLURM_ARRAY_TASK_ID/results.jsonl" ] && resume=(--resume)
"\$SENTE" arena ${MATCH_LINE}--concurrency "\$SLURM_CPUS_PER_TASK" \\
    --shard "\$SLURM_ARRAY_TASK_ID/\$SHARDS" --out "shard-\$SLURM_ARRAY_TASK_ID" "\${resume[@]}"
EOF

# Submits the sbatch file with the extra sbatch arguments given, waits until the job
# has left the queue, and checks that each task of tasks 0..SHARDS-1 wrote results.
submit_and_wait() {
    JOB=$(cd "$WORK/match" && sbatch --parsable "$@" "$WORK/arena.sbatch")
    JOB=${JOB%%;*}
    say "job $JOB submitted; waiting"
    squeue -j "$JOB" -o '%.12i %.12j %.10T %.10M %R'
    local seconds=0
    while squeue -h -j "$JOB" 2>/dev/null | grep -q .; do
        sleep 1
        seconds=$((seconds + 1))
        [ $seconds -lt 600 ] || die "job $JOB still queued or running after 600 s: $(squeue -h -j "$JOB")"
    done
    for ((i = 0; i < SHARDS; i++)); do
        local results=$WORK/match/shard-$i/results.jsonl
        [ -s "$results" ] || die "task $i wrote no results; its output, $WORK/match/slurm-${JOB}_$i.out:
$(tail -n 20 "$WORK/match/slurm-${JOB}_$i.out" 2>/dev/null)"
        say "shard $i: $(wc -l <"$results") games in shard-$i/results.jsonl"
    done
    JOB=
}

say "submitting $WORK/arena.sbatch: $ROUNDS game pairs in $SHARDS shards"
submit_and_wait
# As if task 0 had been stopped after its first game (a time limit, a lost node):
# run that task again alone; it resumes and plays only the games it lacks.
head -n 1 "$WORK/match/shard-0/results.jsonl" >"$WORK/match/first-game"
mv "$WORK/match/first-game" "$WORK/match/shard-0/results.jsonl"
say "shard 0 cut back to its first game; re-running task 0 alone (sbatch --array=0)"
submit_and_wait --array=0

say "merging the shards"
"$SENTE" arena merge "$WORK"/match/shard-*/results.jsonl --out "$WORK/match/merged.jsonl"

say "the same match unsharded, on this machine without Slurm"
"$SENTE" arena "${MATCH[@]}" --out "$WORK/match/whole" >/dev/null
cmp "$WORK/match/merged.jsonl" "$WORK/match/whole/results.jsonl" ||
    die "the merged results differ from the unsharded match's"
mkdir "$WORK/match/all-games"
cp "$WORK"/match/shard-*/games/* "$WORK/match/all-games/"
diff -r "$WORK/match/all-games" "$WORK/match/whole/games" >/dev/null ||
    die "the shards' game records differ from the unsharded match's"
say "OK: the merge of $SHARDS Slurm array tasks equals the unsharded match" \
    "($(wc -l <"$WORK/match/merged.jsonl") games, results and records byte for byte)"
