#!/bin/bash
# instructions.sh: what each script's body costs redis-server in
# instructions, which a busy machine cannot move the way it moves time
# (valgrind's callgrind counts them). It starts redis-server under callgrind
# on a loopback port; for each script it runs the body N times inside one
# EVAL over 1,000 identities in turn (a warm-up run first creates every
# key), and prints the server's instructions per run of the body: its Lua,
# the commands it calls, and the loop's own share, the same for every
# script (the "loop only" row). What EVALSHA adds around a script, reading
# the call and writing the reply, is left out. redis_rate and ulule are cut
# out of their Go sources in the module cache.
#
#   cd bench && ./instructions.sh [N]        # N = 2000; about a minute
#   SCRIPTS=/other/copy ./instructions.sh    # another copy of chapter 06's scripts/
set -euo pipefail
n=${1:-2000}
port=${PORT:-6399}
here=$(cd "$(dirname "$0")" && pwd)
s=${SCRIPTS:-$here/../chapters/06-distributed/scripts}
mod=$(cd "$here" && go env GOMODCACHE)
dir=$(mktemp -d)
vpid=
stop() {
  if [ -n "$vpid" ]; then kill "$vpid" 2>/dev/null; wait "$vpid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap stop EXIT
if redis-cli -p "$port" ping >/dev/null 2>&1; then
  echo "port $port is taken: PORT=another ./instructions.sh" >&2
  exit 1
fi

# The peers' scripts, cut out of their Go sources.
awk '/^var allowN = redis.NewScript\(`/{f=1;next} f&&/^`\)/{exit} f' \
  "$mod"/github.com/go-redis/redis_rate/v10@v10.0.1/lua.go > "$dir/redis_rate.lua"
awk '/luaIncrScript = `/{f=1;next} f&&/^`/{exit} f' \
  "$mod"/github.com/ulule/limiter/v3@v3.11.2/drivers/store/redis/store.go > "$dir/ulule.lua"

valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" redis-server --port "$port" \
  --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" >"$dir/log" 2>&1 &
vpid=$!
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 1; done

# counted src args...: the server's instructions over one EVAL of src.
counted() {
  local src=$1 before out
  shift
  callgrind_control -z "$vpid" >/dev/null 2>&1
  redis-cli -p "$port" EVAL "$src" 0 "$@" >/dev/null
  before=$(ls "$dir"/cg.* 2>/dev/null | wc -l)
  callgrind_control -d "$vpid" >/dev/null 2>&1
  # callgrind writes the dump when the server next runs: wait for the file.
  until [ "$(ls "$dir"/cg.* 2>/dev/null | wc -l)" -gt "$before" ]; do sleep 0.2; done
  sleep 0.5
  out=$(ls -t "$dir"/cg.* | head -1)
  grep -m1 '^summary\|^totals' "$out" | awk '{print $2}'
}

# measure name files args...: the files joined by +, the arguments after
# the key. The body becomes a local function (without the shebang line,
# which only a script's first line may hold) that the loop calls with each
# identity's key.
measure() {
  local name=$1 files=$2 body="" f
  shift 2
  for f in ${files//+/ }; do body+="$(sed '1{/^#!/d}' "$f")"$'\n'; done
  local src="local function body(KEYS, ARGV)
$body
end
local a = {}
for i = 3, #ARGV do a[#a + 1] = ARGV[i] end
for i = 1, tonumber(ARGV[1]) do body({ARGV[2] .. (i % 1000)}, a) end
return 1"
  local prefix="rl:{$name}:"
  redis-cli -p "$port" EVAL "$src" 0 1000 "$prefix" "$@" >/dev/null
  local zero full
  zero=$(counted "$src" 0 "$prefix" "$@")
  full=$(counted "$src" "$n" "$prefix" "$@")
  printf '| %s | %d |\n' "$name" $(((full - zero) / n))
}

# 100 per second per identity, as in BenchmarkRedis; -1 is "Redis TIME".
echo "| script | instructions per run of the body |"
echo "|---|---|"
measure redis_rate "$dir/redis_rate.lua" 100 100 1 1
measure gcra "$s/prelude.lua+$s/clock.lua+$s/gcra.lua" -1 1 100 1 10 1000
measure token-bucket "$s/prelude.lua+$s/clock.lua+$s/token_bucket.lua" -1 1 100 100 1000
echo 'return 1' > "$dir/nothing.lua"
measure "loop only" "$dir/nothing.lua"
