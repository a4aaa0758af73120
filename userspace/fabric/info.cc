// fabric/info.cc - the provider's entry point (fi_prov_ini), its
// parameters, fi_getinfo's answer, the fabric object and the event queue
// fi_eq_open gives (the RDM endpoint reports nothing through one).
#include <ifaddrs.h>
#include <poll.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "hyperframe/control.h"
#include "hyperframe/sysfs.h"
#include "provider.h"

#include <net/if.h>
#include <net/if_arp.h>
#include <netpacket/packet.h>

namespace hf::fabric {
namespace {

void cleanup() {}

fi_provider make_provider() noexcept {
  fi_provider prov{};
  prov.version = kProviderVersion;
  prov.fi_version = FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION);
  prov.name = kProviderName;
  prov.getinfo = getinfo;
  prov.fabric = open_fabric;
  prov.cleanup = cleanup;
  return prov;
}

// Frees an fi_info list on scope exit unless released.
struct InfoList {
  fi_info* head = nullptr;
  InfoList() = default;
  InfoList(const InfoList&) = delete;
  InfoList& operator=(const InfoList&) = delete;
  InfoList(InfoList&&) = delete;
  InfoList& operator=(InfoList&&) = delete;
  ~InfoList() {
    if (head != nullptr) {
      fi_freeinfo(head);
    }
  }
  fi_info* release() noexcept { return std::exchange(head, nullptr); }
};

// A string libfabric frees with free().
char* dup_string(std::string_view text) {
  // NOLINTNEXTLINE(cppcoreguidelines-no-malloc,cppcoreguidelines-owning-memory)
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) {
    throw std::bad_alloc();
  }
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
  return copy;
}

// An address of the provider's format (FI_SOCKADDR holding a sockaddr_hf
// of the loaded family), or nullopt.
std::optional<sockaddr_hf> read_address(const void* addr, std::size_t len, int family) noexcept {
  if (addr == nullptr || len < sizeof(sockaddr_hf)) {
    return std::nullopt;
  }
  sockaddr_hf sa{};
  std::memcpy(&sa, addr, sizeof(sa));
  if (sa.shf_family != family || sa.shf_zero[0] != 0 || sa.shf_zero[1] != 0) {
    return std::nullopt;
  }
  return sa;
}

void* dup_address(const sockaddr_hf& sa) {
  // NOLINTNEXTLINE(cppcoreguidelines-no-malloc,cppcoreguidelines-owning-memory)
  void* copy = std::malloc(sizeof(sa));
  if (copy == nullptr) {
    throw std::bad_alloc();
  }
  std::memcpy(copy, &sa, sizeof(sa));
  return copy;
}

constexpr std::uint64_t kMsgOrder = FI_ORDER_SAS | FI_ORDER_RAR | FI_ORDER_RAW | FI_ORDER_RAS |
                                    FI_ORDER_WAR | FI_ORDER_WAW | FI_ORDER_WAS | FI_ORDER_SAR |
                                    FI_ORDER_SAW;
constexpr std::uint64_t kTxOpFlags =
    FI_COMPLETION | FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE;

// Whether `hints` asks for nothing the provider lacks.
bool hints_supported(const fi_info& hints, std::size_t max_msg) {
  if ((hints.caps & ~kCaps) != 0) {
    return false;
  }
  if (hints.addr_format != FI_FORMAT_UNSPEC && hints.addr_format != FI_SOCKADDR) {
    return false;
  }
  if (const fi_ep_attr* ep = hints.ep_attr) {
    if ((ep->type != FI_EP_UNSPEC && ep->type != FI_EP_RDM) || ep->max_msg_size > max_msg ||
        ep->tx_ctx_cnt > 1 || ep->rx_ctx_cnt > 1 || ep->auth_key_size != 0 ||
        ep->protocol != FI_PROTO_UNSPEC) {
      return false;
    }
  }
  if (const fi_domain_attr* dom = hints.domain_attr) {
    if (dom->data_progress == FI_PROGRESS_AUTO || (dom->caps & ~kCaps) != 0 ||
        dom->auth_key_size != 0) {
      return false;
    }
  }
  if (const fi_tx_attr* tx = hints.tx_attr) {
    if ((tx->caps & ~kCaps) != 0 || (tx->msg_order & ~kMsgOrder) != 0 ||
        (tx->op_flags & ~kTxOpFlags) != 0 || tx->inject_size > kInjectSize ||
        tx->iov_limit > kIovLimit || tx->rma_iov_limit > 0) {
      return false;
    }
  }
  if (const fi_rx_attr* rx = hints.rx_attr) {
    if ((rx->caps & ~kCaps) != 0 || (rx->msg_order & ~kMsgOrder) != 0 ||
        (rx->op_flags & ~std::uint64_t{FI_COMPLETION}) != 0 || rx->iov_limit > kIovLimit) {
      return false;
    }
  }
  return true;
}

// One fi_info for `iface`, shaped by `hints` (may be null).
fi_info* make_info(std::uint32_t version, const Interface& iface, const fi_info* hints,
                   std::size_t max_msg) {
  fi_info* info = fi_allocinfo();
  if (info == nullptr) {
    throw std::bad_alloc();
  }
  std::unique_ptr<fi_info, decltype(&fi_freeinfo)> owner(info, fi_freeinfo);
  const std::uint64_t want = hints != nullptr && hints->caps != 0 ? hints->caps : kCaps;
  // Secondary capabilities the endpoint always has, asked for or not.
  info->caps = (want & kCaps) | FI_LOCAL_COMM | FI_REMOTE_COMM;
  info->mode = 0;
  info->addr_format = FI_SOCKADDR;

  fi_tx_attr& tx = *info->tx_attr;
  tx.caps = info->caps & (FI_MSG | FI_TAGGED | FI_SEND);
  tx.op_flags = hints != nullptr && hints->tx_attr != nullptr ? hints->tx_attr->op_flags : 0;
  tx.msg_order = FI_ORDER_SAS |
                 (hints != nullptr && hints->tx_attr != nullptr ? hints->tx_attr->msg_order : 0);
  tx.comp_order = FI_ORDER_NONE;
  tx.inject_size = kInjectSize;
  tx.size = 1024;
  tx.iov_limit = kIovLimit;

  fi_rx_attr& rx = *info->rx_attr;
  rx.caps = info->caps & (FI_MSG | FI_TAGGED | FI_RECV | FI_DIRECTED_RECV | FI_SOURCE);
  rx.op_flags = hints != nullptr && hints->rx_attr != nullptr ? hints->rx_attr->op_flags : 0;
  rx.msg_order = FI_ORDER_SAS |
                 (hints != nullptr && hints->rx_attr != nullptr ? hints->rx_attr->msg_order : 0);
  rx.comp_order = FI_ORDER_NONE;
  rx.total_buffered_recv = 0;
  rx.size = 1024;
  rx.iov_limit = kIovLimit;

  fi_ep_attr& ep = *info->ep_attr;
  ep.type = FI_EP_RDM;
  ep.protocol = FI_PROTO_UNSPEC;
  ep.protocol_version = kWireVersion;
  ep.max_msg_size = max_msg;
  ep.mem_tag_format =
      hints != nullptr && hints->ep_attr != nullptr && hints->ep_attr->mem_tag_format != 0
          ? hints->ep_attr->mem_tag_format
          : ~std::uint64_t{0};  // all 64 bits
  ep.tx_ctx_cnt = 1;
  ep.rx_ctx_cnt = 1;

  fi_domain_attr& dom = *info->domain_attr;
  dom.name = dup_string(iface.name);
  dom.threading = FI_THREAD_SAFE;
  dom.control_progress = FI_PROGRESS_AUTO;
  dom.data_progress = FI_PROGRESS_MANUAL;
  dom.resource_mgmt = FI_RM_ENABLED;
  dom.av_type = hints != nullptr && hints->domain_attr != nullptr ? hints->domain_attr->av_type
                                                                  : FI_AV_UNSPEC;
  if (FI_VERSION_LT(version, FI_VERSION(1, 5))) {
    dom.mr_mode = FI_MR_SCALABLE;
  } else if (hints != nullptr && hints->domain_attr != nullptr) {
    // The legacy modes stay as asked (registration is a no-op either way);
    // no other mode bit is required.
    dom.mr_mode = hints->domain_attr->mr_mode & (FI_MR_BASIC | FI_MR_SCALABLE);
  }
  dom.mr_key_size = sizeof(std::uint64_t);
  dom.cq_data_size = sizeof(std::uint64_t);
  dom.cq_cnt = 1024;
  dom.ep_cnt = 1024;
  dom.tx_ctx_cnt = 1024;
  dom.rx_ctx_cnt = 1024;
  dom.max_ep_tx_ctx = 1;
  dom.max_ep_rx_ctx = 1;
  dom.mr_iov_limit = 1;
  dom.mr_cnt = 1U << 20U;
  dom.caps = FI_REMOTE_COMM;

  fi_fabric_attr& fab = *info->fabric_attr;
  fab.name = dup_string(kFabricName);
  fab.prov_version = kProviderVersion;  // libfabric fills prov_name
  return owner.release();
}

}  // namespace

fi_provider& provider() noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): libfabric keeps it
  static fi_provider prov = make_provider();
  return prov;
}

Settings settings() {
  Settings out;
  char* text = nullptr;
  if (fi_param_get_str(&provider(), "iface", &text) == FI_SUCCESS && text != nullptr) {
    out.iface = text;
  }
  std::size_t value = 0;
  if (fi_param_get_size_t(&provider(), "unexp_bytes", &value) == FI_SUCCESS) {
    out.unexp_bytes = value;
  }
  if (fi_param_get_size_t(&provider(), "unexp_msgs", &value) == FI_SUCCESS && value > 0) {
    out.unexp_msgs = value;
  }
  return out;
}

std::vector<Interface> ethernet_interfaces() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) {
    throw std::system_error(errno, std::generic_category(), "getifaddrs");
  }
  std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> owner(list, ::freeifaddrs);
  std::vector<Interface> out;
  for (const ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
    if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_PACKET ||
        (it->ifa_flags & IFF_UP) == 0 || (it->ifa_flags & IFF_LOOPBACK) != 0) {
      continue;
    }
    sockaddr_ll ll{};
    std::memcpy(&ll, it->ifa_addr, sizeof(ll));
    if (ll.sll_hatype != ARPHRD_ETHER || ll.sll_halen != ETH_ALEN) {
      continue;
    }
    Interface iface;
    iface.name = it->ifa_name;
    iface.ifindex = ll.sll_ifindex;
    std::copy_n(std::begin(ll.sll_addr), ETH_ALEN, iface.mac.begin());
    out.push_back(std::move(iface));
  }
  std::sort(out.begin(), out.end(),
            [](const Interface& a, const Interface& b) { return a.ifindex < b.ifindex; });
  return out;
}

std::optional<Interface> find_interface(std::string_view name) {
  for (Interface& iface : ethernet_interfaces()) {
    if (iface.name == name) {
      return std::move(iface);
    }
  }
  return std::nullopt;
}

std::size_t module_max_msg() noexcept {
  try {
    Control control = Control::open();
    for (const ConfigValue& value : control.config()) {
      if (value.key != nullptr && value.key->attribute == HF_CONFIG_A_MAX_MSG) {
        return static_cast<std::size_t>(value.value);
      }
    }
  } catch (...) {
    // Not readable (no generic netlink family yet): the default.
  }
  return kDefaultMaxMsg;
}

namespace {

// The addresses fi_getinfo was given, and the interface it was pointed at.
struct Wanted {
  std::optional<sockaddr_hf> src;
  std::optional<sockaddr_hf> dest;
  std::string iface;
};

// node and service: with FI_SOURCE an interface and a port to bind,
// otherwise a peer's MAC address and port. False when they do not parse.
bool parse_node_service(const char* node, const char* service, std::uint64_t flags, int family,
                        Wanted& wanted) {
  std::uint16_t port = 0;
  if (service != nullptr) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(service, &end, 10);
    if (*service == '\0' || *end != '\0' || value > 0xffff) {
      return false;
    }
    port = static_cast<std::uint16_t>(value);
  }
  sockaddr_hf sa{};
  sa.shf_family = static_cast<__kernel_sa_family_t>(family);
  sa.shf_port = port;
  if ((flags & FI_SOURCE) != 0) {
    if (node != nullptr) {
      wanted.iface = node;
    }
    wanted.src = sa;
    return true;
  }
  const std::optional<MacAddress> mac = node != nullptr ? parse_mac(node) : std::nullopt;
  if (!mac) {
    return false;
  }
  std::copy(mac->begin(), mac->end(), std::begin(sa.shf_addr));
  wanted.dest = sa;
  return true;
}

// The addresses of `hints` and of node and service; nullopt when one is
// not the provider's.
std::optional<Wanted> wanted_addresses(const char* node, const char* service, std::uint64_t flags,
                                       const fi_info* hints, int family) {
  Wanted wanted;
  if (hints != nullptr && hints->src_addr != nullptr) {
    wanted.src = read_address(hints->src_addr, hints->src_addrlen, family);
    if (!wanted.src) {
      return std::nullopt;
    }
  }
  if (hints != nullptr && hints->dest_addr != nullptr) {
    wanted.dest = read_address(hints->dest_addr, hints->dest_addrlen, family);
    if (!wanted.dest) {
      return std::nullopt;
    }
  }
  if ((node != nullptr || service != nullptr) &&
      !parse_node_service(node, service, flags, family, wanted)) {
    return std::nullopt;
  }
  return wanted;
}

// Whether `iface` is one the caller may get.
bool offered(const Interface& iface, const Settings& config, const Wanted& wanted,
             const fi_info* hints) {
  if ((!config.iface.empty() && iface.name != config.iface) ||
      (!wanted.iface.empty() && iface.name != wanted.iface)) {
    return false;
  }
  if (hints != nullptr && hints->domain_attr != nullptr && hints->domain_attr->name != nullptr &&
      iface.name != hints->domain_attr->name) {
    return false;
  }
  return !wanted.src || wanted.src->shf_ifindex == 0 || wanted.src->shf_ifindex == iface.ifindex;
}

// The fi_info of `iface` with the wanted addresses.
fi_info* info_for(std::uint32_t version, const Interface& iface, const fi_info* hints,
                  std::size_t max_payload, const Wanted& wanted) {
  fi_info* info = make_info(version, iface, hints, max_payload);
  std::unique_ptr<fi_info, decltype(&fi_freeinfo)> owner(info, fi_freeinfo);
  if (wanted.src) {
    sockaddr_hf local = *wanted.src;
    local.shf_ifindex = iface.ifindex;
    std::copy(iface.mac.begin(), iface.mac.end(), std::begin(local.shf_addr));
    info->src_addr = dup_address(local);
    info->src_addrlen = sizeof(local);
  }
  if (wanted.dest) {
    info->dest_addr = dup_address(*wanted.dest);
    info->dest_addrlen = sizeof(*wanted.dest);
  }
  return owner.release();
}

bool wrong_fabric(const fi_info* hints) noexcept {
  return hints != nullptr && hints->fabric_attr != nullptr && hints->fabric_attr->name != nullptr &&
         std::strcmp(hints->fabric_attr->name, kFabricName) != 0;
}

int getinfo_of(std::uint32_t version, const char* node, const char* service, std::uint64_t flags,
               const fi_info* hints, fi_info** info) {
  *info = nullptr;
  int family = 0;
  try {
    family = hf::family();
  } catch (const std::system_error&) {
    return -FI_ENODATA;  // the module is not loaded
  }
  const std::size_t max_msg = module_max_msg();
  if (max_msg <= kHeaderSize) {
    return -FI_ENODATA;
  }
  const std::size_t max_payload = max_msg - kHeaderSize;
  if ((hints != nullptr && !hints_supported(*hints, max_payload)) || wrong_fabric(hints)) {
    return -FI_ENODATA;
  }
  const std::optional<Wanted> wanted = wanted_addresses(node, service, flags, hints, family);
  if (!wanted) {
    return -FI_ENODATA;
  }
  const Settings config = settings();
  InfoList list;
  fi_info* tail = nullptr;
  for (const Interface& iface : ethernet_interfaces()) {
    if (!offered(iface, config, *wanted, hints)) {
      continue;
    }
    fi_info* cur = info_for(version, iface, hints, max_payload, *wanted);
    (tail != nullptr ? tail->next : list.head) = cur;
    tail = cur;
  }
  if (list.head == nullptr) {
    return -FI_ENODATA;
  }
  *info = list.release();
  return 0;
}

}  // namespace

int getinfo(std::uint32_t version, const char* node, const char* service, std::uint64_t flags,
            const fi_info* hints, fi_info** info) {
  return guarded([&]() -> int { return getinfo_of(version, node, service, flags, hints, info); });
}

// --- the "not supported" entries -------------------------------------------

int no_bind(struct fid* /*fid*/, struct fid* /*bfid*/, std::uint64_t /*flags*/) {
  return -FI_ENOSYS;
}
int no_control(struct fid* /*fid*/, int /*command*/, void* /*arg*/) {
  return -FI_ENOSYS;
}
int no_ops_open(struct fid* /*fid*/, const char* /*name*/, std::uint64_t /*flags*/, void** /*ops*/,
                void* /*context*/) {
  return -FI_ENOSYS;
}
int no_tostr(const struct fid* /*fid*/, char* /*buf*/, std::size_t /*len*/) {
  return -FI_ENOSYS;
}
int no_ops_set(struct fid* /*fid*/, const char* /*name*/, std::uint64_t /*flags*/, void* /*ops*/,
               void* /*context*/) {
  return -FI_ENOSYS;
}

const char* error_text(int prov_errno, char* buf, std::size_t len) {
  const char* text = fi_strerror(prov_errno);
  if (buf != nullptr && len > 0) {
    std::strncpy(buf, text, len - 1);
    buf[len - 1] = '\0';  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    return buf;
  }
  return text;
}

// --- fabric ------------------------------------------------------------------

namespace {

int fabric_close(struct fid* f) {
  auto* fabric = self_of_fid<Fabric, fid_fabric>(f);
  if (fabric->refs().load() != 0) {
    return -FI_EBUSY;
  }
  delete fabric;  // NOLINT(cppcoreguidelines-owning-memory): made by open_fabric
  return 0;
}

int eq_open(fid_fabric* fabric, fi_eq_attr* attr, fid_eq** eq, void* context);

int fabric_domain2(fid_fabric* fabric, fi_info* info, fid_domain** domain, std::uint64_t flags,
                   void* context) {
  return flags != 0 ? -FI_EINVAL : open_domain(fabric, info, domain, context);
}

int fabric_passive_ep(fid_fabric* /*fabric*/, fi_info* /*info*/, fid_pep** /*pep*/,
                      void* /*context*/) {
  return -FI_ENOSYS;
}

int fabric_wait_open(fid_fabric* /*fabric*/, fi_wait_attr* /*attr*/, fid_wait** /*waitset*/) {
  return -FI_ENOSYS;
}

// fi_trywait: -FI_EAGAIN when a completion queue has something to read.
int fabric_trywait(fid_fabric* /*fabric*/, struct fid** fids, int count) {
  return guarded([&]() -> int {
    for (int i = 0; i < count; ++i) {
      // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
      struct fid* f = fids[i];
      if (f->fclass == FI_CLASS_CQ) {
        if (self_of_fid<CompletionQueue, fid_cq>(f)->ready()) {
          return -FI_EAGAIN;
        }
      } else if (f->fclass != FI_CLASS_EQ) {
        return -FI_EINVAL;
      }
    }
    return 0;
  });
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_fabric_fi_ops = {sizeof(fi_ops), fabric_close, no_bind,   no_control,
                          no_ops_open,    no_tostr,     no_ops_set};
fi_ops_fabric g_fabric_ops = {sizeof(fi_ops_fabric), open_domain,    fabric_passive_ep, eq_open,
                              fabric_wait_open,      fabric_trywait, fabric_domain2};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

// --- event queue: nothing is ever reported on it -------------------------------

int eq_close(struct fid* f) {
  auto* eq = self_of_fid<EventQueue, fid_eq>(f);
  eq->fabric().refs().fetch_sub(1);
  delete eq;  // NOLINT(cppcoreguidelines-owning-memory): made by eq_open
  return 0;
}

ssize_t eq_read(fid_eq* /*eq*/, std::uint32_t* /*event*/, void* /*buf*/, std::size_t /*len*/,
                std::uint64_t /*flags*/) {
  return -FI_EAGAIN;
}
ssize_t eq_readerr(fid_eq* /*eq*/, fi_eq_err_entry* /*buf*/, std::uint64_t /*flags*/) {
  return -FI_EAGAIN;
}
ssize_t eq_write(fid_eq* /*eq*/, std::uint32_t /*event*/, const void* /*buf*/, std::size_t /*len*/,
                 std::uint64_t /*flags*/) {
  return -FI_ENOSYS;
}
ssize_t eq_sread(fid_eq* /*eq*/, std::uint32_t* /*event*/, void* /*buf*/, std::size_t /*len*/,
                 int timeout, std::uint64_t /*flags*/) {
  if (timeout > 0) {
    ::poll(nullptr, 0, timeout);
  }
  return -FI_EAGAIN;
}
const char* eq_strerror(fid_eq* /*eq*/, int prov_errno, const void* /*err_data*/, char* buf,
                        std::size_t len) {
  return error_text(prov_errno, buf, len);
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_eq_fi_ops = {sizeof(fi_ops), eq_close, no_bind,   no_control,
                      no_ops_open,    no_tostr, no_ops_set};
fi_ops_eq g_eq_ops = {sizeof(fi_ops_eq), eq_read, eq_readerr, eq_write, eq_sread, eq_strerror};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

int eq_open(fid_fabric* fabric, fi_eq_attr* attr, fid_eq** eq, void* context) {
  return guarded([&]() -> int {
    if (attr != nullptr && attr->wait_obj != FI_WAIT_NONE && attr->wait_obj != FI_WAIT_UNSPEC) {
      return -FI_ENOSYS;
    }
    auto* self = self_of<Fabric>(fabric);
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): eq_close deletes it
    auto* queue = new EventQueue(*self, context);
    self->refs().fetch_add(1);
    *eq = queue->fid();
    return 0;
  });
}

}  // namespace

Fabric::Fabric(std::uint32_t api_version, void* context) {
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_FABRIC;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_fabric_fi_ops;
  handle_.fid.ops = &g_fabric_ops;
  handle_.fid.api_version = api_version;
}

EventQueue::EventQueue(Fabric& fabric, void* context) : fabric_(&fabric) {
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_EQ;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_eq_fi_ops;
  handle_.fid.ops = &g_eq_ops;
}

int open_fabric(fi_fabric_attr* attr, fid_fabric** fabric, void* context) {
  return guarded([&]() -> int {
    if (attr == nullptr || attr->name == nullptr || std::strcmp(attr->name, kFabricName) != 0) {
      return -FI_EINVAL;
    }
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): fabric_close deletes it
    auto* self = new Fabric(attr->api_version, context);
    *fabric = self->fid();
    return 0;
  });
}

}  // namespace hf::fabric

// The provider's entry point: libfabric dlopen()s libhf-fi.so and calls it.
extern "C" FI_EXT_INI {
  fi_provider& prov = hf::fabric::provider();
  fi_param_define(&prov, "iface", FI_PARAM_STRING,
                  "Interface to use (default: every up Ethernet interface, one domain each)");
  fi_param_define(&prov, "unexp_bytes", FI_PARAM_SIZE_T,
                  "Payload bytes of unexpected messages buffered per endpoint (default 64 MiB; "
                  "one message of any size is always taken)");
  fi_param_define(&prov, "unexp_msgs", FI_PARAM_SIZE_T,
                  "Unexpected messages buffered per endpoint (default 4096)");
  return &prov;
}
