// fabric/domain.cc - the domain (one Ethernet interface of the namespace),
// its address vectors, memory regions and completion queues.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "hyperframe/sysfs.h"
#include "provider.h"

namespace hf::fabric {
namespace {

// --- address vector ------------------------------------------------------------

int av_close(struct fid* f) {
  auto* av = self_of_fid<AddressVector, fid_av>(f);
  if (av->refs().load() != 0) {
    return -FI_EBUSY;
  }
  av->domain().refs().fetch_sub(1);
  delete av;  // NOLINT(cppcoreguidelines-owning-memory): made by av_open
  return 0;
}

int av_insert(fid_av* av, const void* addr, std::size_t count, fi_addr_t* fi_addr,
              std::uint64_t flags, void* context) {
  return guarded([&]() -> int {
    auto* self = self_of<AddressVector>(av);
    const std::lock_guard lock(self->domain().mutex());
    return self->insert(addr, count, fi_addr, flags, context);
  });
}

int av_insertsvc(fid_av* av, const char* node, const char* service, fi_addr_t* fi_addr,
                 std::uint64_t flags, void* /*context*/) {
  return guarded([&]() -> int {
    if (node == nullptr || service == nullptr || flags != 0) {
      return -FI_EINVAL;
    }
    const std::optional<MacAddress> mac = parse_mac(node);
    char* end = nullptr;
    const unsigned long port = std::strtoul(service, &end, 10);
    if (!mac || *service == '\0' || *end != '\0' || port == 0 || port > 0xffff) {
      return -FI_EINVAL;
    }
    auto* self = self_of<AddressVector>(av);
    const std::lock_guard lock(self->domain().mutex());
    const int ret = self->insert_one(Peer{*mac, static_cast<std::uint16_t>(port)}, fi_addr);
    return ret == 0 ? 1 : ret;
  });
}

int av_insertsym(fid_av* /*av*/, const char* /*node*/, std::size_t /*nodecnt*/,
                 const char* /*service*/, std::size_t /*svccnt*/, fi_addr_t* /*fi_addr*/,
                 std::uint64_t /*flags*/, void* /*context*/) {
  return -FI_ENOSYS;
}

int av_remove(fid_av* av, fi_addr_t* fi_addr, std::size_t count, std::uint64_t /*flags*/) {
  return guarded([&]() -> int {
    auto* self = self_of<AddressVector>(av);
    const std::lock_guard lock(self->domain().mutex());
    return self->remove(fi_addr, count);
  });
}

int av_lookup(fid_av* av, fi_addr_t fi_addr, void* addr, std::size_t* addrlen) {
  return guarded([&]() -> int {
    auto* self = self_of<AddressVector>(av);
    const std::lock_guard lock(self->domain().mutex());
    const std::optional<Peer> peer = self->lookup(fi_addr);
    if (!peer) {
      return -FI_ENOENT;
    }
    const Address address{
        .ifindex = self->domain().iface().ifindex, .mac = peer->mac, .port = peer->port};
    const sockaddr_hf sa = address.to_sockaddr(self->domain().family());
    std::memcpy(addr, &sa, std::min(*addrlen, sizeof(sa)));
    *addrlen = sizeof(sa);
    return 0;
  });
}

const char* av_straddr(fid_av* /*av*/, const void* addr, char* buf, std::size_t* len) {
  try {
    sockaddr_hf sa{};
    std::memcpy(&sa, addr, sizeof(sa));
    const std::string text = "fi_addr_hf://" + to_string(Address::from_sockaddr(sa));
    if (buf != nullptr && *len > 0) {
      const std::size_t n = std::min(*len - 1, text.size());
      std::memcpy(buf, text.data(), n);
      buf[n] = '\0';  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    }
    *len = text.size() + 1;
    return buf;
  } catch (...) {
    return nullptr;
  }
}

int av_set(fid_av* /*av*/, fi_av_set_attr* /*attr*/, fid_av_set** /*av_set*/, void* /*context*/) {
  return -FI_ENOSYS;
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_av_fi_ops = {sizeof(fi_ops), av_close, no_bind,   no_control,
                      no_ops_open,    no_tostr, no_ops_set};
fi_ops_av g_av_ops = {sizeof(fi_ops_av), av_insert, av_insertsvc, av_insertsym,
                      av_remove,         av_lookup, av_straddr,   av_set};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

int av_open(fid_domain* domain, fi_av_attr* attr, fid_av** av, void* context) {
  return guarded([&]() -> int {
    if (attr == nullptr) {
      return -FI_EINVAL;
    }
    if (attr->name != nullptr || (attr->flags & (FI_READ | FI_EVENT)) != 0 ||
        attr->rx_ctx_bits != 0) {
      return -FI_ENOSYS;
    }
    if (attr->type != FI_AV_UNSPEC && attr->type != FI_AV_MAP && attr->type != FI_AV_TABLE) {
      return -FI_EINVAL;
    }
    auto* self = self_of<Domain>(domain);
    auto* vector = new AddressVector(*self, attr->type, context);  // NOLINT
    self->refs().fetch_add(1);
    *av = vector->fid();
    return 0;
  });
}

// --- memory regions: registration is a no-op, keys are the caller's -----------

int mr_close(struct fid* f) {
  auto* mr = self_of_fid<MemoryRegion, fid_mr>(f);
  mr->domain().refs().fetch_sub(1);
  delete mr;  // NOLINT(cppcoreguidelines-owning-memory): made by mr_reg
  return 0;
}

int mr_bind(struct fid* /*fid*/, struct fid* /*bfid*/, std::uint64_t /*flags*/) {
  return 0;
}

int mr_control(struct fid* /*fid*/, int command, void* /*arg*/) {
  return command == FI_ENABLE ? 0 : -FI_ENOSYS;
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_mr_fi_ops = {sizeof(fi_ops), mr_close, mr_bind,   mr_control,
                      no_ops_open,    no_tostr, no_ops_set};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

int mr_reg(struct fid* f, const void* /*buf*/, std::size_t /*len*/, std::uint64_t /*access*/,
           std::uint64_t /*offset*/, std::uint64_t requested_key, std::uint64_t /*flags*/,
           fid_mr** mr, void* context) {
  return guarded([&]() -> int {
    if (f->fclass != FI_CLASS_DOMAIN) {
      return -FI_EINVAL;
    }
    auto* domain = self_of_fid<Domain, fid_domain>(f);
    auto* region = new MemoryRegion(*domain, requested_key, context);  // NOLINT
    domain->refs().fetch_add(1);
    *mr = region->fid();
    return 0;
  });
}

int mr_regv(struct fid* f, const iovec* iov, std::size_t count, std::uint64_t access,
            std::uint64_t offset, std::uint64_t requested_key, std::uint64_t flags, fid_mr** mr,
            void* context) {
  if (count > 1) {
    return -FI_EINVAL;
  }
  return mr_reg(f, count == 1 ? iov->iov_base : nullptr, count == 1 ? iov->iov_len : 0, access,
                offset, requested_key, flags, mr, context);
}

int mr_regattr(struct fid* f, const fi_mr_attr* attr, std::uint64_t flags, fid_mr** mr) {
  if (attr == nullptr) {
    return -FI_EINVAL;
  }
  return mr_regv(f, attr->mr_iov, attr->iov_count, attr->access, attr->offset, attr->requested_key,
                 flags, mr, attr->context);
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops_mr g_mr_ops = {sizeof(fi_ops_mr), mr_reg, mr_regv, mr_regattr};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

// --- completion queue ---------------------------------------------------------

int cq_close(struct fid* f) {
  auto* cq = self_of_fid<CompletionQueue, fid_cq>(f);
  {
    const std::lock_guard lock(cq->domain().mutex());
    if (cq->has_endpoints()) {
      return -FI_EBUSY;
    }
  }
  cq->domain().refs().fetch_sub(1);
  delete cq;  // NOLINT(cppcoreguidelines-owning-memory): made by cq_open
  return 0;
}

int cq_control(struct fid* f, int command, void* arg) {
  auto* cq = self_of_fid<CompletionQueue, fid_cq>(f);
  if (command == FI_GETWAIT && arg != nullptr) {
    *static_cast<int*>(arg) = cq->wait_fd();
    return 0;
  }
  return -FI_ENOSYS;
}

ssize_t cq_read(fid_cq* cq, void* buf, std::size_t count) {
  return guarded(
      [&]() -> ssize_t { return self_of<CompletionQueue>(cq)->read(buf, count, nullptr); });
}

ssize_t cq_readfrom(fid_cq* cq, void* buf, std::size_t count, fi_addr_t* src) {
  return guarded([&]() -> ssize_t { return self_of<CompletionQueue>(cq)->read(buf, count, src); });
}

ssize_t cq_readerr(fid_cq* cq, fi_cq_err_entry* buf, std::uint64_t /*flags*/) {
  return guarded([&]() -> ssize_t { return self_of<CompletionQueue>(cq)->readerr(buf); });
}

ssize_t cq_sread(fid_cq* cq, void* buf, std::size_t count, const void* /*cond*/, int timeout) {
  return guarded([&]() -> ssize_t {
    return self_of<CompletionQueue>(cq)->sread(buf, count, nullptr, timeout);
  });
}

ssize_t cq_sreadfrom(fid_cq* cq, void* buf, std::size_t count, fi_addr_t* src, const void* /*cond*/,
                     int timeout) {
  return guarded(
      [&]() -> ssize_t { return self_of<CompletionQueue>(cq)->sread(buf, count, src, timeout); });
}

int cq_signal(fid_cq* cq) {
  return self_of<CompletionQueue>(cq)->signal();
}

const char* cq_strerror(fid_cq* /*cq*/, int prov_errno, const void* /*err_data*/, char* buf,
                        std::size_t len) {
  return error_text(prov_errno, buf, len);
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_cq_fi_ops = {sizeof(fi_ops), cq_close, no_bind,   cq_control,
                      no_ops_open,    no_tostr, no_ops_set};
fi_ops_cq g_cq_ops = {sizeof(fi_ops_cq), cq_read,      cq_readfrom, cq_readerr,
                      cq_sread,          cq_sreadfrom, cq_signal,   cq_strerror};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

int cq_open(fid_domain* domain, fi_cq_attr* attr, fid_cq** cq, void* context) {
  return guarded([&]() -> int {
    if (attr == nullptr) {
      return -FI_EINVAL;
    }
    switch (attr->format) {
      case FI_CQ_FORMAT_UNSPEC:
      case FI_CQ_FORMAT_CONTEXT:
      case FI_CQ_FORMAT_MSG:
      case FI_CQ_FORMAT_DATA:
      case FI_CQ_FORMAT_TAGGED:
        break;
      default:
        return -FI_ENOSYS;
    }
    switch (attr->wait_obj) {
      case FI_WAIT_NONE:
      case FI_WAIT_UNSPEC:
      case FI_WAIT_FD:
      case FI_WAIT_YIELD:
        break;
      default:
        return -FI_ENOSYS;
    }
    if (attr->wait_cond != FI_CQ_COND_NONE || (attr->flags & FI_AFFINITY) != 0) {
      return -FI_ENOSYS;
    }
    auto* self = self_of<Domain>(domain);
    auto* queue = new CompletionQueue(*self, *attr, context);  // NOLINT
    self->refs().fetch_add(1);
    *cq = queue->fid();
    return 0;
  });
}

// --- domain ---------------------------------------------------------------------

int domain_close(struct fid* f) {
  auto* domain = self_of_fid<Domain, fid_domain>(f);
  if (domain->refs().load() != 0) {
    return -FI_EBUSY;
  }
  domain->fabric().refs().fetch_sub(1);
  delete domain;  // NOLINT(cppcoreguidelines-owning-memory): made by open_domain
  return 0;
}

int domain_scalable_ep(fid_domain* /*domain*/, fi_info* /*info*/, fid_ep** /*sep*/,
                       void* /*context*/) {
  return -FI_ENOSYS;
}
int domain_cntr_open(fid_domain* /*domain*/, fi_cntr_attr* /*attr*/, fid_cntr** /*cntr*/,
                     void* /*context*/) {
  return -FI_ENOSYS;
}
int domain_poll_open(fid_domain* /*domain*/, fi_poll_attr* /*attr*/, fid_poll** /*pollset*/) {
  return -FI_ENOSYS;
}
int domain_stx_ctx(fid_domain* /*domain*/, fi_tx_attr* /*attr*/, fid_stx** /*stx*/,
                   void* /*context*/) {
  return -FI_ENOSYS;
}
int domain_srx_ctx(fid_domain* /*domain*/, fi_rx_attr* /*attr*/, fid_ep** /*rx_ep*/,
                   void* /*context*/) {
  return -FI_ENOSYS;
}
int domain_query_atomic(fid_domain* /*domain*/, fi_datatype /*datatype*/, fi_op /*op*/,
                        fi_atomic_attr* /*attr*/, std::uint64_t /*flags*/) {
  return -FI_ENOSYS;
}
int domain_query_collective(fid_domain* /*domain*/, fi_collective_op /*coll*/,
                            fi_collective_attr* /*attr*/, std::uint64_t /*flags*/) {
  return -FI_ENOSYS;
}
int domain_endpoint2(fid_domain* domain, fi_info* info, fid_ep** ep, std::uint64_t flags,
                     void* context) {
  return flags != 0 ? -FI_EINVAL : open_endpoint(domain, info, ep, context);
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_domain_fi_ops = {sizeof(fi_ops), domain_close, no_bind,   no_control,
                          no_ops_open,    no_tostr,     no_ops_set};
fi_ops_domain g_domain_ops = {
    sizeof(fi_ops_domain),   av_open,          cq_open,        open_endpoint,  domain_scalable_ep,
    domain_cntr_open,        domain_poll_open, domain_stx_ctx, domain_srx_ctx, domain_query_atomic,
    domain_query_collective, domain_endpoint2};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

std::size_t entry_size(fi_cq_format format) noexcept {
  switch (format) {
    case FI_CQ_FORMAT_MSG:
      return sizeof(fi_cq_msg_entry);
    case FI_CQ_FORMAT_DATA:
      return sizeof(fi_cq_data_entry);
    case FI_CQ_FORMAT_TAGGED:
      return sizeof(fi_cq_tagged_entry);
    default:
      return sizeof(fi_cq_entry);
  }
}

}  // namespace

void Domain::remove_local(const Endpoint* ep) noexcept {
  std::erase_if(local_, [ep](const auto& entry) { return entry.second == ep; });
}

Endpoint* Domain::local(std::uint16_t port) const noexcept {
  const auto found = local_.find(port);
  return found != local_.end() ? found->second : nullptr;
}

Domain::Domain(Fabric& fabric, Interface iface, int family, std::size_t max_msg, std::uint32_t api,
               void* context)
    : fabric_(&fabric),
      iface_(std::move(iface)),
      family_(family),
      max_msg_(max_msg),
      api_(api),
      settings_(hf::fabric::settings()) {
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_DOMAIN;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_domain_fi_ops;
  handle_.fid.ops = &g_domain_ops;
  handle_.fid.mr = &g_mr_ops;
}

int open_domain(fid_fabric* fabric, fi_info* info, fid_domain** domain, void* context) {
  return guarded([&]() -> int {
    if (info == nullptr || info->domain_attr == nullptr || info->domain_attr->name == nullptr) {
      return -FI_EINVAL;
    }
    std::optional<Interface> iface = find_interface(info->domain_attr->name);
    if (!iface) {
      return -FI_ENODEV;
    }
    auto* owner = self_of<Fabric>(fabric);
    const int family = hf::family();
    const std::size_t max_msg = module_max_msg();
    auto* self = new Domain(*owner, std::move(*iface), family,  // NOLINT
                            max_msg > kHeaderSize ? max_msg - kHeaderSize : 0, owner->api_version(),
                            context);
    owner->refs().fetch_add(1);
    *domain = self->fid();
    return 0;
  });
}

AddressVector::AddressVector(Domain& domain, fi_av_type /*type*/, void* context)
    : domain_(&domain) {
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_AV;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_av_fi_ops;
  handle_.fid.ops = &g_av_ops;
}

int AddressVector::insert_one(const Peer& peer, fi_addr_t* fi_addr) {
  const bool unicast =
      (peer.mac[0] & 1U) == 0 &&
      std::any_of(peer.mac.begin(), peer.mac.end(), [](std::uint8_t byte) { return byte != 0; });
  if (!unicast || peer.port == 0) {
    if (fi_addr != nullptr) {
      *fi_addr = FI_ADDR_NOTAVAIL;
    }
    return -FI_EINVAL;
  }
  const auto index = static_cast<fi_addr_t>(table_.size());
  table_.emplace_back(peer);
  by_source_.try_emplace(source_key(peer.mac, peer.port), index);
  if (fi_addr != nullptr) {
    *fi_addr = index;
  }
  return 0;
}

int AddressVector::insert(const void* addr, std::size_t count, fi_addr_t* fi_addr,
                          std::uint64_t flags, void* context) {
  if (addr == nullptr && count > 0) {
    return -FI_EINVAL;
  }
  int inserted = 0;
  for (std::size_t i = 0; i < count; ++i) {
    sockaddr_hf sa{};
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    std::memcpy(&sa, static_cast<const std::byte*>(addr) + i * sizeof(sa), sizeof(sa));
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    fi_addr_t* out = fi_addr != nullptr ? fi_addr + i : nullptr;
    int ret = -FI_EINVAL;
    if (sa.shf_family == domain_->family() && sa.shf_zero[0] == 0 && sa.shf_zero[1] == 0) {
      const Address address = Address::from_sockaddr(sa);
      ret = insert_one(Peer{address.mac, address.port}, out);
    } else if (out != nullptr) {
      *out = FI_ADDR_NOTAVAIL;
    }
    if ((flags & FI_SYNC_ERR) != 0 && context != nullptr) {
      // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
      static_cast<int*>(context)[i] = -ret;
    }
    if (ret == 0) {
      ++inserted;
    }
  }
  return inserted;
}

int AddressVector::remove(const fi_addr_t* fi_addr, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const fi_addr_t at = fi_addr[i];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    if (at >= table_.size() || !table_[at]) {
      return -FI_EINVAL;
    }
    const auto found = by_source_.find(source_key(table_[at]->mac, table_[at]->port));
    if (found != by_source_.end() && found->second == at) {
      by_source_.erase(found);
    }
    table_[at].reset();
  }
  return 0;
}

std::optional<Peer> AddressVector::lookup(fi_addr_t fi_addr) const noexcept {
  if (fi_addr >= table_.size()) {
    return std::nullopt;
  }
  return table_[fi_addr];
}

fi_addr_t AddressVector::reverse(SourceKey key) const noexcept {
  const auto found = by_source_.find(key);
  return found == by_source_.end() ? FI_ADDR_NOTAVAIL : found->second;
}

MemoryRegion::MemoryRegion(Domain& domain, std::uint64_t key, void* context) : domain_(&domain) {
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_MR;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_mr_fi_ops;
  handle_.fid.mem_desc = nullptr;
  handle_.fid.key = key;
}

CompletionQueue::CompletionQueue(Domain& domain, const fi_cq_attr& attr, void* context)
    : domain_(&domain),
      format_(attr.format == FI_CQ_FORMAT_UNSPEC ? FI_CQ_FORMAT_CONTEXT : attr.format),
      entry_size_(entry_size(format_)),
      epoll_(::epoll_create1(EPOLL_CLOEXEC)),
      event_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!epoll_ || !event_) {
    throw std::system_error(errno, std::generic_category(), "epoll_create1/eventfd");
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = event_.get();
  if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, event_.get(), &ev) != 0) {
    throw std::system_error(errno, std::generic_category(), "epoll_ctl");
  }
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_CQ;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_cq_fi_ops;
  handle_.fid.ops = &g_cq_ops;
}

void CompletionQueue::attach(Endpoint* ep) {
  if (std::find(endpoints_.begin(), endpoints_.end(), ep) != endpoints_.end()) {
    return;
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = ep->socket_fd();
  if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, ep->socket_fd(), &ev) != 0) {
    throw std::system_error(errno, std::generic_category(), "epoll_ctl");
  }
  endpoints_.push_back(ep);
}

void CompletionQueue::detach(Endpoint* ep) noexcept {
  const auto found = std::find(endpoints_.begin(), endpoints_.end(), ep);
  if (found != endpoints_.end()) {
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, ep->socket_fd(), nullptr);
    endpoints_.erase(found);
  }
}

void CompletionQueue::progress() {
  for (Endpoint* ep : endpoints_) {
    ep->progress();
  }
}

bool CompletionQueue::delivery_pending() const noexcept {
  return std::any_of(endpoints_.begin(), endpoints_.end(),
                     [](const Endpoint* ep) { return ep->delivery_pending(); });
}

bool CompletionQueue::ready() {
  const std::lock_guard lock(domain_->mutex());
  progress();
  return !entries_.empty();
}

ssize_t CompletionQueue::read(void* buf, std::size_t count, fi_addr_t* src) {
  const std::lock_guard lock(domain_->mutex());
  progress();
  if (entries_.empty()) {
    return -FI_EAGAIN;
  }
  if (entries_.front().error) {
    return -FI_EAVAIL;
  }
  auto* out = static_cast<std::byte*>(buf);
  std::size_t n = 0;
  for (; n < count && !entries_.empty() && !entries_.front().error; ++n) {
    const Completion& c = entries_.front();
    const fi_cq_tagged_entry entry{.op_context = c.entry.op_context,
                                   .flags = c.entry.flags,
                                   .len = c.entry.len,
                                   .buf = c.entry.buf,
                                   .data = c.entry.data,
                                   .tag = c.entry.tag};
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    std::memcpy(out + n * entry_size_, &entry, entry_size_);
    if (src != nullptr) {
      src[n] = c.source;  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    }
    entries_.pop_front();
  }
  return static_cast<ssize_t>(n);
}

ssize_t CompletionQueue::readerr(fi_cq_err_entry* buf) {
  const std::lock_guard lock(domain_->mutex());
  if (entries_.empty() || !entries_.front().error) {
    return -FI_EAGAIN;
  }
  fi_cq_err_entry entry = entries_.front().entry;
  entries_.pop_front();
  if (FI_VERSION_GE(domain_->api_version(), FI_VERSION(1, 5))) {
    entry.err_data = nullptr;
    entry.err_data_size = 0;
    *buf = entry;
  } else {
    // Applications of API 1.4 and older have no err_data_size.
    std::memcpy(buf, &entry, offsetof(fi_cq_err_entry, err_data_size));
  }
  return 1;
}

// A thread in sread() for its lifetime: push() wakes it through event_.
// The last to leave drains what wakes are left unless fi_cq_signal's is
// pending, so a wait fd taken with FI_GETWAIT is not readable for nothing.
class CompletionQueue::Sleeper {
 public:
  explicit Sleeper(CompletionQueue& cq) noexcept : cq_(&cq) { cq_->sleepers_.fetch_add(1); }
  Sleeper(const Sleeper&) = delete;
  Sleeper& operator=(const Sleeper&) = delete;
  Sleeper(Sleeper&&) = delete;
  Sleeper& operator=(Sleeper&&) = delete;
  ~Sleeper() {
    if (cq_->sleepers_.fetch_sub(1) == 1 && !cq_->signalled_.load()) {
      cq_->drain();
    }
  }

 private:
  CompletionQueue* cq_;
};

void CompletionQueue::drain() noexcept {
  std::uint64_t value = 0;
  // EAGAIN when nothing is pending: the counter is non-blocking.
  [[maybe_unused]] const ssize_t drained = ::read(event_.get(), &value, sizeof(value));
}

ssize_t CompletionQueue::sread(void* buf, std::size_t count, fi_addr_t* src, int timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout);
  const Sleeper sleeper(*this);
  for (;;) {
    const ssize_t ret = read(buf, count, src);
    if (ret != -FI_EAGAIN) {
      return ret;
    }
    int wait_ms = -1;
    if (timeout >= 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        return -FI_EAGAIN;
      }
      wait_ms = static_cast<int>(left);
    }
    bool pending = false;
    {
      const std::lock_guard lock(domain_->mutex());
      pending = delivery_pending();
    }
    if (pending && (wait_ms < 0 || wait_ms > 1)) {
      wait_ms = 1;  // completions that wait for acknowledgements: no fd says when
    }
    std::array<epoll_event, 8> events{};
    const int n =
        ::epoll_wait(epoll_.get(), events.data(), static_cast<int>(events.size()), wait_ms);
    for (int i = 0; i < n; ++i) {
      // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-constant-array-index)
      if (events[static_cast<std::size_t>(i)].data.fd == event_.get()) {
        drain();
        if (signalled_.exchange(false)) {
          return -FI_EAGAIN;  // fi_cq_signal()
        }
      }
    }
  }
}

void CompletionQueue::push(const Completion& completion) {
  entries_.push_back(completion);
  if (sleepers_.load() > 0) {
    const std::uint64_t one = 1;
    // Fails only when the counter is at its maximum: a wake is pending.
    [[maybe_unused]] const ssize_t woke = ::write(event_.get(), &one, sizeof(one));
  }
}

int CompletionQueue::signal() noexcept {
  signalled_.store(true);
  const std::uint64_t one = 1;
  return ::write(event_.get(), &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

}  // namespace hf::fabric
