// hyperframe/qdisc.h - putting hfq, the qdisc the module registers, at the
// root of a device and taking it away, over rtnetlink (libnl-route-3), as
// tc(8) does. Its settings and state are read and written through the
// generic netlink family: hf::Control::qdisc(), qdiscs(), set_qdisc().
#pragma once

#include <string_view>

namespace hf {

// The kind the module registers its qdisc as.
inline constexpr std::string_view kHfqKind = "hfq";

// "tc qdisc replace dev DEV root hfq", without options (hfq takes its
// settings from set_qdisc()): creates hfq at the root of device `ifindex`
// with its defaults, replacing any other root qdisc; a root hfq is kept as
// it is. Throws std::system_error (errc::address_family_not_supported,
// "load hyperframe.ko first") when the kernel knows no qdisc "hfq";
// ControlError for any other refusal (ENODEV, EPERM without CAP_NET_ADMIN
// over the namespace, the extended ack's message).
void attach_hfq(int ifindex);

// "tc qdisc delete dev DEV root hfq": deletes the root qdisc of device
// `ifindex` if it is hfq, which the kernel checks, so another qdisc is never
// deleted. Throws ControlError: ENOENT when the root qdisc is not hfq
// (with the kernel's message), ENODEV, EPERM as attach_hfq().
void detach_hfq(int ifindex);

}  // namespace hf
