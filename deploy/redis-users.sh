#!/bin/sh
# The pipeline's Redis users: one per service and one for the operators' tools, each confined to the keys of its
# namespace (SECKILL_REDIS_PREFIX, `seckill:` by default) and to the commands the services send (reads, writes, Lua
# scripts, MULTI/EXEC, PING/HELLO), never an administrative or dangerous one (CONFIG, FLUSHALL, KEYS, DEBUG, ACL,
# SHUTDOWN, ...) and no Pub/Sub channel. docs/security.md, "Redis"; docs/operations.md, "Redis security".
# SecureStoresPipelineTest runs this file against a TLS-only Redis and runs the pipeline under these users.
#
# Run as a Redis user that may change users (e.g. the admin user), with redis-cli's connection flags in REDIS_CLI and
# the admin password in REDISCLI_AUTH (redis-cli reads it from there, never from the command line). One password file
# per user in SECRETS_DIR, named redis-<user> (e.g. `openssl rand -base64 48 > $SECRETS_DIR/redis-seckill-gateway`);
# the passwords go to redis-cli on its standard input, never on a command line:
#   REDIS_CLI="redis-cli --tls --cacert ca.crt -h redis.internal -p 6380 --user admin" REDISCLI_AUTH=... \
#     SECRETS_DIR=/run/secrets deploy/redis-users.sh
# Then give each service its user: SECKILL_REDIS_USER=seckill-gateway, SECKILL_REDIS_PASSWORD_FILE=... .
# ACL SETUSER changes the running server only: on a server with an aclfile, ACL SAVE keeps them (SAVE=1 here).
# Running it again resets each user to these rules and its password file's value (a rotation: write the new file, run).
set -eu
PREFIX="${SECKILL_REDIS_PREFIX:-seckill:}"
: "${SECRETS_DIR:?a folder with one password file per user: redis-seckill-stock-stream, redis-seckill-gateway, ...}"
REDIS_CLI="${REDIS_CLI:-redis-cli}"
USERS="${USERS:-seckill-stock-stream seckill-gateway seckill-reconciler seckill-operator}"
case "$PREFIX" in *[!A-Za-z0-9._:-]*|"") echo "redis-users.sh: the prefix '$PREFIX' must be letters, digits and . _ : -" >&2; exit 2;; esac
# what the services send, nothing that reaches beyond the namespace's keys: no administrative command, no Pub/Sub, no
# server-wide script or function flush/load, no key names of other namespaces (RANDOMKEY, CLIENT TRACKING), no move to
# another database. CLUSTER SLOTS/SHARDS/MYID: how a Redis Cluster client finds the nodes (run this on every node).
# TIME: the server's clock, which the stock scripts floor key expiries at and the stream's clock watch reads.
RULES="on resetkeys ~${PREFIX}* resetchannels -@all +@read +@write +@scripting +@connection +@transaction -@dangerous \
+time +cluster|slots +cluster|shards +cluster|myid -script|flush -script|kill -function|flush -function|load -function|delete \
-function|restore -randomkey -client|tracking -move -copy"

for user in $USERS; do
  file="$SECRETS_DIR/redis-$user"
  [ -r "$file" ] || { echo "redis-users.sh: no password file $file" >&2; exit 2; }
  # one line, as the services read it (one trailing line break dropped), of the characters openssl rand -base64/-hex
  # writes: nothing redis-cli would read as a quote, a second argument or a second command
  [ "$(wc -l <"$file")" -le 1 ] || { echo "redis-users.sh: $file holds more than one line" >&2; exit 2; }
  password=$(cat "$file")
  [ -n "$password" ] || { echo "redis-users.sh: $file is empty" >&2; exit 2; }
  case "$password" in *[!A-Za-z0-9+/=._-]*)
    echo "redis-users.sh: $file holds a character other than A-Z a-z 0-9 + / = . _ - (use openssl rand -base64 48)" >&2
    exit 2;;
  esac
  answer=$(printf 'ACL SETUSER %s reset %s >%s\n' "$user" "$RULES" "$password" | $REDIS_CLI)
  [ "$answer" = "OK" ] || { echo "redis-users.sh: ACL SETUSER $user: $answer" >&2; exit 1; }
  echo "redis user $user: keys ${PREFIX}*"
done
if [ "${SAVE:-0}" = 1 ]; then
  answer=$(echo 'ACL SAVE' | $REDIS_CLI)
  [ "$answer" = "OK" ] || { echo "redis-users.sh: ACL SAVE: $answer" >&2; exit 1; }
fi
