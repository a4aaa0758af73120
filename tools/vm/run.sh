#!/bin/bash
# Runs one command in a throw-away QEMU guest booted from an installed Debian
# kernel (or the cached debug kernel, line "debug"), with the host root
# shared read-only over 9p (virtme-style) and the freshly built hyperframe.ko
# loaded. Returns the command's exit status, or:
#   124  the guest hung past --timeout and was killed
#   125  the guest never ran the command (boot or setup failure)
#   126  the module did not load or unload, or kmemleak reported a leak
#        (the report is in OUT/kmemleak.log)
#   127  the console showed a kernel report (oops, BUG, WARNING, lockdep,
#        KASAN, UBSAN, KFENCE, RCU stall, hung task)
#
# Usage: run.sh [--kernel LINE|RELEASE] [--module KO|--no-module]
#               [--params "k=v ..."] [--timeout SECONDS] [--mem MIB]
#               [--smp N] [--accel tcg|kvm] [--nic MODE,PORT,MAC]
#               [--out DIR] [--quiet] [--rw-root] -- CMD...
# --nic gives the guest a virtio-net device on QEMU's socket netdev, with
# MODE listen or connect on 127.0.0.1:PORT (tools/vm/nic-pair.sh joins
# two guests so); the guest loads virtio_net itself.
# --rw-root makes the guest's root writable: an overlay on the host root
# whose upper layer is in the guest's memory (packages installed there
# vanish with the guest; the host root stays read-only over 9p).
# The command's output is also kept in OUT/output.log, the console in
# OUT/console.log; --quiet prints only the command's output, at the end.
# For a kselftest run, OUT/times.log holds the seconds each program took.
# --timeout defaults to 600 s, 1800 s on the debug line (KASAN and lockdep
# under TCG: about 65 s to boot, several times slower to run).
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
tree=$(cd "$here/../.." && pwd -P)
kernel=${HF_KERNEL:-6.1}
module=$tree/build/kernel-@REL@/kernel/hyperframe.ko
params=
timeout=
mem=2048
smp=2
accel=${HF_ACCEL:-tcg}
out=
quiet=0
nic=
rootrw=0

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

while (($#)); do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	--no-module) module=; shift ;;
	--params) params=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--nic) nic=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--rw-root) rootrw=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	*) echo "run.sh: unknown option '$1'" >&2; usage 2 >&2 ;;
	esac
done
(($#)) || { echo "run.sh: no command given" >&2; usage 2 >&2; }

rel=$("$tree/tools/kver.sh" "$kernel") || exit 125
image=$("$tree/tools/kver.sh" --image "$kernel")
debug=0
[[ $rel != *-hf-debug ]] || debug=1
: "${timeout:=$((debug ? 1800 : 600))}"
module=${module//@REL@/$rel}
if [[ -n $module && ! -r $module ]]; then
	echo "run.sh: module $module is not built (run 'make module KERNEL=$kernel')" >&2
	exit 125
fi
# shellcheck disable=SC2054 # QEMU option values, commas and all
case $accel in
tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
kvm) accel_args=(-accel kvm -cpu host) ;;
*) echo "run.sh: --accel must be tcg or kvm" >&2; exit 2 ;;
esac
nic_args=()
if [[ -n $nic ]]; then
	IFS=, read -r nic_mode nic_port nic_mac <<< "$nic"
	if [[ $nic_mode != @(listen|connect) || ! $nic_port =~ ^[0-9]+$ ||
	      ! $nic_mac =~ ^([0-9a-f]{2}:){5}[0-9a-f]{2}$ ]]; then
		echo "run.sh: --nic wants listen|connect,PORT,MAC, not '$nic'" >&2
		exit 2
	fi
	# Loopback only: nothing the guest sends leaves this host.
	nic_args=(-netdev "socket,id=hfnic,$nic_mode=127.0.0.1:$nic_port"
		-device "virtio-net-pci,netdev=hfnic,mac=$nic_mac")
fi

vmdir=$tree/build/vm
initrd=$vmdir/initramfs-$rel.cpio.gz
if [[ ! -s $initrd || $initrd -ot $here/init || $initrd -ot $here/mkinitramfs.sh ]]; then
	# The debug kernel has virtio and 9p built in and no /lib/modules.
	if ((debug)); then
		"$here/mkinitramfs.sh" --no-modules "$rel" "$initrd"
	else
		"$here/mkinitramfs.sh" "$rel" "$initrd"
	fi
fi

if [[ -z $out ]]; then
	mkdir -p "$vmdir/runs"
	out=$(mktemp -d "$vmdir/runs/$(date +%H%M%S)-XXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
# What a run leaves, a first boot's kept logs (console-KEPT.log ...) too.
rm -f "$out/rc" "$out/times.log" "$out"/console*.log "$out"/output-*.log "$out"/kmemleak*.log

{
	printf 'export HF_TREE=%q\n' "$tree"
	printf 'export HF_RELEASE=%q\n' "$rel"
	printf 'export HF_MODULE=%q\n' "$module"
	printf 'export HF_MODULE_PARAMS=%q\n' "$params"
	printf 'export HF_BUILD=%q\n' "$tree/build"
	# The debug kernel under TCG runs several times slower: a timing
	# bound it misses is an expected failure there (selftests/lib.sh
	# check_time), never a pass. KSFT_MACHINE_SLOW set here wins.
	slow=${KSFT_MACHINE_SLOW:-}
	((!debug)) || slow=${slow:-yes}
	[[ -z $slow ]] || printf 'export KSFT_MACHINE_SLOW=%q\n' "$slow"
} > "$out/env"
printf '%q ' "$@" > "$out/cmd"
echo >> "$out/cmd"

# The console prints errors only; guest.sh prints the kernel's warnings
# from dmesg when a run tainted the kernel, from a log that holds a whole
# suite's (4 MiB).
append="console=ttyS0 panic=-1 oops=panic mitigations=off quiet loglevel=4 log_buf_len=4M"
append+=" hf.tree=$tree"
# How the guest caches the host root (tools/vm/init). loose keeps what it
# read, so an exec no longer reads its binary and libraries over 9p again:
# 6.1's suite ran 2.4 to 2.8 times faster. 6.12 stays uncached: its two full
# runs with loose each ended in a kernel report (an int3 on a byte memory
# no longer held, a double fault in the slab fast path) where every run
# without had been clean, and 6.12's 9p caches through netfs, which 6.1's
# does not. HF_VM_ROOT_CACHE=loose|none overrides.
case $rel in
6.1.*) root_cache=${HF_VM_ROOT_CACHE:-loose} ;;
*) root_cache=${HF_VM_ROOT_CACHE:-none} ;;
esac
append+=" hf.rootcache=$root_cache"
((!rootrw)) || append+=" hf.rootrw=1"

# Uncached, an exec costs a 6.12 guest a third of a second (grep) to five
# seconds (python3): every page of the binary and its libraries comes over
# 9p again. So the files the tests run most ride in the initramfs as well,
# and the guest lays them over the host root (overlayfs, tools/vm/init):
# the programs below with every library they load, hyperframe's own
# binaries, and python's standard library (less what no test imports).
# 20 python3 starts took 109 s without, 17 s with; 50 hfctl runs 47 s and
# 8 s (6.1 with loose alone: 20 s and 12 s). HF_VM_HOT=0 turns it off.
hot_progs=(bash dash sh ip tc python3 timeout grep sed mawk awk cat sleep seq
	head tail wc sort uniq tr cut date env mktemp rm mkdir ls cp mv ln chmod
	stat readlink dirname basename printf test expr tee kill pgrep pkill ps
	nproc id sync find xargs od dd modprobe insmod rmmod lsmod sysctl ethtool
	bpftool jq)
hot_paths()
{
	local p f
	{
		for p in "${hot_progs[@]}"; do
			# The guest's PATH (guest.sh), not the caller's.
			p=$(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
				command -v "$p" 2>/dev/null) || continue
			if [[ $p == /* ]]; then readlink -f "$p"; fi
		done
		for f in "$tree"/build/userspace/hfctl/hfctl \
			"$tree"/build/userspace/hfperf/hfperf \
			"$tree"/build/ksft/hyperframe/*; do
			if [[ -f $f && -x $f ]]; then readlink -f "$f"; fi
		done
	} | sort -u > "$out/hot.progs"
	cat "$out/hot.progs"
	# Shared libraries, the loader among them.
	while read -r f; do
		# Not every program is dynamic: ldd fails on scripts.
		{ ldd "$f" 2>/dev/null || true; } |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
	done < "$out/hot.progs" | xargs -r readlink -f
	rm -f "$out/hot.progs"
	echo /etc/ld.so.cache
	for f in /usr/lib/python3.[0-9]*; do
		[[ -d $f ]] || continue
		find "$f" \( -name 'config-*' -o -name test -o -name idlelib \
			-o -name tkinter -o -name turtledemo -o -name lib2to3 \
			-o -name pydoc_data -o -name ensurepip \) -prune -o \
			\( -type f -o -type l \) -print
	done
}
# OUT/hot.cpio: those files at their own paths under /hot, uncompressed, appended to
# the initramfs (the kernel unpacks one archive after the other).
hot_initrd()
{
	local stage=$out/hot.stage
	rm -rf "$stage"
	mkdir -p "$stage/hot"
	# From inside the stage: cp --parents -a looks up the directories it
	# made by their relative names (coreutils 9.1).
	hot_paths | sort -u | (cd "$stage/hot" && xargs -r -d '\n' cp --parents -a -t .)
	# It also leaves the directories it made 0700; in the guest a layer's
	# directory hides the mode of the one below, so give back the host's.
	(cd "$stage/hot" && find . -mindepth 1 -type d -printf '%P\n') |
		while read -r d; do chmod --reference="/$d" "$stage/hot/$d"; done
	(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) > "$out/hot.cpio"
	rm -rf "$stage"
	# The next archive must start on a 4-byte boundary: zeros pad.
	cp "$initrd" "$out/initrd"
	truncate -s %512 "$out/initrd"
	cat "$out/hot.cpio" >> "$out/initrd"
	rm -f "$out/hot.cpio"
	initrd=$out/initrd
}
rm -f "$out/initrd"
[[ ${HF_VM_HOT:-1} == 0 ]] || hot_initrd
# Debug line: every KASAN report, not only the first; PCI interrupt routing
# from the BIOS table, as the instrumented ACPI interpreter runs QEMU's
# _PRT loop into its 30 s timeout (three times: 90 s more boot, and errors).
((!debug)) || append+=" kasan_multi_shot pci=noacpi"

qemu=(qemu-system-x86_64 "${accel_args[@]}" -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -display none -monitor none
	-serial "file:$out/console.log"
	-kernel "$image" -initrd "$initrd" -append "$append"
	-device virtio-rng-pci "${nic_args[@]}"
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$out,mount_tag=hfrun,security_model=none,multidevs=remap")

# boot: one guest, start to end; sets qrc and reports.
boot()
{
	timeout --kill-after=10 "$timeout" "${qemu[@]}" &
	qpid=$!
	# timeout(1) runs in its own process group: take the guest down with
	# us when we are interrupted or killed, rather than leave it to its
	# timeout.
	trap 'kill "$qpid" 2>/dev/null; exit 130' INT TERM HUP
	if ((!quiet)); then
		tail -n +1 -f --pid="$qpid" "$out/console.log" 2>/dev/null &
		tpid=$!
	fi
	set +e
	wait "$qpid"
	qrc=$?
	set -e
	trap - INT TERM HUP
	if ((!quiet)); then
		sleep 0.2
		kill "$tpid" 2>/dev/null || true
		wait "$tpid" 2>/dev/null || true
	fi
	reports=$("$here/console-check.sh" "$out/console.log" || true)
}

start=$(date +%s)
: > "$out/console.log"
boot
# Two reports come from the emulator, not from what runs in the guest,
# and earn one more boot (the first console is kept, and said so):
# - a kernel that crashes while booting, before guest.sh has run ("hf-vm:
#   guest up" on the console) and so before the module or the command
#   could play a part: TCG has been seen to trap on the int3 of a
#   half-patched instruction early in boot;
# - later, the same trap on an int3 the code no longer holds (the byte
#   before the trapping RIP is not 0xcc: console-check.sh --stale-int3),
#   seen once in __schedule while tracefs turned events off: TCG ran a
#   stale translation of code the kernel had patched and restored. The
#   whole command runs again; its first output is kept too.
if [[ -n $reports ]]; then
	why=
	if ! grep -q 'hf-vm: guest up' "$out/console.log"; then
		why="the kernel crashed while booting, before the guest ran anything"
		kept=boot-crash
	elif "$here/console-check.sh" --stale-int3 "$out/console.log"; then
		why="the kernel trapped on an int3 its code no longer holds (a stale TCG translation)"
		kept=stale-int3
	fi
	if [[ -n $why ]]; then
		mv "$out/console.log" "$out/console-$kept.log"
		[[ ! -e $out/output.log ]] || mv "$out/output.log" "$out/output-$kept.log"
		[[ ! -e $out/kmemleak.log ]] || mv "$out/kmemleak.log" "$out/kmemleak-$kept.log"
		rm -f "$out/rc" "$out/times.log"
		echo "run.sh: $why ($out/console-$kept.log): booting once more" >&2
		: > "$out/console.log"
		boot
	fi
fi
elapsed=$(($(date +%s) - start))
rm -f "$out/initrd"

if [[ -n $reports ]]; then
	echo "run.sh: kernel report on the console ($out/console.log):" >&2
	echo "$reports" >&2
	exit 127
fi
if ((qrc == 124 || qrc == 137)); then
	echo "run.sh: guest hung; killed after ${timeout}s ($out/console.log)" >&2
	exit 124
fi
if [[ ! -s $out/rc ]]; then
	echo "run.sh: guest ended (qemu status $qrc) without running the command ($out/console.log)" >&2
	exit 125
fi
rc=$(cat "$out/rc")
if [[ -s $out/kmemleak.log ]]; then
	echo "run.sh: kmemleak reported leaks ($out/kmemleak.log):" >&2
	head -n 60 "$out/kmemleak.log" >&2
fi
((!quiet)) || cat "$out/output.log" 2>/dev/null || true
((quiet)) || echo "run.sh: $rel: command exited $rc after ${elapsed}s" >&2
exit "$rc"
