#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg-test.sh DEB... - runs in a guest booted with run.sh --rw-root
# --no-module (tools/deb-check.sh starts it): installs the Debian packages
# built by "make deb" on a root whose writes stay in the guest's memory,
# and checks what a user gets. DKMS builds and installs the module for the
# booted kernel; without modprobe, a hyperframe socket, hfctl and "tc qdisc
# add ... hfq" each load it (the module's aliases); the man pages, the
# pkg-config file and uapi header, the exporter's unit (verified, installed
# disabled, its command answering a scrape), hfctl's bash completion, the
# Wireshark dissector and the YNL spec (the kernel's cli.py reading the
# settings through it, the module loaded) are in place; libfabric finds
# the provider "hf" without FI_PROVIDER_PATH; "dpkg -r" takes every file away
# and DKMS the module, and a purge leaves nothing behind. KTAP output.
source "$HF_TREE/selftests/lib.sh"

rel=$(uname -r)
debs=("$@")
pkgs=(hyperframe-dkms hyperframe-tools hyperframe-libfabric libhyperframe0 libhyperframe-dev)
# The guest's writable layer is memory: nothing here reaches the host.
work=$(mktemp -d)
defer rm -rf "$work"

ktap_plan 12

modname_loaded() { grep -q '^hyperframe ' /proc/modules; }
unload() { ! modname_loaded || rmmod hyperframe; }

[[ -w /var/lib/dpkg/status ]]
check_err $? "the root is not writable: run with --rw-root"
! modname_loaded
check_err $? "hyperframe is loaded before the packages are installed"
((${#debs[@]} == ${#pkgs[@]}))
check_err $? "want the ${#pkgs[@]} packages, got: ${debs[*]}"
log_test "guest: writable overlay root, module not loaded, ${#pkgs[@]} packages"

t=$SECONDS
# dpkg -i builds the module through DKMS (for the booted kernel and, as
# Debian's DKMS does, the newest kernel installed if that is another).
dpkg -i "${debs[@]}" > "$work/install.log" 2>&1
check_err $? "dpkg -i failed: $(tail -n 5 "$work/install.log")"
sed 's/^/# /' "$work/install.log" | grep -E 'Building|Installing|Signing|DKMS|Error|error' | head -n 20
echo "# dpkg -i took $((SECONDS - t)) s"
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'
	check_err $? "$p is not installed"
done
log_test "dpkg -i: the ${#pkgs[@]} packages install"

# (dkms status warns on stderr of modules built without a .comment)
status=$(dkms status -m hyperframe -k "$rel" 2>/dev/null)
echo "# dkms status: $status"
grep -q "hyperframe/.*, $rel, .*: installed" <<< "$status"
check_err $? "DKMS did not install hyperframe for $rel: $status"
ko=$(modinfo -n hyperframe 2>/dev/null)
[[ $ko == /lib/modules/$rel/updates/dkms/hyperframe.ko* ]]
check_err $? "modprobe would not find the DKMS module (modinfo -n: '$ko')"
log_test "dkms: hyperframe built and installed for $rel"

# Autoload: each way in, from unloaded, with no modprobe of ours.
python3 -c 'import socket; socket.socket(18, socket.SOCK_RDM, 0).close()'
check_err $? "socket(18, SOCK_RDM) failed with the module not loaded"
modname_loaded
check_err $? "socket() did not load the module"
log_test "autoload: socket(AF_HYPERFRAME) loads the module"
unload

# "hfctl module show" reads sysfs and reports an unloaded module as such;
# what goes through the generic netlink family resolves it by name.
hfctl config show > "$work/config.txt" 2>&1
check_err $? "hfctl config show failed: $(cat "$work/config.txt")"
modname_loaded
check_err $? "hfctl did not load the module"
log_test "autoload: hfctl (generic netlink family by name) loads the module"
unload

ip link add hfpkg0 type dummy
defer ip link del hfpkg0
# With options: tc's own library folder holds the package's q_hfq.so.
tc qdisc add dev hfpkg0 root hfq rate 10gbit limit 20000 2> "$work/tc.txt"
check_err $? "tc qdisc add ... hfq rate 10gbit limit 20000 failed: $(cat "$work/tc.txt")"
modname_loaded
check_err $? "tc did not load the module"
tc -d qdisc show dev hfpkg0 | grep -q '^qdisc hfq .*rate 10Gbit limit 20000p'
check_err $? "hfq with the plugin's settings is not the root qdisc: $(tc -d qdisc show dev hfpkg0)"
log_test "autoload: tc qdisc add ... hfq (the package's q_hfq.so) loads the module"
ip link del hfpkg0
busywait 10000 unload

for page in hfctl.8 hfperf.1 hyperframe.7; do
	man -P cat "${page##*.}" "${page%.*}" > "$work/man.txt" 2>/dev/null
	check_err $? "man ${page%.*} failed"
	grep -qi "${page%.*}" "$work/man.txt"
	check_err $? "man ${page%.*} printed no page"
done
[[ -r /usr/share/bash-completion/completions/hfctl ]] &&
	bash -c 'source /usr/share/bash-completion/completions/hfctl 2>/dev/null; complete -p hfctl' >/dev/null
check_err $? "hfctl's bash completion is not installed or does not load"
ls /usr/lib/*/wireshark/plugins/hyperframe.lua >/dev/null 2>&1
check_err $? "the Wireshark dissector is not in the global plugin folder"
# The kernel's cli.py (tools/ynl.sh, from "make deps") on the installed
# spec: the family's settings. cli.py looks the family up in a dump of
# all families, which loads no module (hfctl's lookup by name does): the
# module is loaded first, through hfctl.
spec=/usr/share/hyperframe/netlink/hyperframe.yaml
hfctl config show >/dev/null 2>&1
if ynl=$("$HF_TREE/tools/ynl.sh" 2>"$work/ynl.txt"); then
	python3 "$ynl/tools/net/ynl/cli.py" --spec "$spec" \
		--schema "$ynl/Documentation/netlink/genetlink-c.yaml" --output-json \
		--do config-get > "$work/ynl.txt" 2>&1
	check_err $? "cli.py --spec $spec --do config-get: $(cat "$work/ynl.txt")"
	grep -q '"max-msg": [1-9]' "$work/ynl.txt"
	check_err $? "cli.py config-get gave no max-msg: $(cat "$work/ynl.txt")"
else
	check_err 1 "no YNL tooling (make deps): $(cat "$work/ynl.txt")"
fi
log_test "tools: man pages, bash completion, Wireshark dissector, YNL spec"

# A C program of libhyperframe-dev's uapi header, and pkg-config.
pkg-config --exists hyperframe && pkg-config --libs hyperframe | grep -q -- -lhyperframe
check_err $? "pkg-config hyperframe: $(pkg-config --libs hyperframe 2>&1)"
cat > "$work/uapi.c" <<'C'
#include <stdio.h>
#include <sys/socket.h>
#include <linux/hyperframe.h>
int main(void)
{
	struct sockaddr_hf a = { .shf_family = AF_HYPERFRAME };
	printf("%d %zu %s\n", a.shf_family, sizeof(a), HF_GENL_NAME);
	return 0;
}
C
gcc -Wall -Werror -o "$work/uapi" "$work/uapi.c" && "$work/uapi" > "$work/uapi.txt"
check_err $? "a program of <linux/hyperframe.h> did not build or run"
grep -q '^18 .* hyperframe$' "$work/uapi.txt"
check_err $? "uapi program printed: $(cat "$work/uapi.txt")"
log_test "dev: pkg-config hyperframe and <linux/hyperframe.h>"

unit=/lib/systemd/system/hfctl-exporter.service
systemd-analyze verify "$unit" > "$work/verify.txt" 2>&1
check_err $? "systemd-analyze verify: $(cat "$work/verify.txt")"
[[ -z $(find /etc/systemd/system -name 'hfctl-exporter.service' 2>/dev/null) ]]
check_err $? "the exporter unit is enabled: $(find /etc/systemd/system -name 'hfctl-exporter.service')"
# No systemd runs this guest: run the unit's command as it would.
cmd=$(sed -n 's/^ExecStart=//p' "$unit")
$cmd > "$work/exporter.txt" 2>&1 &
exporter=$!
defer kill "$exporter"
busywait 20000 curl -sf -o "$work/metrics.txt" http://127.0.0.1:9477/metrics
check_err $? "the unit's command ($cmd) answered no scrape: $(cat "$work/exporter.txt")"
grep -q '^hyperframe_up 1' "$work/metrics.txt"
check_err $? "scrape without hyperframe_up 1: $(grep hyperframe_up "$work/metrics.txt")"
kill "$exporter"
wait "$exporter" 2>/dev/null
log_test "systemd: exporter unit verifies, installed disabled, its command answers a scrape"
unload

# libfabric finds the provider in its own folder (no FI_PROVIDER_PATH);
# an up Ethernet device is its domain.
ip link add hfpkg1 type dummy && ip link set hfpkg1 up
defer ip link del hfpkg1
hfctl config show >/dev/null 2>&1
env -u FI_PROVIDER_PATH FI_HF_IFACE=hfpkg1 fi_info -p hf > "$work/fi_info.txt" 2>&1
check_err $? "fi_info -p hf: $(tail -n 3 "$work/fi_info.txt")"
grep -q '^provider: hf' "$work/fi_info.txt" && grep -q 'domain: hfpkg1' "$work/fi_info.txt"
check_err $? "fi_info -p hf listed no domain hfpkg1: $(head -n 5 "$work/fi_info.txt")"
log_test "libfabric: fi_info finds the package's provider hf, no FI_PROVIDER_PATH"
ip link del hfpkg1
busywait 10000 unload

# Removal: every file of every package goes, and DKMS takes the module.
for p in "${pkgs[@]}"; do
	dpkg-query -L "$p"
done | sort -u > "$work/files.txt"
dpkg -r "${pkgs[@]}" > "$work/remove.log" 2>&1
check_err $? "dpkg -r failed: $(tail -n 5 "$work/remove.log")"
left=$(while read -r f; do [[ -d $f || ! -e $f ]] || echo "$f"; done < "$work/files.txt")
[[ -z $left ]]
check_err $? "left after dpkg -r: $left"
echo "# $(wc -l < "$work/files.txt") paths were installed; none is left"
find /lib/modules -name 'hyperframe.ko*' | grep -q .
check_fail $? "a hyperframe.ko is left: $(find /lib/modules -name 'hyperframe.ko*')"
[[ -z $(dkms status -m hyperframe 2>/dev/null) && ! -e /var/lib/dkms/hyperframe ]]
check_err $? "DKMS still knows hyperframe: $(dkms status -m hyperframe 2>/dev/null; ls -d /var/lib/dkms/hyperframe 2>/dev/null)"
modprobe -n hyperframe 2>/dev/null
check_fail $? "modprobe still finds hyperframe"
log_test "dpkg -r: every file and the DKMS module are gone"

dpkg -P "${pkgs[@]}" > "$work/purge.log" 2>&1
check_err $? "dpkg -P failed: $(tail -n 5 "$work/purge.log")"
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv 'not-installed'
	check_fail $? "$p is still known to dpkg: $(dpkg-query -W -f='${Status}' "$p")"
done
ls -d /usr/src/hyperframe-* /var/lib/dkms/hyperframe 2>/dev/null | grep -q .
check_fail $? "source or DKMS tree left: $(ls -d /usr/src/hyperframe-* /var/lib/dkms/hyperframe 2>/dev/null)"
log_test "dpkg -P: nothing of hyperframe is left"

exit "$(ktap_exit)"
