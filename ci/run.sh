#!/bin/bash
# What CI runs on a fresh Debian 12 machine, as root, from a clean clone:
# install every package (make deps), then the README's test command,
# "make check", which fails on any failed or skipped test.
set -euo pipefail

cd "$(dirname "$(readlink -f "$0")")/.."
echo "ci: $(date -u +%FT%TZ) on $(uname -r), $(nproc) cores"
start=$SECONDS
make deps
make check
echo "ci: passed in $((SECONDS - start))s"
