#!/usr/bin/env bash
# Installs the system packages tooldex uses on Debian (run as root): sandbox isolation, runtimes,
# PostgreSQL (for multi-instance setups and the test suite), Chromium (dashboard tests) and Redis (shared rate-limit counters test).
set -euo pipefail
# Sandbox: bubblewrap, slirp4netns, iptables (host rules on the sandbox gid), iproute2, util-linux + mount (namespaces,
# loop mounts), e2fsprogs (one ext4 volume per session: the disk quota in blocks and inodes).
packages=(bubblewrap slirp4netns iptables iproute2 util-linux mount e2fsprogs procps gcc libc6-dev make ruby ruby-dev postgresql chromium redis-server ca-certificates curl git)
# Sandbox toolchains: Debian's own only where the host has none (newer go/rustup/pyenv installs win).
command -v python3 >/dev/null || packages+=(python3 python3-venv)
command -v go >/dev/null || packages+=(golang-go)
command -v cargo >/dev/null || packages+=(cargo)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
echo "setup: system packages present" >&2
