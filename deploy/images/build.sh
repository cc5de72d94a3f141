#!/usr/bin/env bash
# Builds the images: the four services and the stack they need (Kafka, Redis, MariaDB). Run by `./seckill images`
# after a build; docs/operations.md, "Images".
#   --base debian   (default) bases made here from Debian's packages with mmdebstrap: no registry needed
#   --base public   the Containerfiles' own bases (eclipse-temurin:17-jre, debian:bookworm-slim) from a registry
#   --only a,b      only these images (gateway, stock-stream, order-writer, reconciler, kafka, redis, mariadb)
# SECKILL_IMAGE_TAG (default 0.1.0) tags every image seckill/<name>:<tag>.
set -euo pipefail
shopt -s inherit_errexit
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/deploy/images"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$HERE/containers.conf}"
TAG="${SECKILL_IMAGE_TAG:-0.1.0}"
WORK="${SECKILL_HOME:-$ROOT/.seckill}/images"
SUITE=bookworm
# the bases' recipe version: change it with make_bases, and the next run makes them again
RECIPE=r3
JRE_BASE="seckill/jre:17-$SUITE-$RECIPE"
STACK_BASE="seckill/debian-stack:$SUITE-$RECIPE"
base=debian only=""
say() { echo "images: $*" >&2; }
die() { echo "images: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="${2:?--base debian|public}"; shift 2 ;;
    --only) only=",${2:?--only NAME[,NAME]},"; shift 2 ;;
    *) die "unknown option $1 (--base debian|public, --only NAME,...)" ;;
  esac
done
[ "$base" = debian ] || [ "$base" = public ] || die "--base is debian or public, not $base"
wanted() { [ -z "$only" ] || [[ "$only" == *",$1,"* ]]; }

need() { # tool packages...
  local tool="$1"; shift
  command -v "$tool" >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "$tool is missing: sudo apt-get install -y $*"
  say "installing $* ($tool is missing)"
  # shellcheck disable=SC2068
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $@ >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $@ >/dev/null; } \
    || die "could not install $*"
}
# podman's pods need catatonit, name resolution between containers aardvark-dns (both only recommended by podman)
need podman podman runc catatonit netavark aardvark-dns iptables
need runc runc

# Two bases from one Debian root file system: the stack's (a JRE, Redis and MariaDB with a shell and apt) and the
# services' (the JRE and the libraries it loads, a passwd entry for uid 10001, nothing else: no shell).
make_bases() {
  need mmdebstrap mmdebstrap
  local tmp rootfs slim
  BASE_TMP="$(mktemp -d)"; trap 'rm -rf "$BASE_TMP"' EXIT # also when a step fails (die, set -e)
  tmp="$BASE_TMP"
  rootfs="$tmp/rootfs" slim="$tmp/slim"
  say "making the Debian $SUITE base with mmdebstrap (a few minutes the first time; log: $WORK/mmdebstrap.log)"
  mmdebstrap --variant=apt --include=openjdk-17-jre-headless,redis-server,mariadb-server \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    "$SUITE" "$rootfs" >"$WORK/mmdebstrap.log" 2>&1 || { tail -20 "$WORK/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
  tar -C "$rootfs" -cf "$tmp/stack.tar" .
  podman import -q --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$tmp/stack.tar" "$STACK_BASE" >/dev/null

  local jdk=usr/lib/jvm/java-17-openjdk-amd64
  mkdir -p "$slim"/{etc/ssl/certs/java,usr/lib/jvm,usr/lib/x86_64-linux-gnu,usr/lib64,usr/bin,tmp,var/lib}
  ln -s usr/lib "$slim/lib"; ln -s usr/lib64 "$slim/lib64"; ln -s usr/bin "$slim/bin"
  chmod 1777 "$slim/tmp"
  cp -a "$rootfs/$jdk" "$slim/usr/lib/jvm/"
  rm -rf "$slim/$jdk/man" "$slim/$jdk/docs" "$slim/$jdk/lib/ct.sym"
  cp -a "$rootfs/etc/java-17-openjdk" "$slim/etc/"
  cp -L "$rootfs/etc/ssl/certs/java/cacerts" "$slim/etc/ssl/certs/java/"
  ln -s "/$jdk/bin/java" "$slim/usr/bin/java"
  # renice (libc only): stock-stream runs its JIT compiler threads behind its own (dev.seckill.kit.threads.CompilerThreads)
  cp "$rootfs/usr/bin/renice" "$slim/usr/bin/"
  # the shared libraries the JRE's binaries load, as the stack's dynamic linker resolves them
  chroot "$rootfs" sh -c "for f in /$jdk/bin/java /$jdk/lib/*.so /$jdk/lib/server/libjvm.so; do ldd \$f; done" \
    | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/lib64\// {print $1}' | sort -u | while read -r lib; do
      case "$lib" in /$jdk/*) continue ;; esac
      # resolved inside the rootfs: an absolute link (bookworm's /lib64/ld-linux-x86-64.so.2) must not reach the host's
      real="$(chroot "$rootfs" readlink -f "$lib")"
      mkdir -p "$slim/usr$(dirname "${lib#/usr}")"
      cp "$rootfs$real" "$slim/usr${lib#/usr}"
    done
  printf 'root:x:0:0:root:/root:/nonexistent\nseckill:x:10001:10001:seckill:/var/lib/seckill:/nonexistent\n' >"$slim/etc/passwd"
  printf 'root:x:0:\nseckill:x:10001:\n' >"$slim/etc/group"
  printf 'hosts: files dns\n' >"$slim/etc/nsswitch.conf"
  ldconfig -r "$slim" 2>/dev/null || true
  tar -C "$slim" -cf "$tmp/jre.tar" .
  podman import -q --change "ENV PATH=/$jdk/bin:/usr/bin" --change 'ENV LANG=C.UTF-8' --change 'USER 10001:10001' \
    "$tmp/jre.tar" "$JRE_BASE" >/dev/null
  rm -rf "$BASE_TMP"
}

mkdir -p "$WORK"
service_base=() stack_base=()
if [ "$base" = debian ]; then
  if ! podman image exists "$JRE_BASE" || ! podman image exists "$STACK_BASE"; then make_bases; fi
  service_base=(--build-arg "BASE=$JRE_BASE") stack_base=(--build-arg "BASE=$STACK_BASE")
fi

# a service's context: its jar and its runtime dependencies (target/runtime.classpath, written at package)
service_context() { # module main jvm-flags...
  local module="$1" main="$2"; shift 2
  local ctx="$WORK/$module" cpfile="$ROOT/$module/target/runtime.classpath" own
  own="$(ls "$ROOT/$module"/target/"$module"-*.jar 2>/dev/null | grep -v -e '-tests.jar' -e '-sources.jar' | head -1)"
  [ -f "$cpfile" ] && [ -n "$own" ] || die "$module is not built: run ./seckill build (mvn install -DskipTests) first"
  rm -rf "$ctx"; mkdir -p "$ctx/lib" "$ctx/state/streams"
  cp "$own" "$ctx/lib/" || die "$module: cannot copy $own"
  local jar
  while IFS= read -r -d: jar || [ -n "$jar" ]; do
    jar="${jar%$'\n'}"
    [ -n "$jar" ] || continue
    [ -f "$jar" ] || die "$module: $jar is not a jar file (build with mvn package or install)"
    cp "$jar" "$ctx/lib/" || die "$module: cannot copy $jar"
  done <"$cpfile"
  cp "$HERE/service/Containerfile" "$ctx/"
  { printf '%s\n' -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC "$@" -cp '/app/lib/*' "$main"; } >"$ctx/jvm.args"
  echo "$ctx"
}

kafka_context() {
  local ctx="$WORK/kafka" cpfile
  cpfile="$ROOT/local-stack/kafka-broker-classpath/target/classes/dev/seckill/stack/kafka-broker.classpath"
  [ -f "$cpfile" ] || die "local-stack is not built: run mvn install -DskipTests first"
  rm -rf "$ctx"; mkdir -p "$ctx/libs"
  local jar
  while IFS= read -r -d: jar || [ -n "$jar" ]; do
    jar="${jar%$'\n'}"
    [ -n "$jar" ] || continue
    cp "$jar" "$ctx/libs/" || die "kafka: cannot copy $jar"
  done <"$cpfile"
  cp "$HERE/kafka/"* "$ctx/"
  echo "$ctx"
}

build() { # name context base-args...
  local name="$1" ctx="$2" old new; shift 2
  say "building seckill/$name:$TAG"
  old="$(podman image inspect --format '{{.Id}}' "seckill/$name:$TAG" 2>/dev/null || true)"
  podman build -q --layers "$@" --build-arg "SERVICE=$name" -t "seckill/$name:$TAG" "$ctx" >"$WORK/$name.build.log" 2>&1 \
    || { tail -20 "$WORK/$name.build.log" >&2; die "seckill/$name failed (log: $WORK/$name.build.log)"; }
  new="$(podman image inspect --format '{{.Id}}' "seckill/$name:$TAG")"
  # the image this tag named before, now untagged: removed (not while a container still uses it)
  if [ -n "$old" ] && [ "$old" != "$new" ]; then podman rmi "$old" >/dev/null 2>&1 || true; fi
}

built=()
if wanted gateway || wanted ingress-gateway; then
  ctx="$(service_context ingress-gateway dev.seckill.gateway.GatewayApp -XX:MaxGCPauseMillis=20)"
  build ingress-gateway "$ctx" "${service_base[@]}"
  built+=(ingress-gateway)
fi
for pair in stock-stream:dev.seckill.stock.StockStreamApp order-writer:dev.seckill.order.OrderWriterApp \
  reconciler:dev.seckill.reconcile.ReconcilerApp; do
  module="${pair%%:*}"
  wanted "$module" || continue
  ctx="$(service_context "$module" "${pair#*:}")"
  build "$module" "$ctx" "${service_base[@]}"
  built+=("$module")
done
if wanted kafka; then
  ctx="$(kafka_context)"
  build kafka "$ctx" "${stack_base[@]}"
  built+=(kafka)
fi
for name in redis mariadb; do
  wanted "$name" || continue
  build "$name" "$HERE/$name" "${stack_base[@]}"
  built+=("$name")
done

printf '%-32s %10s\n' IMAGE SIZE
for name in "${built[@]}"; do
  printf '%-32s %10s\n' "seckill/$name:$TAG" "$(podman image inspect --format '{{.Size}}' "seckill/$name:$TAG" | numfmt --to=iec)"
done
