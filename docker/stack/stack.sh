#!/usr/bin/env bash
# The native local stack: Kafka (KRaft), Apicurio Registry (Confluent-compatible API), ClickHouse and Redis,
# run as plain processes on loopback, for machines without Docker. docker-compose.yml is the Docker twin.
#
#   bash docker/stack/stack.sh up             install/fetch what is missing, start what is not healthy, wait
#   bash docker/stack/stack.sh status         one line per component; exit 1 unless all are healthy
#   bash docker/stack/stack.sh down [--purge] stop what the stack started (--purge: also delete its data)
#   bash docker/stack/stack.sh pid COMPONENT  the pid of a component the stack started (else nothing, exit 1)
#   bash docker/stack/stack.sh env            the settings the applications use, as `export` lines
#
# State (data, logs, pid files, fetched jars, the settings below) lives under $STACK_DIR (default
# <repo>/.stack). Environment: STACK_DIR, STACK_LIB_DIR, STACK_TIMEOUT (s, default 120), KAFKA_BROKERS_LOCAL,
# KAFKA_PORT, KAFKA_CONTROLLER_PORT (default KAFKA_PORT+1), SCHEMA_REGISTRY_PORT,
# SCHEMA_REGISTRY_MANAGEMENT_PORT (default SCHEMA_REGISTRY_PORT+1000), CLICKHOUSE_HTTP_PORT,
# CLICKHOUSE_TCP_PORT, CLICKHOUSE_DATABASE, REDIS_PORT. `up` records them in $STACK_DIR/stack.env, and every
# later command on that STACK_DIR uses what is recorded for what its environment does not set: a second
# stack needs its settings once, at its first `up`.
#
# Kafka is one broker (component `kafka`, pid file run/kafka.pid, node id 1) unless KAFKA_BROKERS_LOCAL=N
# (2 to 9) at the first `up`: then N brokers, components `kafka-1` … `kafka-N` (pid files run/kafka-1.pid …,
# node ids 1..N, each also a KRaft controller), broker i on KAFKA_PORT+2(i-1) and its controller on
# KAFKA_CONTROLLER_PORT+2(i-1). The size is fixed when the storage is formatted: asking for another size
# on the same STACK_DIR is refused (`down --purge` deletes the data, topics included, to start over).
# Replicas: 1 on one broker; on a cluster 3 (2 on two brokers) with min.insync.replicas one less, for the
# internal topics here and for what `npm run provision` creates, so one broker down never stops writes.
#
# The contract the fault-injection run relies on:
#   - `up` is idempotent per component: it starts only what is not healthy (one SIGKILLed broker,
#     ClickHouse or registry comes back without touching the rest) and waits for it;
#   - `pid COMPONENT` prints the pid of a running component the stack started;
#   - `up` and `status` print the bootstrap list the applications must use, e.g. for three brokers
#     KAFKA_BROKERS=127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096.
#
# What the application sees (same names as in docker-compose.yml), by default:
#   KAFKA_BROKERS=127.0.0.1:9092  SCHEMA_REGISTRY_URL=http://127.0.0.1:8081/apis/ccompat/v7
#   CLICKHOUSE_URL=http://127.0.0.1:8123 (user default, no password, database news)  REDIS_URL=redis://127.0.0.1:6379
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)

STACK_DIR=${STACK_DIR:-$REPO_ROOT/.stack}
mkdir -p "$STACK_DIR"
STACK_DIR=$(cd "$STACK_DIR" && pwd)
RUN_DIR=$STACK_DIR/run
LOG_DIR=$STACK_DIR/logs
TIMEOUT=${STACK_TIMEOUT:-120}

say() { printf 'stack: %s\n' "$*"; }
warn() { printf 'stack: %s\n' "$*" >&2; }
die() { warn "$*"; exit 1; }

# The settings a stack keeps: recorded by `up` in $STATE_FILE, read back by every later command on the same
# STACK_DIR for each one its environment does not set. KAFKA_BROKERS_LOCAL is recorded when Kafka's storage
# is formatted, and stays.
STATE_FILE=$STACK_DIR/stack.env
RECORDED_SETTINGS=(STACK_LIB_DIR KAFKA_BROKERS_LOCAL KAFKA_PORT KAFKA_CONTROLLER_PORT SCHEMA_REGISTRY_PORT
  SCHEMA_REGISTRY_MANAGEMENT_PORT CLICKHOUSE_HTTP_PORT CLICKHOUSE_TCP_PORT CLICKHOUSE_DATABASE REDIS_PORT)
REQUESTED_BROKERS=${KAFKA_BROKERS_LOCAL:-}
recorded() { [[ -f $STATE_FILE ]] && sed -n "s/^$1=//p" "$STATE_FILE" | tail -n 1 || true; }
for setting in "${RECORDED_SETTINGS[@]}"; do
  if [[ -z ${!setting:-} ]]; then
    value=$(recorded "$setting")
    [[ -n $value ]] && printf -v "$setting" '%s' "$value"
  fi
done
unset setting value

LIB_DIR=${STACK_LIB_DIR:-$STACK_DIR/lib}
KAFKA_PORT=${KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}
SCHEMA_REGISTRY_PORT=${SCHEMA_REGISTRY_PORT:-8081}
SCHEMA_REGISTRY_MANAGEMENT_PORT=${SCHEMA_REGISTRY_MANAGEMENT_PORT:-$((SCHEMA_REGISTRY_PORT + 1000))}
CLICKHOUSE_HTTP_PORT=${CLICKHOUSE_HTTP_PORT:-8123}
CLICKHOUSE_TCP_PORT=${CLICKHOUSE_TCP_PORT:-9000}
CLICKHOUSE_DATABASE=${CLICKHOUSE_DATABASE:-news}
REDIS_PORT=${REDIS_PORT:-6379}

# How many brokers this stack's Kafka has: what was recorded when its storage was formatted (a data dir
# formatted before sizes were recorded has one), else what is asked for, else one.
[[ -z $REQUESTED_BROKERS || $REQUESTED_BROKERS =~ ^[1-9]$ ]] ||
  die "KAFKA_BROKERS_LOCAL must be a number of brokers from 1 to 9 (got '$REQUESTED_BROKERS')"
FORMATTED_BROKERS=$(recorded KAFKA_BROKERS_LOCAL)
if [[ -z $FORMATTED_BROKERS && -f $STACK_DIR/kafka/data/meta.properties ]]; then FORMATTED_BROKERS=1; fi
BROKERS=${FORMATTED_BROKERS:-${REQUESTED_BROKERS:-1}}
KAFKA_BROKERS_LOCAL=$BROKERS

# Replicas of the internal topics (and, through services/runtime/kafka/replication.ts, of provisioned
# topics): 3 on three brokers or more, never more than there are; min.insync.replicas one less (at least
# 1), so that one broker down never stops acks=all writes.
REPLICATION_FACTOR=$((BROKERS < 3 ? BROKERS : 3))
MIN_INSYNC_REPLICAS=$((REPLICATION_FACTOR > 1 ? REPLICATION_FACTOR - 1 : 1))

# Broker i (1-based) of the cluster listens on KAFKA_PORT+2(i-1), its controller on KAFKA_CONTROLLER_PORT+2(i-1).
broker_port() { echo $((KAFKA_PORT + 2 * ($1 - 1))); }
controller_port() { echo $((KAFKA_CONTROLLER_PORT + 2 * ($1 - 1))); }
kafka_components() {
  if ((BROKERS == 1)); then echo kafka; return; fi
  local i
  for ((i = 1; i <= BROKERS; i++)); do echo "kafka-$i"; done
}
# kafka -> 1, kafka-3 -> 3
broker_index() { if [[ $1 == kafka ]]; then echo 1; else echo "${1#kafka-}"; fi; }
# Where a broker keeps its config and data: .stack/kafka for the single broker (as always), .stack/kafka-i
# for the members of a cluster.
kafka_home() { echo "$STACK_DIR/$1"; }
bootstrap_list() {
  local i list=
  for ((i = 1; i <= BROKERS; i++)); do list+="${list:+,}127.0.0.1:$(broker_port "$i")"; done
  echo "$list"
}

mapfile -t KAFKA_COMPONENTS < <(kafka_components)
COMPONENTS=("${KAFKA_COMPONENTS[@]}" registry clickhouse redis)
is_component() { local c; for c in "${COMPONENTS[@]}"; do [[ $c == "$1" ]] && return 0; done; return 1; }

# ClickHouse and kcat for the stack; the speech engines and audio tools the services run (the embedded
# speech provider: Festival with its HTS voice for English, espeak-ng for every other language; ffmpeg to
# encode and join audio; sox with MP3 support to inspect it).
APT_PACKAGES=(clickhouse-server clickhouse-client kcat
  espeak-ng festival festvox-us-slt-hts ffmpeg sox libsox-fmt-mp3)

# ---------------------------------------------------------------------------------------------- probes

port_open() { timeout 2 bash -c ">/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

redis_ping() {
  timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"'; printf "PING\r\n" >&3; IFS= read -r line <&3; [[ $line == +PONG* ]]' \
    2>/dev/null
}

# Each health check returns 0 when healthy, else sets HEALTH_ERR to what it saw.
HEALTH_ERR=
# A broker is healthy when it answers a metadata request that lists itself: a broker of a cluster is
# listed only once the controllers have unfenced it (it caught up with the cluster's metadata).
health_kafka() {
  command -v kcat >/dev/null || { HEALTH_ERR="kcat is not installed"; return 1; }
  local id port out
  id=$(broker_index "$1")
  port=$(broker_port "$id")
  out=$(timeout 15 kcat -b "127.0.0.1:$port" -L -m 5 2>&1) || true
  if ((BROKERS == 1)); then
    grep -Eq '^ +broker [0-9]+ at ' <<<"$out" && return 0
  else
    grep -Eq "^ +broker $id at 127\.0\.0\.1:$port( |\$)" <<<"$out" && return 0
  fi
  HEALTH_ERR="kcat -L: $(grep -v '^\s*$' <<<"$out" | tail -n 1)"
  return 1
}
health_registry() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
    "http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7/subjects" 2>/dev/null) || true
  [[ $code == 200 ]] && return 0
  HEALTH_ERR="GET /apis/ccompat/v7/subjects answered HTTP ${code:-000}"
  return 1
}
health_clickhouse() {
  local body
  body=$(curl -s --max-time 5 "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT/ping" 2>/dev/null) || true
  if [[ $body != "Ok." ]]; then HEALTH_ERR="GET /ping answered '${body:0:80}'"; return 1; fi
  if ! port_open "$CLICKHOUSE_TCP_PORT"; then HEALTH_ERR="native port $CLICKHOUSE_TCP_PORT does not answer"; return 1; fi
}
health_redis() {
  redis_ping "$REDIS_PORT" && return 0
  HEALTH_ERR="PING got no +PONG"
  return 1
}
healthy() {
  HEALTH_ERR=
  case $1 in
    kafka*) health_kafka "$1" && return 0 ;;
    *) "health_$1" && return 0 ;;
  esac
  HEALTH_ERR=$(tr -s '\r\n\t' '   ' <<<"$HEALTH_ERR")
  return 1
}

main_port() {
  case $1 in
    kafka*) broker_port "$(broker_index "$1")" ;; registry) echo "$SCHEMA_REGISTRY_PORT" ;;
    clickhouse) echo "$CLICKHOUSE_HTTP_PORT" ;; redis) echo "$REDIS_PORT" ;;
  esac
}
address() {
  case $1 in
    kafka*) echo "127.0.0.1:$(main_port "$1")" ;;
    registry) echo "http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7" ;;
    clickhouse) echo "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT native :$CLICKHOUSE_TCP_PORT" ;;
    redis) echo "127.0.0.1:$REDIS_PORT" ;;
  esac
}
# what the command line of a process we started contains (guards against a recycled pid)
signature() {
  case $1 in
    kafka*) echo "kafka.Kafka $(kafka_home "$1")/server.properties" ;; registry) echo "apicurio-registry-app" ;;
    clickhouse) echo "clickhouse" ;; redis) echo "redis-server" ;;
  esac
}
log_files() {
  case $1 in
    kafka*) echo "$LOG_DIR/$1.log" ;; registry) echo "$LOG_DIR/registry.log" ;;
    clickhouse) echo "$LOG_DIR/clickhouse.err.log $LOG_DIR/clickhouse.out" ;; redis) echo "$LOG_DIR/redis.log" ;;
  esac
}
main_log() { local f; f=$(log_files "$1"); echo "${f%% *}"; }

# The last error-looking line of the newest log since the component's last start, else its last line.
last_log_line() {
  local newest= f
  for f in $(log_files "$1"); do
    [[ -s $f ]] || continue
    if [[ -z $newest || $f -nt $newest ]]; then newest=$f; fi
  done
  [[ -n $newest ]] || { echo "(no log output)"; return; }
  local line
  line=$(awk '/^=== .* stack\.sh starting / { last = ""; err = ""; next }
              NF { last = $0 }
              /ERROR|FATAL|Exception|[Ee]rror:|Address already in use/ { err = $0 }
              END { print (err != "" ? err : last) }' "$newest")
  echo "${line:0:240} [$newest]"
}

pid_file() { echo "$RUN_DIR/$1.pid"; }
stack_pid() { local f; f=$(pid_file "$1"); [[ -s $f ]] && cat "$f" || true; }
alive() {
  local pid=$1 sig=$2
  [[ -n $pid && -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$sig"
}

# Sets STATE (healthy|DOWN) and DETAIL for one component.
inspect() {
  local c=$1 pid port
  pid=$(stack_pid "$c")
  port=$(main_port "$c")
  if [[ -n $pid ]] && alive "$pid" "$(signature "$c")"; then
    if healthy "$c"; then
      STATE=healthy DETAIL="$(address "$c") (pid $pid, started by stack)"
    elif port_open "$port"; then
      STATE=DOWN DETAIL="process $pid runs, port $port answers but health check failed: $HEALTH_ERR (log: $(main_log "$c"))"
    else
      STATE=DOWN DETAIL="process $pid runs but 127.0.0.1:$port does not answer (yet?); last log line: $(last_log_line "$c")"
    fi
  elif [[ -n $pid ]]; then
    STATE=DOWN DETAIL="process $pid died, last log line: $(last_log_line "$c")"
  elif healthy "$c"; then
    STATE=healthy DETAIL="$(address "$c") (external: not started by stack, left alone)"
  elif port_open "$port"; then
    STATE=DOWN DETAIL="port $port answers but health check failed: $HEALTH_ERR (not started by stack)"
  else
    STATE=DOWN DETAIL="not started"
  fi
}

cmd_status() {
  local c bad=0
  for c in "${COMPONENTS[@]}"; do
    inspect "$c"
    printf '%-10s %-8s %s\n' "$c" "$STATE" "$DETAIL"
    [[ $STATE == healthy ]] || bad=1
  done
  printf '%-10s %-8s %s\n' bootstrap "" "KAFKA_BROKERS=$(bootstrap_list) ($(kafka_size_words))"
  return $bad
}

kafka_size_words() {
  if ((BROKERS == 1)); then echo "one broker, replication factor 1"; return; fi
  echo "$BROKERS brokers, replication factor $REPLICATION_FACTOR, min.insync.replicas $MIN_INSYNC_REPLICAS"
}

# The pid of a running component the stack started; nothing and exit 1 otherwise.
cmd_pid() {
  local c=${1:-} pid
  [[ -n $c ]] || die "usage: stack.sh pid COMPONENT (one of: ${COMPONENTS[*]})"
  is_component "$c" || { warn "$c is not a component of this stack (${COMPONENTS[*]})"; return 1; }
  pid=$(stack_pid "$c")
  [[ -n $pid ]] && alive "$pid" "$(signature "$c")" || return 1
  echo "$pid"
}

# What the applications (and the integration tests) use to reach this stack, as `export` lines:
# eval "$(bash docker/stack/stack.sh env)".
cmd_env() {
  printf 'export %s\n' "STACK_DIR=$STACK_DIR" "KAFKA_BROKERS=$(bootstrap_list)" \
    "SCHEMA_REGISTRY_URL=http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7" \
    "CLICKHOUSE_URL=http://127.0.0.1:$CLICKHOUSE_HTTP_PORT" "CLICKHOUSE_DATABASE=$CLICKHOUSE_DATABASE" \
    "REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
}

# Refuses a size of Kafka other than the one its storage was formatted for.
check_requested_size() {
  [[ -n $REQUESTED_BROKERS && -n $FORMATTED_BROKERS && $REQUESTED_BROKERS != "$FORMATTED_BROKERS" ]] || return 0
  die "KAFKA_BROKERS_LOCAL=$REQUESTED_BROKERS, but the Kafka under $STACK_DIR was formatted with $FORMATTED_BROKERS broker(s). Run without KAFKA_BROKERS_LOCAL to use it as it is, or delete this stack's data (every topic and schema) first: bash docker/stack/stack.sh down --purge"
}

# Records this stack's settings for the commands that follow (see the header). KAFKA_BROKERS_LOCAL only once
# Kafka's storage is formatted, so a failed first `up` can still be retried with another size.
record_settings() {
  local setting tmp=$STATE_FILE.tmp
  {
    echo "# Settings of the stack under $STACK_DIR, recorded by docker/stack/stack.sh up: the stack's later"
    echo "# commands use them for every variable their environment does not set."
    for setting in "${RECORDED_SETTINGS[@]}"; do
      [[ $setting == KAFKA_BROKERS_LOCAL ]] && continue
      [[ $setting == STACK_LIB_DIR && -z ${STACK_LIB_DIR:-} ]] && continue
      echo "$setting=${!setting}"
    done
    if kafka_formatted; then echo "KAFKA_BROKERS_LOCAL=$BROKERS"; fi
  } >"$tmp"
  mv "$tmp" "$STATE_FILE"
}

kafka_formatted() {
  local c
  for c in "${KAFKA_COMPONENTS[@]}"; do [[ -f $(kafka_home "$c")/data/meta.properties ]] && return 0; done
  return 1
}

# ------------------------------------------------------------------------------------------- install

as_root() {
  if [[ $(id -u) == 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root to run: $*"; fi
}

dpkg_installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }

apt_install() {
  (($# > 0)) || return 0
  say "installing Debian packages: $* (log: $LOG_DIR/apt.log)"
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@")
  if as_root "${apt[@]}" >>"$LOG_DIR/apt.log" 2>&1; then return 0; fi
  say "apt-get install failed; running apt-get update and retrying"
  if as_root apt-get update >>"$LOG_DIR/apt.log" 2>&1 && as_root "${apt[@]}" >>"$LOG_DIR/apt.log" 2>&1; then return 0; fi
  tail -n 15 "$LOG_DIR/apt.log" >&2
  die "could not install $* (log: $LOG_DIR/apt.log)"
}

ensure_packages() {
  local need=() p
  for p in "${APT_PACKAGES[@]}"; do dpkg_installed "$p" || need+=("$p"); done
  command -v curl >/dev/null || need+=(curl)
  command -v java >/dev/null || need+=(openjdk-17-jre-headless)
  if ! redis_ping "$REDIS_PORT" && ! dpkg_installed redis-server; then need+=(redis-server); fi
  apt_install "${need[@]}"
}

libs_complete() {
  compgen -G "$LIB_DIR/kafka/kafka_2.13-*.jar" >/dev/null &&
    [[ -n $(registry_jar) && -f $LIB_DIR/avro-tools/avro-tools.jar ]]
}

# Jars come from Maven Central via docker/stack/pom.xml; skipped while the marker matches the pom's hash.
ensure_libs() {
  local pom=$SCRIPT_DIR/pom.xml marker=$LIB_DIR/.fetched want
  want=$(sha256sum "$pom" | cut -d' ' -f1)
  if [[ -f $marker && $(cat "$marker") == "$want" ]] && libs_complete; then return 0; fi
  command -v mvn >/dev/null || apt_install maven
  say "fetching Kafka, Apicurio Registry and avro-tools with Maven into $LIB_DIR (log: $LOG_DIR/maven.log)"
  rm -rf "$LIB_DIR/kafka" "$LIB_DIR/apicurio" "$LIB_DIR/avro-tools" "$LIB_DIR/.build" "$marker"
  mkdir -p "$LIB_DIR"
  if ! mvn -q -B -f "$pom" "-Dstack.lib.dir=$LIB_DIR" generate-resources >"$LOG_DIR/maven.log" 2>&1; then
    tail -n 20 "$LOG_DIR/maven.log" >&2
    die "Maven fetch failed (log: $LOG_DIR/maven.log)"
  fi
  tar -xzf "$LIB_DIR/apicurio/apicurio-registry.tar.gz" -C "$LIB_DIR/apicurio" ||
    die "could not extract $LIB_DIR/apicurio/apicurio-registry.tar.gz"
  rm -f "$LIB_DIR/apicurio/apicurio-registry.tar.gz"
  libs_complete || die "Maven finished but the expected jars are missing under $LIB_DIR"
  echo "$want" >"$marker"
}

# The registry's runnable jar inside the unpacked distribution.
registry_jar() {
  compgen -G "$LIB_DIR/apicurio/apicurio-registry-app-*-runner.jar" | head -n 1
}

# --------------------------------------------------------------------------------------------- start

render() { # template destination [sed -e ...] : fills @NAME@ placeholders
  local src=$1 dst=$2
  shift 2
  sed "$@" -e "s#@STACK_DIR@#$STACK_DIR#g" \
    -e "s#@KAFKA_PORT@#$KAFKA_PORT#g" -e "s#@KAFKA_CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" \
    -e "s#@SCHEMA_REGISTRY_PORT@#$SCHEMA_REGISTRY_PORT#g" \
    -e "s#@SCHEMA_REGISTRY_MANAGEMENT_PORT@#$SCHEMA_REGISTRY_MANAGEMENT_PORT#g" \
    -e "s#@CLICKHOUSE_HTTP_PORT@#$CLICKHOUSE_HTTP_PORT#g" -e "s#@CLICKHOUSE_TCP_PORT@#$CLICKHOUSE_TCP_PORT#g" \
    "$src" >"$dst"
}

# Runs a command detached in its own session (it outlives this script and the terminal), output appended
# to the component's log, pid recorded. fd 9 (the stack lock) is not inherited.
launch() {
  local c=$1 dir=$2 log
  shift 2
  log=$(main_log "$c")
  [[ $c == clickhouse ]] && log=$LOG_DIR/clickhouse.out
  printf '\n=== %s stack.sh starting %s: %s\n' "$(date '+%F %T')" "$c" "$*" >>"$log"
  (cd "$dir" && exec setsid "$@" >>"$log" 2>&1 </dev/null 9>&-) &
  echo $! >"$(pid_file "$c")"
}

kafka_java() { java -cp "$LIB_DIR/kafka/*" "-Dlog4j.configuration=file:$SCRIPT_DIR/kafka/log4j.properties" "$@"; }

# The cluster's id: one for all its brokers, kept beside their directories.
kafka_cluster_id_file() {
  if ((BROKERS == 1)); then echo "$STACK_DIR/kafka/cluster.id"; else echo "$STACK_DIR/kafka-cluster.id"; fi
}

quorum_voters() {
  local i voters=
  for ((i = 1; i <= BROKERS; i++)); do voters+="${voters:+,}$i@127.0.0.1:$(controller_port "$i")"; done
  echo "$voters"
}

start_kafka() {
  local c=$1 d id log ids
  d=$(kafka_home "$c")
  id=$(broker_index "$c")
  log=$(main_log "$c")
  ids=$(kafka_cluster_id_file)
  mkdir -p "$d/data"
  render "$SCRIPT_DIR/kafka/server.properties" "$d/server.properties" \
    -e "s#@NODE_ID@#$id#g" -e "s#@QUORUM_VOTERS@#$(quorum_voters)#g" \
    -e "s#@BROKER_PORT@#$(broker_port "$id")#g" -e "s#@CONTROLLER_PORT@#$(controller_port "$id")#g" \
    -e "s#@KAFKA_DATA_DIR@#$d/data#g" \
    -e "s#@REPLICATION_FACTOR@#$REPLICATION_FACTOR#g" -e "s#@MIN_INSYNC_REPLICAS@#$MIN_INSYNC_REPLICAS#g"
  cp "$SCRIPT_DIR/kafka/log4j.properties" "$d/log4j.properties"
  if [[ ! -f $d/data/meta.properties ]]; then
    [[ -s $ids ]] || kafka_java kafka.tools.StorageTool random-uuid 2>>"$log" | tail -n 1 >"$ids"
    say "$c: formatting KRaft storage (cluster id $(cat "$ids"), node id $id)"
    kafka_java kafka.tools.StorageTool format -t "$(cat "$ids")" -c "$d/server.properties" \
      --ignore-formatted >>"$log" 2>&1 || die "$c: storage format failed (log: $log)"
    record_settings
  fi
  local heap=(-Xms256m -Xmx768m)
  ((BROKERS == 1)) || heap=(-Xms128m -Xmx512m)
  launch "$c" "$d" java "${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$d/log4j.properties" "-Dkafka.logs.dir=$LOG_DIR" \
    -cp "$LIB_DIR/kafka/*" kafka.Kafka "$d/server.properties"
}

start_registry() {
  local d=$STACK_DIR/apicurio
  mkdir -p "$d/config" "$d/tmp" "$d/data"
  render "$SCRIPT_DIR/apicurio/application.properties" "$d/config/application.properties"
  launch registry "$d" java -Xms64m -Xmx512m -XX:+UseSerialGC "-Djava.io.tmpdir=$d/tmp" \
    -Djava.util.logging.manager=org.jboss.logmanager.LogManager -jar "$(registry_jar)"
}

clickhouse_bin() {
  command -v clickhouse-server 2>/dev/null || { [[ -x /usr/sbin/clickhouse-server ]] && echo /usr/sbin/clickhouse-server; } ||
    command -v clickhouse 2>/dev/null || die "clickhouse-server binary not found"
}

start_clickhouse() {
  local d=$STACK_DIR/clickhouse
  mkdir -p "$d/etc" "$d/data" "$d/tmp" "$d/user_files" "$d/format_schemas"
  render "$SCRIPT_DIR/clickhouse/config.xml" "$d/etc/config.xml"
  cp "$SCRIPT_DIR/clickhouse/users.xml" "$d/etc/users.xml"
  local bin
  bin=$(clickhouse_bin)
  if [[ $(basename "$bin") == clickhouse ]]; then
    launch clickhouse "$d" "$bin" server "--config-file=$d/etc/config.xml"
  else
    launch clickhouse "$d" "$bin" "--config-file=$d/etc/config.xml"
  fi
}

start_redis() {
  local d=$STACK_DIR/redis bin
  mkdir -p "$d"
  bin=$(command -v redis-server || echo /usr/bin/redis-server)
  launch redis "$d" "$bin" --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --save "" \
    --appendonly no --dir "$d" --daemonize no --logfile ""
}

wait_healthy() {
  local c=$1 t0=$SECONDS pid
  printf 'stack: waiting for %-10s ' "$c"
  while :; do
    if healthy "$c"; then printf ' healthy after %ss\n' $((SECONDS - t0)); return 0; fi
    pid=$(stack_pid "$c")
    if [[ -n $pid ]] && ! alive "$pid" "$(signature "$c")"; then
      printf ' FAILED: process %s died\n' "$pid"
      warn "$c: last log lines ($(main_log "$c")):"
      local f
      for f in $(log_files "$c"); do [[ -s $f ]] && tail -n 12 "$f" | sed 's/^/    /' >&2; done
      return 1
    fi
    if ((SECONDS - t0 >= TIMEOUT)); then
      printf ' FAILED: not healthy after %ss: %s\n' "$TIMEOUT" "$HEALTH_ERR"
      warn "$c: last log line: $(last_log_line "$c")"
      return 1
    fi
    printf '.'
    sleep 2
  done
}

ensure_dirs() {
  mkdir -p "$RUN_DIR" "$LOG_DIR" "$LIB_DIR"
  # the whole stack dir is machine-local output, whatever the repo's .gitignore says
  [[ -f $STACK_DIR/.gitignore ]] || echo '*' >"$STACK_DIR/.gitignore"
}

lock() {
  exec 9>"$RUN_DIR/.lock"
  flock -w 600 9 || die "another stack.sh holds $RUN_DIR/.lock"
}

cmd_up() {
  local t0=$SECONDS c pid failed=() to_wait=()
  check_requested_size
  ensure_dirs
  lock
  record_settings
  ensure_packages
  ensure_libs
  for c in "${COMPONENTS[@]}"; do
    if healthy "$c"; then
      pid=$(stack_pid "$c")
      if [[ -n $pid ]]; then say "$c: already healthy (pid $pid)"; else say "$c: already healthy (external, left alone)"; fi
      [[ $c == redis && -z $pid ]] && date '+%F %T' >"$RUN_DIR/redis.external"
      continue
    fi
    pid=$(stack_pid "$c")
    if [[ -n $pid ]] && alive "$pid" "$(signature "$c")"; then
      say "$c: process $pid is running but not healthy yet; waiting for it"
      to_wait+=("$c")
      continue
    fi
    rm -f "$(pid_file "$c")"
    if port_open "$(main_port "$c")"; then
      healthy "$c" || true
      say "$c: FAILED: port $(main_port "$c") is taken by a process the stack did not start, and it is not healthy ($HEALTH_ERR)"
      failed+=("$c")
      continue
    fi
    [[ $c == redis ]] && rm -f "$RUN_DIR/redis.external"
    say "$c: starting (log: $(main_log "$c"))"
    case $c in
      kafka*) start_kafka "$c" ;;
      *) "start_$c" ;;
    esac && to_wait+=("$c") || failed+=("$c")
  done
  for c in "${to_wait[@]}"; do
    wait_healthy "$c" || failed+=("$c")
  done
  if healthy clickhouse; then
    curl -sS --max-time 10 --data-binary "CREATE DATABASE IF NOT EXISTS $CLICKHOUSE_DATABASE" \
      "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT/" >/dev/null || failed+=("clickhouse(create database)")
  fi
  echo
  cmd_status || true
  if ((${#failed[@]} > 0)); then
    die "up FAILED for: ${failed[*]} (logs in $LOG_DIR; stop what did start with: bash docker/stack/stack.sh down)"
  fi
  say "up in $((SECONDS - t0))s; the applications use KAFKA_BROKERS=$(bootstrap_list)"
}

cmd_down() {
  local purge=0 c pid sig pending=() t0=$SECONDS
  [[ ${1:-} == --purge ]] && purge=1
  [[ -d $RUN_DIR ]] || { say "nothing to stop (no $RUN_DIR)"; ((purge)) || return 0; }
  if [[ -d $RUN_DIR ]]; then
    lock
    for c in registry "${KAFKA_COMPONENTS[@]}" clickhouse redis; do
      pid=$(stack_pid "$c")
      if [[ -z $pid ]]; then
        if [[ $c == redis && -f $RUN_DIR/redis.external ]]; then say "redis: external, left running"; fi
        continue
      fi
      sig=$(signature "$c")
      if alive "$pid" "$sig"; then
        say "$c: stopping pid $pid (SIGTERM)"
        kill -TERM "$pid" 2>/dev/null || true
        pending+=("$c:$pid")
      else
        say "$c: pid $pid was not running"
        rm -f "$(pid_file "$c")"
      fi
    done
    local entry left
    while ((${#pending[@]} > 0)); do
      left=()
      for entry in "${pending[@]}"; do
        c=${entry%%:*} pid=${entry##*:}
        if alive "$pid" "$(signature "$c")"; then left+=("$entry"); else say "$c: stopped"; rm -f "$(pid_file "$c")"; fi
      done
      pending=("${left[@]+"${left[@]}"}")
      ((${#pending[@]} > 0)) || break
      if ((SECONDS - t0 >= 30)); then
        for entry in "${pending[@]}"; do
          c=${entry%%:*} pid=${entry##*:}
          say "$c: still running after 30s, SIGKILL pid $pid"
          kill -KILL "$pid" 2>/dev/null || true
          rm -f "$(pid_file "$c")"
        done
        break
      fi
      sleep 1
    done
  fi
  if ((purge)); then
    say "purging data and logs under $STACK_DIR (fetched jars in $LIB_DIR are kept)"
    rm -rf "$STACK_DIR/kafka" "$STACK_DIR"/kafka-[1-9] "$STACK_DIR/kafka-cluster.id" "$STACK_DIR/clickhouse" \
      "$STACK_DIR/apicurio" "$STACK_DIR/redis" "$LOG_DIR" "$RUN_DIR" "$STATE_FILE"
  fi
}

case ${1:-} in
  up) cmd_up ;;
  down) shift; cmd_down "$@" ;;
  status) cmd_status ;;
  pid) shift; cmd_pid "$@" ;;
  env) cmd_env ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
