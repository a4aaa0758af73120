#!/bin/bash
# Builds the guest's initramfs for one kernel release: a static busybox, the
# modules that mount the host root over virtio-9p and overlayfs (order from
# modprobe, decompressed for busybox insmod) and tools/vm/init as /init.
# --no-modules leaves the module list empty, for a kernel with virtio and
# 9p built in that has no /lib/modules (the debug line).
# Usage: mkinitramfs.sh [--no-modules] RELEASE OUTPUT.cpio.gz
set -euo pipefail

modules=1
if [[ ${1:-} == --no-modules ]]; then
	modules=0
	shift
fi
rel=${1:?usage: mkinitramfs.sh [--no-modules] RELEASE OUTPUT}
out=${2:?usage: mkinitramfs.sh [--no-modules] RELEASE OUTPUT}
here=$(dirname "$(readlink -f "$0")")

busybox=$(command -v busybox || true)
if [[ -z $busybox ]] || ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
	busybox=/bin/busybox
fi
[[ -x $busybox ]] || { echo "mkinitramfs: busybox-static is missing (run 'make deps')" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,newroot,modules}
cp "$busybox" "$work/bin/busybox"

# The 9p root needs these (overlay lays run.sh's hot files over it); modprobe prints them in load order, with
# duplicates, and "builtin NAME" for the ones compiled in.
: > "$work/list"
if ((modules)); then
	modprobe -S "$rel" -a --show-depends virtio_pci 9pnet_virtio 9p overlay |
		awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$work/list"
fi
n=0
while read -r ko; do
	n=$((n + 1))
	name=$(printf '%02d-%s' "$n" "$(basename "$ko")")
	case $ko in
	*.xz) xz -dc "$ko" > "$work/modules/${name%.xz}" ;;
	*.zst) zstd -qdc "$ko" > "$work/modules/${name%.zst}" ;;
	*.gz) gzip -dc "$ko" > "$work/modules/${name%.gz}" ;;
	*) cp "$ko" "$work/modules/$name" ;;
	esac
done < "$work/list"
rm "$work/list"

install -m 0755 "$here/init" "$work/init"
mkdir -p "$(dirname "$out")"
(cd "$work" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
