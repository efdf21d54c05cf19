#!/usr/bin/env bash
# Builds, without any registry, the base images the deploy test uses in place of the official ones:
#   localhost/simdock-test/node:<key>      Debian 12 minbase + ca-certificates + tini + this machine's Node.js
#   localhost/simdock-test/services:<key>  Debian 12 minbase + PostgreSQL 15 + Caddy, made to behave like
#                                          the official postgres image (POSTGRES_* variables, initdb on
#                                          first start) and the official caddy image (/etc/caddy/Caddyfile)
# The key is a hash of this script, the Node.js version, the machine's own certificate authorities
# (/usr/local/share/ca-certificates: a proxy that inspects TLS, which npm in the build must trust) and
# the ISO week, so a rerun reuses them (mmdebstrap takes minutes) and Debian's updates come in within
# a week.
# Prints the two image names.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
local_cas=$(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null | sort)
key=$( (cat "$0" "$here/postgres-entrypoint.sh" $local_cas; node --version; date -u +%G-%V) | sha256sum | cut -c1-12)
node_img="localhost/simdock-test/node:$key"
svc_img="localhost/simdock-test/services:$key"
work=$(mktemp -d /var/tmp/simdock-bases.XXXXXX)
trap 'rm -rf "$work"' EXIT

have() { podman image exists "$1"; }

build_node() {
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,tini \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    bookworm "$work/node.tar" >/dev/null
  local c
  c=$(buildah from scratch)
  buildah add "$c" "$work/node.tar" / >/dev/null
  # The machine's Node.js (20+; Debian 12's own is 18), with npm, as the official image has them.
  buildah copy "$c" "$(readlink -f "$(command -v node)")" /usr/local/bin/node >/dev/null
  local npm_dir
  npm_dir=$(dirname "$(readlink -f "$(command -v npm)")")/..
  buildah copy "$c" "$(readlink -f "$npm_dir")" /usr/local/lib/node_modules/npm >/dev/null
  buildah run "$c" -- ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
  # The machine's certificate authorities, trusted by the system and by npm (its global npmrc).
  if [ -n "$local_cas" ]; then
    # shellcheck disable=SC2086
    buildah copy "$c" $local_cas /usr/local/share/ca-certificates/ >/dev/null
    buildah run "$c" -- sh -c 'update-ca-certificates >/dev/null 2>&1; mkdir -p /usr/local/etc && echo cafile=/etc/ssl/certs/ca-certificates.crt > /usr/local/etc/npmrc'
  fi
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$c"
  buildah commit --quiet --format docker --rm "$c" "$node_img" >/dev/null
}

build_services() {
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,postgresql-15,caddy \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    bookworm "$work/services.tar" >/dev/null
  local c
  c=$(buildah from scratch)
  buildah add "$c" "$work/services.tar" / >/dev/null
  buildah copy "$c" "$here/postgres-entrypoint.sh" /usr/local/bin/docker-entrypoint.sh >/dev/null
  buildah run "$c" -- sh -c 'chmod 755 /usr/local/bin/docker-entrypoint.sh && mkdir -p /var/lib/postgresql/data /var/run/postgresql /etc/caddy /data /config && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql && ln -s /usr/lib/postgresql/15/bin/postgres /usr/lib/postgresql/15/bin/initdb /usr/local/bin/'
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/lib/postgresql/15/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env PGDATA=/var/lib/postgresql/data --entrypoint '["docker-entrypoint.sh"]' --cmd postgres "$c"
  buildah commit --quiet --format docker --rm "$c" "$svc_img" >/dev/null
}

# Last week's bases (another key) are never used again: removed, so a machine that runs this weekly
# keeps one pair.
podman images --format '{{.Repository}}:{{.Tag}}' |
  grep -E '^localhost/simdock-test/(node|services):' | grep -v ":$key\$" | xargs -r podman rmi -f >/dev/null 2>&1 || true
# The image build's layer cache: untagged layers older than a week go (a newer build made its own).
podman image prune -f --filter until=168h >/dev/null 2>&1 || true

pids=()
if ! have "$node_img"; then build_node & pids+=($!); fi
if ! have "$svc_img"; then build_services & pids+=($!); fi
for p in "${pids[@]}"; do wait "$p"; done
echo "$node_img"
echo "$svc_img"
