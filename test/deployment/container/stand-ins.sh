#!/usr/bin/env bash
# Local stand-ins for the registry images that the Dockerfile and compose.yaml name (node, postgres,
# redis), for machines that reach Debian's archive and npm's registry but no container registry (CI's).
# Each is built from Debian 12 packages the way its official image is, keeps the interface that
# compose.yaml uses, and is built once: a second run finds the tags and does nothing.
# Usage: stand-ins.sh ENGINE NODE_BINARY  (prints nothing but progress on standard error)
set -euo pipefail
engine=$1
node_binary=$2
here=$(cd "$(dirname "$0")" && pwd)
base=localhost/ivr-stand-in/debian:bookworm

has_image() { "$engine" image exists "$1" 2>/dev/null || "$engine" image inspect "$1" >/dev/null 2>&1; }

if ! has_image "$base"; then
  rootfs=$(mktemp -d)
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >&2
  tar -C "$rootfs" -c . | "$engine" import - "$base" >&2
fi

if ! has_image localhost/ivr-stand-in/node:24; then
  context=$(mktemp -d)
  cp "$node_binary" "$context/node"
  # The npm on PATH, wherever it is installed (npm root -g names the folder of the node on PATH instead).
  cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$context/npm"
  # The machine's certificate authorities, so that npm in a build reaches the registry as it does here.
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$context/ca-certificates.crt"
  cp "$here/node.Containerfile" "$context/Containerfile"
  "$engine" build --quiet --build-arg BASE="$base" -t localhost/ivr-stand-in/node:24 "$context" >&2
  rm -rf "$context"
fi

for service in postgres redis; do
  if ! has_image "localhost/ivr-stand-in/$service:bookworm"; then
    "$engine" build --quiet --build-arg BASE="$base" -f "$here/$service.Containerfile" \
      -t "localhost/ivr-stand-in/$service:bookworm" "$here" >&2
  fi
done
