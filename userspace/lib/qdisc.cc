// lib/qdisc.cc - the hfq qdisc: the table of its settings, its generic
// netlink commands (hf::Control::qdisc(), qdiscs(), set_qdisc()) and
// attaching and detaching it over rtnetlink with libnl-route-3 (qdisc.h).
#include "hyperframe/qdisc.h"

#include <linux/hyperframe.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <limits>
#include <memory>
#include <string>
#include <system_error>

#include "attribute.h"
#include "hyperframe/control.h"
#include "netlink.h"

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/tc.h>

namespace hf {
namespace {

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

// clang-format off
constexpr std::array kQdiscParams{
    QdiscParam{"rate", "rate", HF_QDISC_A_RATE, Unit::bytes_per_s, kU64Max, &QdiscConfig::rate,
               "rate the whole device is paced to; 0: unpaced"},
    QdiscParam{"limit", "limit", HF_QDISC_A_LIMIT, Unit::packets, kU32Max, &QdiscConfig::limit,
               "packets queued in all bands"},
    QdiscParam{"flow_limit", "flow_limit", HF_QDISC_A_FLOW_LIMIT, Unit::packets, kU32Max,
               &QdiscConfig::flow_limit, "packets queued per data flow"},
    QdiscParam{"control_limit", "control_limit", HF_QDISC_A_CONTROL_LIMIT, Unit::packets, kU32Max,
               &QdiscConfig::control_limit, "packets queued in the control band"},
    QdiscParam{"quantum", "quantum", HF_QDISC_A_QUANTUM, Unit::bytes, kU32Max,
               &QdiscConfig::quantum, "bytes a data flow sends per round"},
    QdiscParam{"other_share", "other_share", HF_QDISC_A_OTHER_SHARE, Unit::percent, kU32Max,
               &QdiscConfig::other_share, "share of the link owed to traffic other than hyperframe"},
    QdiscParam{"horizon", "horizon_ms", HF_QDISC_A_HORIZON_MS, Unit::msecs, kU32Max,
               &QdiscConfig::horizon_ms, "data due to leave further ahead than this is dropped"},
    QdiscParam{"memory_limit", "memory_limit", HF_QDISC_A_MEMORY_LIMIT, Unit::bytes, kU32Max,
               &QdiscConfig::memory_limit, "bytes (skb truesize) queued in all bands"},
};
// clang-format on

// One hfq reply (HF_QDISC_A_*) as a QdiscInfo.
QdiscInfo parse_qdisc(nlmsghdr* nlh, const std::string& context) {
  std::vector<nlattr*> v = detail::parse_reply(nlh, HF_QDISC_A_MAX, context);
  nlattr** tb = v.data();
  QdiscInfo info{.ifindex = static_cast<int>(detail::get_u32(tb, HF_QDISC_A_IFINDEX)),
                 .handle = detail::get_u32(tb, HF_QDISC_A_HANDLE),
                 .config = {},
                 .flows = detail::get_u32(tb, HF_QDISC_A_FLOWS),
                 .qlen_control = detail::get_u32(tb, HF_QDISC_A_QLEN_CONTROL),
                 .qlen_data = detail::get_u32(tb, HF_QDISC_A_QLEN_DATA),
                 .qlen_other = detail::get_u32(tb, HF_QDISC_A_QLEN_OTHER),
                 .backlog = detail::get_u32(tb, HF_QDISC_A_BACKLOG),
                 .memory = detail::get_u32(tb, HF_QDISC_A_MEMORY),
                 .counters = detail::parse_counters(nlh, HF_QDISC_A_COUNTER, context)};
  for (const QdiscParam& param : kQdiscParams) {
    if (nlattr* nla = v.at(static_cast<std::size_t>(param.attribute)); nla != nullptr) {
      info.config.*param.member = detail::get_uint(nla, param.json_name, context);
    }
  }
  return info;
}

void put_ifindex(nl_msg* msg, int ifindex, const std::string& context) {
  if (nla_put_u32(msg, HF_QDISC_A_IFINDEX, static_cast<std::uint32_t>(ifindex)) < 0) {
    detail::throw_errno(ENOMEM, context);
  }
}

void put_qdisc_request(rtnl_qdisc* qdisc) noexcept {
  rtnl_qdisc_put(qdisc);
}
using QdiscPtr = std::unique_ptr<rtnl_qdisc, decltype(&put_qdisc_request)>;

// The root qdisc of `ifindex`, of kind hfq, as libnl-route builds requests from.
QdiscPtr root_hfq(int ifindex, const std::string& context) {
  QdiscPtr qdisc(rtnl_qdisc_alloc(), &put_qdisc_request);
  if (!qdisc) {
    detail::throw_errno(ENOMEM, context);
  }
  // TC_CAST: an rtnl_qdisc starts with the rtnl_tc every tc object shares.
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  auto* tc = reinterpret_cast<rtnl_tc*>(qdisc.get());
  rtnl_tc_set_ifindex(tc, ifindex);
  rtnl_tc_set_parent(tc, TC_H_ROOT);
  const int err = rtnl_tc_set_kind(tc, std::string(kHfqKind).c_str());
  if (err < 0) {
    detail::throw_errno(detail::nl_to_errno(err), context);
  }
  return qdisc;
}

// Sends an rtnetlink request libnl-route built, with NLM_F_ACK.
void rtnl_request(nl_msg* raw, int built, const std::string& context) {
  const detail::MsgPtr msg(raw, &detail::free_msg);
  if (built < 0) {
    detail::throw_errno(detail::nl_to_errno(built), context);
  }
  nlmsg_hdr(msg.get())->nlmsg_flags |= NLM_F_ACK;
  const detail::SockPtr sock = detail::open_socket(NETLINK_ROUTE);
  detail::exchange(
      sock.get(), msg.get(), sizeof(tcmsg), [](nlmsghdr* /*nlh*/) {}, context);
}

}  // namespace

std::span<const QdiscParam> qdisc_params() noexcept {
  return kQdiscParams;
}

const QdiscParam* find_qdisc_param(std::string_view name) noexcept {
  const auto* found = std::find_if(
      kQdiscParams.begin(), kQdiscParams.end(),
      [name](const QdiscParam& param) { return param.name == name || param.json_name == name; });
  return found == kQdiscParams.end() ? nullptr : &*found;
}

QdiscInfo Control::qdisc(int ifindex) {
  const std::string context = "reading the hfq qdisc";
  std::optional<QdiscInfo> info;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_QDISC_GET, false,
      [ifindex, &context](nl_msg* msg) { put_ifindex(msg, ifindex, context); },
      [&info, &context](nlmsghdr* nlh) { info = parse_qdisc(nlh, context); }, context);
  if (!info) {
    detail::throw_errno(EPROTO, context + ": no reply");
  }
  return *info;
}

std::vector<QdiscInfo> Control::qdiscs() {
  const std::string context = "listing the hfq qdiscs";
  std::vector<QdiscInfo> qdiscs;
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_QDISC_GET, true, nullptr,
      [&qdiscs, &context](nlmsghdr* nlh) { qdiscs.push_back(parse_qdisc(nlh, context)); }, context);
  std::stable_sort(qdiscs.begin(), qdiscs.end(),
                   [](const QdiscInfo& a, const QdiscInfo& b) { return a.ifindex < b.ifindex; });
  return qdiscs;
}

void Control::set_qdisc(int ifindex, const QdiscConfig& changes) {
  const std::string context = "changing the hfq qdisc";
  for (const QdiscParam& param : kQdiscParams) {
    if (const auto& value = changes.*param.member; value && *value > param.max) {
      throw std::system_error(
          std::make_error_code(std::errc::result_out_of_range),
          context + ": " + std::string(param.name) + " above " + std::to_string(param.max));
    }
  }
  detail::genl_transact(
      sock_.get(), family_, HF_CMD_QDISC_SET, false,
      [ifindex, &changes, &context](nl_msg* msg) {
        put_ifindex(msg, ifindex, context);
        for (const QdiscParam& param : kQdiscParams) {
          const std::optional<std::uint64_t>& value = changes.*param.member;
          if (!value) {
            continue;
          }
          const int err = param.max > kU32Max ? nla_put_u64(msg, param.attribute, *value)
                                              : nla_put_u32(msg, param.attribute,
                                                            static_cast<std::uint32_t>(*value));
          if (err < 0) {
            detail::throw_errno(ENOMEM, context);
          }
        }
      },
      [](nlmsghdr* /*nlh*/) {}, context);
}

void attach_hfq(int ifindex) {
  const std::string context = "attaching hfq";
  const QdiscPtr qdisc = root_hfq(ifindex, context);
  nl_msg* msg = nullptr;
  const int built =
      rtnl_qdisc_build_add_request(qdisc.get(), NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK, &msg);
  try {
    rtnl_request(msg, built, context);
  } catch (const ControlError& error) {
    // What the kernel says of a kind no module registered.
    if (error.code().value() == ENOENT) {
      detail::throw_not_loaded();
    }
    throw;
  }
}

void detach_hfq(int ifindex) {
  const std::string context = "detaching hfq";
  const QdiscPtr qdisc = root_hfq(ifindex, context);
  nl_msg* msg = nullptr;
  const int built = rtnl_qdisc_build_delete_request(qdisc.get(), &msg);
  try {
    rtnl_request(msg, built, context);
  } catch (const ControlError& error) {
    // The kernel refuses a kind that is not the root qdisc's as invalid.
    if (error.code().value() == EINVAL) {
      throw ControlError(std::make_error_code(std::errc::no_such_file_or_directory), context,
                         error.extack(), error.attribute(), error.range());
    }
    throw;
  }
}

}  // namespace hf
