#!/bin/bash
# Builds the "debug" kernel line once per machine: Debian's linux-source-6.1
# configured as x86_64 defconfig + kvm_guest.config + debug.config (KASAN,
# lockdep, kmemleak, UBSAN, KFENCE, fault injection, BTF, the test
# networking built in), checked option by option, then bzImage, vmlinux and
# Module.symvers for out-of-tree modules. The result is cached outside the
# checkout, in CACHE/KEY, where KEY hashes the fragment, this script, the
# source package version and the compiler and pahole versions; a finished
# build has a "complete" stamp and is reused as is.
#
# Usage: build.sh            build unless cached; print the cache directory
#        build.sh --dir      print the cache directory, build nothing
#        build.sh --check    exit 0 if the build is cached, 1 if not
#        build.sh --prune    remove every cached build but this one
# Environment: HF_DEBUG_KERNEL_CACHE (default /var/cache/hyperframe/debug-
# kernel, or ~/.cache/hyperframe/debug-kernel when that is not writable),
# JOBS (default: nproc).
#
# Layout of CACHE/KEY: src/ (the unpacked source, pruned to what Kbuild
# needs for external modules), build/ (the O= tree: .config, vmlinux,
# Module.symvers, arch/x86/boot/bzImage), release, build.log, times,
# complete.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
frag=$here/debug.config
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=${JOBS:-$(nproc)}

cache=${HF_DEBUG_KERNEL_CACHE:-}
if [[ -z $cache ]]; then
	cache=/var/cache/hyperframe/debug-kernel
	if ! mkdir -p "$cache" 2>/dev/null || [[ ! -w $cache ]]; then
		cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hyperframe/debug-kernel
	fi
fi

die() { echo "debug-kernel: $*" >&2; exit 1; }

[[ -r $tarball ]] || die "$tarball is missing (run 'make deps': package linux-source-6.1)"

# The key: everything that changes the built tree or the module ABI.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
	stat -c '%s %Y' "$tarball")
key=$({
	cat "$frag" "$here/build.sh"
	echo "linux-source-6.1 $srcver"
	gcc --version | head -n 1
	pahole --version 2>/dev/null || echo "no pahole"
} | sha256sum | cut -c 1-16)
dir=$cache/$key

case ${1:-} in
--dir) echo "$dir"; exit 0 ;;
--check) [[ -f $dir/complete ]]; exit ;;
--prune)
	for d in "$cache"/*/; do
		d=${d%/}
		[[ $d == "$dir" ]] || { echo "debug-kernel: removing $d"; rm -rf "$d"; }
	done
	exit 0 ;;
"") ;;
*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

if [[ -f $dir/complete ]]; then
	echo "$dir"
	exit 0
fi

for tool in gcc make flex bison bc pahole perl rsync cpio; do
	command -v "$tool" >/dev/null || die "$tool is missing (run 'make deps')"
done
for hdr in gelf.h openssl/opensslv.h; do
	[[ -e /usr/include/$hdr ]] || die "/usr/include/$hdr is missing (run 'make deps')"
done

mkdir -p "$cache"
exec 9>"$cache/.lock"
if ! flock -n 9; then
	echo "debug-kernel: another build holds $cache/.lock; waiting" >&2
	flock 9
fi
# Built by the other holder while we waited?
if [[ -f $dir/complete ]]; then
	echo "$dir"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
src=$dir/src
obj=$dir/build
log=$dir/build.log
: > "$log"
t0=$SECONDS
echo "debug-kernel: building in $dir (log: $log)" >&2

# step NAME CMD...: runs CMD with its output in the log; on failure shows
# the end of the log and stops.
step()
{
	local name=$1 t=$SECONDS

	shift
	echo "debug-kernel: $name" >&2
	echo "== $name: $*" >> "$log"
	if ! "$@" >> "$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$name failed (log: $log); the partial build in $dir is rebuilt next time"
	fi
	echo "$name $((SECONDS - t))" >> "$dir/times"
}

unpack()
{
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
}

configure()
{
	make -C "$src" O="$obj" defconfig
	# merge_config.sh runs make in the current directory: the source tree.
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
		kernel/configs/kvm_guest.config "$frag")
	make -C "$src" O="$obj" olddefconfig
}

# Every option of the fragment must be in the final .config as written:
# Kconfig drops what it cannot satisfy without an error, so check.
verify()
{
	local line sym bad=0

	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			if ! grep -qxF -- "$line" "$obj/.config"; then
				echo "debug-kernel: $line did not land; .config has:" \
					"$(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo "nothing (dependency unmet)")" >&2
				bad=1
			fi
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			if grep -qE "^$sym=" "$obj/.config"; then
				echo "debug-kernel: $sym should be unset; .config has:" \
					"$(grep -E "^$sym=" "$obj/.config")" >&2
				bad=1
			fi
		fi
	done < "$frag"
	return "$bad"
}

step "unpack $(basename "$tarball") ($srcver)" unpack
step "configure: defconfig + kvm_guest.config + debug.config" configure
echo "debug-kernel: checking every option of $frag" >&2
verify || die "the fragment did not apply (see above); fix $frag"
cp "$obj/.config" "$dir/config"

step "build bzImage, vmlinux, modules (make -j$jobs)" \
	nice -n 10 make -C "$src" O="$obj" -j"$jobs" all
rel=$(make -s -C "$src" O="$obj" kernelrelease)

# Keep what building and debugging external modules needs: the O= tree's
# generated headers, .config, scripts and objtool binaries, Module.symvers,
# vmlinux (split BTF for modules, symbolising reports) and the image.
# Objects, archives and the source's C files are not needed.
prune()
{
	find "$obj" \( -name '*.o' -o -name '*.a' -o -name '*.ko' -o -name '.tmp_vmlinux*' \
		-o -name '*.mod.c' -o -name 'vmlinux.o' \) -type f -delete
	rm -rf "$src/Documentation" "$src/LICENSES" "$src/samples"
	find "$src" \( -path "$src/scripts" -o -path "$src/tools" \) -prune -o \
		\( -name '*.c' -o -name '*.S' -o -name '*.rst' \) -type f -print0 |
		xargs -0 rm -f
}
before=$(du -sm "$dir" | cut -f 1)
step "prune objects and sources" prune
after=$(du -sm "$dir" | cut -f 1)

echo "$rel" > "$dir/release"
total=$((SECONDS - t0))
echo "total $total" >> "$dir/times"
# CPU time of everything this script ran: the cost on an idle machine.
# (times must run in this shell: in a pipe or $(...) it reports those of
# a subshell, which ran nothing.)
times > "$dir/cpu"
cpu=$(tail -n 1 "$dir/cpu" | awk '{ print "cpu user " $1 " sys " $2 }')
rm -f "$dir/cpu"
echo "$cpu" >> "$dir/times"
echo "disk before-prune-MiB $before after-prune-MiB $after" >> "$dir/times"
date -u +%FT%TZ > "$dir/complete"
echo "debug-kernel: $rel built in ${total}s ($cpu); $dir holds" \
	"${after} MiB (${before} MiB before pruning)" >&2
echo "$dir"
