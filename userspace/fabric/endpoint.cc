// fabric/endpoint.cc - the RDM endpoint: one AF_HYPERFRAME socket bound to
// the domain's interface. A send is one sendmsg() of the provider's header
// and the payload; receives are matched when the completion queue is read
// (manual progress): the head message's header is peeked, then the message
// is read straight into the matching receive's buffers, or into the
// bounded unexpected queue. A send to another endpoint of the same domain
// (the domain's own address, FI_LOCAL_COMM) never reaches the socket: it
// is matched or queued at the receiving endpoint at once (send_local).
#include <ctime>  // before linux/errqueue.h, which uses struct timespec
//
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>
#include <vector>

#include "provider.h"

#include <rdma/providers/fi_log.h>

namespace hf::fabric {
namespace {

std::size_t total_length(const iovec* iov, std::size_t count) noexcept {
  std::size_t len = 0;
  for (std::size_t i = 0; i < count; ++i) {
    len += iov[i].iov_len;  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
  }
  return len;
}

// The flags of a send's completion.
std::uint64_t send_flags(const Header& header) noexcept {
  return FI_SEND | (header.tagged() ? FI_TAGGED : FI_MSG);
}

// Copies `bytes` into the buffers `iov`; returns how many fitted.
std::size_t scatter(std::span<const std::byte> bytes, const iovec* iov, std::size_t count) {
  std::size_t done = 0;
  for (std::size_t i = 0; i < count && done < bytes.size(); ++i) {
    const iovec& v = iov[i];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    const std::size_t n = std::min(v.iov_len, bytes.size() - done);
    if (n > 0) {
      std::memcpy(v.iov_base, bytes.subspan(done).data(), n);
    }
    done += n;
  }
  return done;
}

// The bytes of `iov`, gathered.
std::vector<std::byte> gather(const iovec* iov, std::size_t count, std::size_t len) {
  std::vector<std::byte> bytes(len);
  std::span<std::byte> rest(bytes);
  for (std::size_t i = 0; i < count; ++i) {
    const iovec& v = iov[i];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    if (v.iov_len > 0) {
      std::memcpy(rest.data(), v.iov_base, v.iov_len);
      rest = rest.subspan(v.iov_len);
    }
  }
  return bytes;
}

// Copies the bytes of the buffers `from` into the buffers `to`.
void copy_iov(const iovec* from, std::size_t from_count, const iovec* to, std::size_t to_count) {
  std::size_t ti = 0;
  std::span<std::byte> out;
  for (std::size_t fi = 0; fi < from_count; ++fi) {
    const iovec& f = from[fi];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
    std::span<const std::byte> in(static_cast<const std::byte*>(f.iov_base), f.iov_len);
    while (!in.empty()) {
      while (out.empty() && ti < to_count) {
        const iovec& t = to[ti++];  // NOLINT(cppcoreguidelines-pro-bounds-pointer-arithmetic)
        out = std::span<std::byte>(static_cast<std::byte*>(t.iov_base), t.iov_len);
      }
      if (out.empty()) {
        return;  // the receive is full: the rest is cut (FI_ETRUNC)
      }
      const std::size_t n = std::min(in.size(), out.size());
      std::memcpy(out.data(), in.data(), n);
      in = in.subspan(n);
      out = out.subspan(n);
    }
  }
}

// A message no receive was posted for yet, with `header`'s immediate data;
// the caller fills its payload.
Unexpected unexpected_of(const MatchKey& key, const Header& header) {
  Unexpected message;
  message.key = key;
  message.has_data = header.has_data();
  message.data = header.data;
  return message;
}

}  // namespace

// --- the endpoint's calls --------------------------------------------------------

int Endpoint::bind(struct fid* bfid, std::uint64_t flags) {
  switch (bfid->fclass) {
    case FI_CLASS_AV: {
      auto* av = self_of_fid<AddressVector, fid_av>(bfid);
      if (&av->domain() != domain_ || av_ != nullptr) {
        return -FI_EINVAL;
      }
      av_ = av;
      av->refs().fetch_add(1);
      return 0;
    }
    case FI_CLASS_CQ: {
      auto* cq = self_of_fid<CompletionQueue, fid_cq>(bfid);
      if (&cq->domain() != domain_ || (flags & (FI_TRANSMIT | FI_RECV)) == 0) {
        return -FI_EINVAL;
      }
      const bool selective = (flags & FI_SELECTIVE_COMPLETION) != 0;
      if ((flags & FI_TRANSMIT) != 0) {
        if (tx_cq_ != nullptr) {
          return -FI_EINVAL;
        }
        tx_cq_ = cq;
        tx_selective_ = selective;
      }
      if ((flags & FI_RECV) != 0) {
        if (rx_cq_ != nullptr) {
          return -FI_EINVAL;
        }
        rx_cq_ = cq;
        rx_selective_ = selective;
      }
      cq->attach(this);
      return 0;
    }
    case FI_CLASS_EQ:
      return 0;  // an RDM endpoint reports no events
    default:
      return -FI_ENOSYS;
  }
}

int Endpoint::bind_socket() {
  if (bound_) {
    return 0;
  }
  std::error_code error;
  socket_.bind(port_, domain_->iface().ifindex, error);
  if (error) {
    return -error.value();
  }
  const Address local = socket_.local_address(error);
  if (error) {
    return -error.value();
  }
  port_ = local.port;
  domain_->add_local(port_, this);
  bound_ = true;
  return 0;
}

int Endpoint::enable() {
  if (av_ == nullptr) {
    return -FI_ENOAV;
  }
  if (tx_cq_ == nullptr && rx_cq_ == nullptr) {
    return -FI_ENOCQ;
  }
  const int ret = bind_socket();
  if (ret == 0) {
    enabled_ = true;
  }
  return ret;
}

int Endpoint::getname(void* addr, std::size_t* addrlen) {
  const int ret = bind_socket();
  if (ret != 0) {
    return ret;
  }
  const Address local{
      .ifindex = domain_->iface().ifindex, .mac = domain_->iface().mac, .port = port_};
  const sockaddr_hf sa = local.to_sockaddr(domain_->family());
  if (addr == nullptr || *addrlen < sizeof(sa)) {
    *addrlen = sizeof(sa);
    return -FI_ETOOSMALL;
  }
  std::memcpy(addr, &sa, sizeof(sa));
  *addrlen = sizeof(sa);
  return 0;
}

int Endpoint::setname(const void* addr, std::size_t addrlen) {
  if (bound_) {
    return -FI_EOPBADSTATE;
  }
  sockaddr_hf sa{};
  if (addr == nullptr || addrlen < sizeof(sa)) {
    return -FI_EINVAL;
  }
  std::memcpy(&sa, addr, sizeof(sa));
  if (sa.shf_family != domain_->family() ||
      (sa.shf_ifindex != 0 && sa.shf_ifindex != domain_->iface().ifindex)) {
    return -FI_EINVAL;
  }
  port_ = sa.shf_port;
  return bind_socket();
}

void Endpoint::complete_tx(const Completion& completion) {
  if (tx_cq_ != nullptr) {
    tx_cq_->push(completion);
  }
}

void Endpoint::complete_rx(const Completion& completion) {
  if (rx_cq_ != nullptr) {
    rx_cq_->push(completion);
  }
}

Completion Endpoint::recv_completion(void* context, const MatchKey& key, bool has_data,
                                     std::uint64_t data, std::size_t len, void* buf) const {
  Completion c;
  c.entry.op_context = context;
  c.entry.flags = FI_RECV | (key.tagged ? FI_TAGGED : FI_MSG) | (has_data ? FI_REMOTE_CQ_DATA : 0);
  c.entry.len = len;
  c.entry.buf = buf;
  c.entry.data = has_data ? data : 0;
  c.entry.tag = key.tagged ? key.tag : 0;
  if ((caps_ & FI_SOURCE) != 0 && av_ != nullptr) {
    c.source = av_->reverse(key.source);
  }
  return c;
}

ssize_t Endpoint::send(const SendRequest& request) {
  if (!enabled_) {
    return -FI_EOPBADSTATE;
  }
  if (request.count > kIovLimit) {
    return -FI_EINVAL;
  }
  const std::optional<Peer> peer = av_->lookup(request.dest);
  if (!peer) {
    return -FI_EINVAL;
  }
  const std::size_t len = total_length(request.iov, request.count);
  if (len > domain_->max_msg()) {
    return -FI_EMSGSIZE;
  }
  if ((request.flags & FI_INJECT) != 0 && len > kInjectSize) {
    return -FI_EINVAL;
  }
  if (peer->mac == domain_->iface().mac) {
    return send_local(request, peer->port, len);
  }
  HeaderBytes header = encode(request.header);
  std::array<iovec, kIovLimit + 1> iov{};
  iov[0] = iovec{header.data(), header.size()};
  std::copy_n(request.iov, request.count, iov.begin() + 1);
  sockaddr_hf to =
      Address{.ifindex = domain_->iface().ifindex, .mac = peer->mac, .port = peer->port}
          .to_sockaddr(domain_->family());
  msghdr msg{};
  msg.msg_name = &to;
  msg.msg_namelen = sizeof(to);
  msg.msg_iov = iov.data();
  msg.msg_iovlen = request.count + 1;
  for (int attempt = 0;; ++attempt) {
    if (::sendmsg(socket_.get(), &msg, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
      break;
    }
    const int error = errno;
    if (error == EINTR) {
      continue;
    }
    if (error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS) {
      progress();
      return -FI_EAGAIN;
    }
    // An earlier message's failure comes back from the next call: report
    // it from the error queue, then send this one.
    if (attempt == 0 && drain_errors()) {
      continue;
    }
    return -error;
  }
  const std::uint64_t number = sends_++;
  if (request.completion && (request.flags & (FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE)) != 0) {
    pending_.push_back(PendingSend{.number = number,
                                   .context = request.context,
                                   .flags = send_flags(request.header),
                                   .len = len,
                                   .tag = request.header.tag});
    return 0;
  }
  complete_send(request);
  return 0;
}

// The completion of a send the socket or a local endpoint took, unless it
// asked for none.
void Endpoint::complete_send(const SendRequest& request) {
  if (!request.completion) {
    return;
  }
  Completion c;
  c.entry.op_context = request.context;
  c.entry.flags = send_flags(request.header);
  complete_tx(c);
}

// A send to the domain's own address: the kernel would put it on the wire,
// where no switch sends it back, so it is handed to the endpoint at that
// port in this process; one in another process is unreachable. Complete
// at once in every mode: the message is at its receiver when this returns.
ssize_t Endpoint::send_local(const SendRequest& request, std::uint16_t port, std::size_t len) {
  Endpoint* to = domain_->local(port);
  if (to == nullptr) {
    FI_WARN(&provider(), FI_LOG_EP_DATA,
            "no endpoint of this process at port %u of the domain's own address; hyperframe "
            "does not loop back to its interface\n",
            port);
    return -FI_EHOSTUNREACH;
  }
  to->deliver_local(source_key(domain_->iface().mac, port_), request.header, request.iov,
                    request.count, len);
  complete_send(request);
  return 0;
}

void Endpoint::deliver_local(SourceKey source, const Header& header, const iovec* iov,
                             std::size_t count, std::size_t len) {
  const MatchKey key{.tagged = header.tagged(), .source = source, .tag = header.tag};
  if (std::optional<PostedRecv> posted = posted_.take(key)) {
    copy_iov(iov, count, posted->iov.data(), posted->count);
    complete_posted(*posted, key, header, len);
    return;
  }
  Unexpected message = unexpected_of(key, header);
  message.payload = gather(iov, count, len);
  unexpected_.push(std::move(message));
}

// The completion of `posted`, which took a message of `len` bytes.
void Endpoint::complete_posted(const PostedRecv& posted, const MatchKey& key, const Header& header,
                               std::size_t len) {
  const std::size_t capacity = total_length(posted.iov.data(), posted.count);
  Completion c =
      recv_completion(posted.context, key, header.has_data(), header.data, std::min(len, capacity),
                      posted.count > 0 ? posted.iov[0].iov_base : nullptr);
  if (len > capacity) {
    c.error = true;
    c.entry.err = FI_ETRUNC;
    c.entry.prov_errno = FI_ETRUNC;
    c.entry.olen = len - capacity;
  } else if (!posted.completion) {
    return;
  }
  complete_rx(c);
}

ssize_t Endpoint::deliver_unexpected(const RecvRequest& request, Unexpected message) {
  const std::size_t capacity = total_length(request.iov, request.count);
  const std::size_t copied = scatter(message.payload, request.iov, request.count);
  Completion c = recv_completion(request.context, message.key, message.has_data, message.data,
                                 copied, request.count > 0 ? request.iov->iov_base : nullptr);
  if (message.payload.size() > capacity) {
    c.error = true;
    c.entry.err = FI_ETRUNC;
    c.entry.prov_errno = FI_ETRUNC;
    c.entry.olen = message.payload.size() - capacity;
    complete_rx(c);
  } else if (request.completion) {
    complete_rx(c);
  }
  return 0;
}

ssize_t Endpoint::peek(const RecvRequest& request, const MatchSpec& spec) {
  progress();
  const Unexpected* found = unexpected_.find(spec);
  if (found == nullptr) {
    Completion c;
    c.error = true;
    c.entry.op_context = request.context;
    c.entry.flags = FI_RECV | (request.tagged ? FI_TAGGED : FI_MSG);
    c.entry.err = FI_ENOMSG;
    c.entry.prov_errno = FI_ENOMSG;
    complete_rx(c);
    return 0;
  }
  complete_rx(recv_completion(request.context, found->key, found->has_data, found->data,
                              found->payload.size(), nullptr));
  if ((request.flags & FI_CLAIM) != 0) {
    std::optional<Unexpected> message = unexpected_.take(spec);
    claimed_.insert_or_assign(request.context, std::move(*message));
  }
  return 0;
}

ssize_t Endpoint::recv(const RecvRequest& request) {
  if (!enabled_) {
    return -FI_EOPBADSTATE;
  }
  if (request.count > kIovLimit) {
    return -FI_EINVAL;
  }
  // A claim names its message by the context of the peek that claimed it;
  // the address is not looked at (Open MPI 4.1 passes 0).
  if ((request.flags & (FI_CLAIM | FI_PEEK)) == FI_CLAIM) {
    const auto found = claimed_.find(request.context);
    if (found == claimed_.end()) {
      return -FI_EINVAL;
    }
    Unexpected message = std::move(found->second);
    claimed_.erase(found);
    if ((request.flags & FI_DISCARD) != 0) {
      complete_rx(recv_completion(request.context, message.key, message.has_data, message.data, 0,
                                  nullptr));
      return 0;
    }
    return deliver_unexpected(request, std::move(message));
  }
  MatchSpec spec{
      .tagged = request.tagged, .source = kAnySource, .tag = request.tag, .ignore = request.ignore};
  if ((caps_ & FI_DIRECTED_RECV) != 0 && request.src != FI_ADDR_UNSPEC) {
    const std::optional<Peer> peer = av_->lookup(request.src);
    if (!peer) {
      return -FI_EINVAL;
    }
    spec.source = source_key(peer->mac, peer->port);
  }
  if ((request.flags & FI_PEEK) != 0) {
    return peek(request, spec);
  }
  if (std::optional<Unexpected> message = unexpected_.take(spec)) {
    return deliver_unexpected(request, std::move(*message));
  }
  PostedRecv posted;
  posted.spec = spec;
  std::copy_n(request.iov, request.count, posted.iov.begin());
  posted.count = request.count;
  posted.context = request.context;
  posted.completion = request.completion;
  posted_.push(posted);
  return 0;
}

ssize_t Endpoint::cancel(void* context) {
  std::optional<PostedRecv> posted =
      posted_.take_if([context](const PostedRecv& p) { return p.context == context; });
  if (!posted) {
    return -FI_ENOENT;
  }
  Completion c;
  c.error = true;
  c.entry.op_context = context;
  c.entry.flags = FI_RECV | (posted->spec.tagged ? FI_TAGGED : FI_MSG);
  c.entry.err = FI_ECANCELED;
  c.entry.prov_errno = FI_ECANCELED;
  complete_rx(c);
  return 0;
}

int Endpoint::control(int command, void* arg) {
  switch (command) {
    case FI_ENABLE:
      return enable();
    case FI_GETOPSFLAG:
    case FI_SETOPSFLAG: {
      if (arg == nullptr) {
        return -FI_EINVAL;
      }
      auto* flags = static_cast<std::uint64_t*>(arg);
      const bool tx = (*flags & FI_TRANSMIT) != 0;
      const bool rx = (*flags & FI_RECV) != 0;
      if (tx == rx) {
        return -FI_EINVAL;
      }
      std::uint64_t& target = tx ? tx_flags_ : rx_flags_;
      if (command == FI_GETOPSFLAG) {
        *flags = target;
      } else {
        target = *flags & ~std::uint64_t{FI_TRANSMIT | FI_RECV};
      }
      return 0;
    }
    default:
      return -FI_ENOSYS;
  }
}

// --- progress --------------------------------------------------------------------

void Endpoint::discard_head() noexcept {
  msghdr msg{};
  (void)::recvmsg(socket_.get(), &msg, MSG_DONTWAIT | MSG_TRUNC);
}

bool Endpoint::take_one() {
  HeaderBytes header{};
  sockaddr_hf from{};
  iovec peek_iov{header.data(), header.size()};
  msghdr msg{};
  msg.msg_name = &from;
  msg.msg_namelen = sizeof(from);
  msg.msg_iov = &peek_iov;
  msg.msg_iovlen = 1;
  const ssize_t n = ::recvmsg(socket_.get(), &msg, MSG_PEEK | MSG_DONTWAIT | MSG_TRUNC);
  if (n < 0) {
    const int error = errno;
    if (error == EAGAIN || error == EWOULDBLOCK) {
      return false;
    }
    if (error == EINTR) {
      return true;
    }
    // A pending error of an earlier send: its entry is on the error queue.
    return drain_errors();
  }
  const auto len = static_cast<std::size_t>(n);
  const Decoded decoded =
      decode(std::span<const std::byte>(header).first(std::min(len, kHeaderSize)));
  if (decoded.status != DecodeStatus::ok) {
    ++dropped_;
    FI_WARN(&provider(), FI_LOG_EP_DATA, "dropped a %zu-byte message that is not the provider's\n",
            len);
    discard_head();
    return true;
  }
  const Address source = Address::from_sockaddr(from);
  const MatchKey key{.tagged = decoded.header.tagged(),
                     .source = source_key(source.mac, source.port),
                     .tag = decoded.header.tag};
  const std::size_t payload = len - kHeaderSize;
  if (std::optional<PostedRecv> posted = posted_.take(key)) {
    std::array<iovec, kIovLimit + 1> iov{};
    iov[0] = peek_iov;
    std::copy_n(posted->iov.begin(), posted->count, iov.begin() + 1);
    msghdr into{};
    into.msg_iov = iov.data();
    into.msg_iovlen = posted->count + 1;
    if (::recvmsg(socket_.get(), &into, MSG_DONTWAIT | MSG_TRUNC) < 0) {
      posted_.push_front(*posted);
      return false;
    }
    complete_posted(*posted, key, decoded.header, payload);
    return true;
  }
  if (!unexpected_.admits(payload)) {
    return false;  // it waits in the socket, which holds its sender back
  }
  Unexpected message = unexpected_of(key, decoded.header);
  message.payload.resize(payload);
  std::array<iovec, 2> iov{peek_iov, iovec{message.payload.data(), payload}};
  msghdr into{};
  into.msg_iov = iov.data();
  into.msg_iovlen = iov.size();
  if (::recvmsg(socket_.get(), &into, MSG_DONTWAIT | MSG_TRUNC) < 0) {
    return false;
  }
  unexpected_.push(std::move(message));
  return true;
}

bool Endpoint::drain_errors() {
  bool any = false;
  for (;;) {
    std::array<char, 256> control{};
    msghdr msg{};
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    if (::recvmsg(socket_.get(), &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
      break;
    }
    any = true;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
    for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm != nullptr; cm = CMSG_NXTHDR(&msg, cm)) {
      if (cm->cmsg_level != SOL_HYPERFRAME || cm->cmsg_type != HF_RECVERR) {
        continue;
      }
      sock_extended_err ee{};
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-bounds-pointer-arithmetic)
      std::memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
      // ee_info and ee_data share unions with fields of other origins.
      // NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)
      const std::uint32_t number = ee.ee_info;
      const std::uint32_t bytes = ee.ee_data;
      // NOLINTEND(cppcoreguidelines-pro-type-union-access)
      Completion c;
      c.error = true;
      c.entry.flags = FI_SEND | FI_MSG;
      c.entry.err = static_cast<int>(ee.ee_errno);
      c.entry.prov_errno = static_cast<int>(ee.ee_errno);
      c.entry.len = bytes > kHeaderSize ? bytes - kHeaderSize : 0;
      const auto found = std::find_if(pending_.begin(), pending_.end(), [&](const PendingSend& p) {
        return static_cast<std::uint32_t>(p.number) == number;
      });
      if (found != pending_.end()) {
        c.entry.op_context = found->context;
        c.entry.flags = found->flags;
        c.entry.tag = found->tag;
        pending_.erase(found);
      }
      FI_WARN(&provider(), FI_LOG_EP_DATA, "message %u of %u bytes not delivered: errno %u\n",
              number, bytes, ee.ee_errno);
      complete_tx(c);
    }
  }
  int error = 0;
  socklen_t len = sizeof(error);
  (void)::getsockopt(socket_.get(), SOL_SOCKET, SO_ERROR, &error, &len);
  return any;
}

void Endpoint::check_pending() {
  int unresolved = 0;
  // Read first: an error entry is queued before its message stops counting.
  if (::ioctl(socket_.get(), SIOCOUTQ, &unresolved) != 0) {
    return;
  }
  (void)drain_errors();
  if (unresolved != 0) {
    return;
  }
  for (const PendingSend& p : pending_) {
    Completion c;
    c.entry.op_context = p.context;
    c.entry.flags = p.flags;
    complete_tx(c);
  }
  pending_.clear();
}

void Endpoint::progress() {
  if (!enabled_) {
    return;
  }
  constexpr int kBudget = 64;
  for (int i = 0; i < kBudget && take_one(); ++i) {
  }
  if (!pending_.empty()) {
    check_pending();
  }
}

void Endpoint::unbind_all() noexcept {
  if (tx_cq_ != nullptr) {
    tx_cq_->detach(this);
  }
  if (rx_cq_ != nullptr) {
    rx_cq_->detach(this);
  }
  if (av_ != nullptr) {
    av_->refs().fetch_sub(1);
  }
  tx_cq_ = rx_cq_ = nullptr;
  av_ = nullptr;
}

// --- the C entry points ----------------------------------------------------------

namespace {

Endpoint* ep_of(fid_ep* ep) noexcept {
  return self_of<Endpoint>(ep);
}

// Runs `f` on the endpoint under its domain's mutex.
template <typename F>
auto locked(fid_ep* ep, F&& f) noexcept -> decltype(f(*ep_of(ep))) {
  return guarded([&]() -> decltype(f(*ep_of(ep))) {
    Endpoint& self = *ep_of(ep);
    const std::lock_guard lock(self.domain().mutex());
    return f(self);
  });
}

int ep_close(struct fid* f) {
  auto* ep = self_of_fid<Endpoint, fid_ep>(f);
  Domain& domain = ep->domain();
  {
    const std::lock_guard lock(domain.mutex());
    ep->unbind_all();
    domain.remove_local(ep);
  }
  domain.refs().fetch_sub(1);
  delete ep;  // NOLINT(cppcoreguidelines-owning-memory): made by open_endpoint
  return 0;
}

int ep_bind(struct fid* f, struct fid* bfid, std::uint64_t flags) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): fid heads fid_ep
  return locked(reinterpret_cast<fid_ep*>(f),
                [&](Endpoint& ep) -> int { return ep.bind(bfid, flags); });
}

int ep_control(struct fid* f, int command, void* arg) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): fid heads fid_ep
  return locked(reinterpret_cast<fid_ep*>(f),
                [&](Endpoint& ep) -> int { return ep.control(command, arg); });
}

ssize_t ep_cancel(fid_t f, void* context) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): fid heads fid_ep
  return locked(reinterpret_cast<fid_ep*>(f),
                [&](Endpoint& ep) -> ssize_t { return ep.cancel(context); });
}

int ep_getopt(fid_t /*fid*/, int /*level*/, int /*optname*/, void* /*optval*/,
              std::size_t* /*optlen*/) {
  return -FI_ENOPROTOOPT;
}
int ep_setopt(fid_t /*fid*/, int /*level*/, int /*optname*/, const void* /*optval*/,
              std::size_t /*optlen*/) {
  return -FI_ENOPROTOOPT;
}
int ep_tx_ctx(fid_ep* /*sep*/, int /*index*/, fi_tx_attr* /*attr*/, fid_ep** /*tx_ep*/,
              void* /*context*/) {
  return -FI_ENOSYS;
}
int ep_rx_ctx(fid_ep* /*sep*/, int /*index*/, fi_rx_attr* /*attr*/, fid_ep** /*rx_ep*/,
              void* /*context*/) {
  return -FI_ENOSYS;
}
ssize_t ep_size_left(fid_ep* /*ep*/) {
  return 1024;
}

int cm_setname(fid_t f, void* addr, std::size_t addrlen) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): fid heads fid_ep
  return locked(reinterpret_cast<fid_ep*>(f),
                [&](Endpoint& ep) -> int { return ep.setname(addr, addrlen); });
}
int cm_getname(fid_t f, void* addr, std::size_t* addrlen) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): fid heads fid_ep
  return locked(reinterpret_cast<fid_ep*>(f),
                [&](Endpoint& ep) -> int { return ep.getname(addr, addrlen); });
}
int cm_getpeer(fid_ep* /*ep*/, void* /*addr*/, std::size_t* /*addrlen*/) {
  return -FI_ENOSYS;
}
int cm_connect(fid_ep* /*ep*/, const void* /*addr*/, const void* /*param*/,
               std::size_t /*paramlen*/) {
  return -FI_ENOSYS;
}
int cm_listen(fid_pep* /*pep*/) {
  return -FI_ENOSYS;
}
int cm_accept(fid_ep* /*ep*/, const void* /*param*/, std::size_t /*paramlen*/) {
  return -FI_ENOSYS;
}
int cm_reject(fid_pep* /*pep*/, fid_t /*handle*/, const void* /*param*/, std::size_t /*paramlen*/) {
  return -FI_ENOSYS;
}
int cm_shutdown(fid_ep* /*ep*/, std::uint64_t /*flags*/) {
  return -FI_ENOSYS;
}
int cm_join(fid_ep* /*ep*/, const void* /*addr*/, std::uint64_t /*flags*/, fid_mc** /*mc*/,
            void* /*context*/) {
  return -FI_ENOSYS;
}

// Sends: the default op flags of fi_send* and fi_tsend*, the given ones of
// the *msg calls; fi_inject* never complete.
ssize_t do_send(fid_ep* ep, const iovec* iov, std::size_t count, fi_addr_t dest, Header header,
                void* context, std::optional<std::uint64_t> flags, bool inject) {
  return locked(ep, [&](Endpoint& self) -> ssize_t {
    SendRequest request;
    request.iov = iov;
    request.count = count;
    request.dest = dest;
    request.header = header;
    request.context = context;
    request.flags = flags.value_or(self.tx_op_flags()) | (inject ? FI_INJECT : 0);
    request.completion = !inject && (!self.tx_selective() || (request.flags & FI_COMPLETION) != 0);
    return self.send(request);
  });
}

ssize_t do_recv(fid_ep* ep, const iovec* iov, std::size_t count, fi_addr_t src, bool tagged,
                std::uint64_t tag, std::uint64_t ignore, void* context,
                std::optional<std::uint64_t> flags) {
  return locked(ep, [&](Endpoint& self) -> ssize_t {
    RecvRequest request;
    request.iov = iov;
    request.count = count;
    request.src = src;
    request.tagged = tagged;
    request.tag = tag;
    request.ignore = ignore;
    request.context = context;
    request.flags = flags.value_or(self.rx_op_flags());
    request.completion = !self.rx_selective() || (request.flags & FI_COMPLETION) != 0;
    return self.recv(request);
  });
}

iovec one(const void* buf, std::size_t len) noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): iovec has no const member
  return iovec{const_cast<void*>(buf), len};
}

Header untagged(bool has_data = false, std::uint64_t data = 0) noexcept {
  return Header{
      .flags = static_cast<std::uint8_t>(has_data ? kFlagData : 0), .tag = 0, .data = data};
}
Header tagged(std::uint64_t tag, bool has_data = false, std::uint64_t data = 0) noexcept {
  return Header{.flags = static_cast<std::uint8_t>(kFlagTagged | (has_data ? kFlagData : 0)),
                .tag = tag,
                .data = data};
}

ssize_t msg_recv(fid_ep* ep, void* buf, std::size_t len, void* /*desc*/, fi_addr_t src,
                 void* context) {
  const iovec iov = one(buf, len);
  return do_recv(ep, &iov, 1, src, false, 0, 0, context, std::nullopt);
}
ssize_t msg_recvv(fid_ep* ep, const iovec* iov, void** /*desc*/, std::size_t count, fi_addr_t src,
                  void* context) {
  return do_recv(ep, iov, count, src, false, 0, 0, context, std::nullopt);
}
ssize_t msg_recvmsg(fid_ep* ep, const fi_msg* msg, std::uint64_t flags) {
  return do_recv(ep, msg->msg_iov, msg->iov_count, msg->addr, false, 0, 0, msg->context, flags);
}
ssize_t msg_send(fid_ep* ep, const void* buf, std::size_t len, void* /*desc*/, fi_addr_t dest,
                 void* context) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, untagged(), context, std::nullopt, false);
}
ssize_t msg_sendv(fid_ep* ep, const iovec* iov, void** /*desc*/, std::size_t count, fi_addr_t dest,
                  void* context) {
  return do_send(ep, iov, count, dest, untagged(), context, std::nullopt, false);
}
ssize_t msg_sendmsg(fid_ep* ep, const fi_msg* msg, std::uint64_t flags) {
  return do_send(ep, msg->msg_iov, msg->iov_count, msg->addr,
                 untagged((flags & FI_REMOTE_CQ_DATA) != 0, msg->data), msg->context, flags, false);
}
ssize_t msg_inject(fid_ep* ep, const void* buf, std::size_t len, fi_addr_t dest) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, untagged(), nullptr, std::nullopt, true);
}
ssize_t msg_senddata(fid_ep* ep, const void* buf, std::size_t len, void* /*desc*/,
                     std::uint64_t data, fi_addr_t dest, void* context) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, untagged(true, data), context, std::nullopt, false);
}
ssize_t msg_injectdata(fid_ep* ep, const void* buf, std::size_t len, std::uint64_t data,
                       fi_addr_t dest) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, untagged(true, data), nullptr, std::nullopt, true);
}

ssize_t tag_recv(fid_ep* ep, void* buf, std::size_t len, void* /*desc*/, fi_addr_t src,
                 std::uint64_t tag, std::uint64_t ignore, void* context) {
  const iovec iov = one(buf, len);
  return do_recv(ep, &iov, 1, src, true, tag, ignore, context, std::nullopt);
}
ssize_t tag_recvv(fid_ep* ep, const iovec* iov, void** /*desc*/, std::size_t count, fi_addr_t src,
                  std::uint64_t tag, std::uint64_t ignore, void* context) {
  return do_recv(ep, iov, count, src, true, tag, ignore, context, std::nullopt);
}
ssize_t tag_recvmsg(fid_ep* ep, const fi_msg_tagged* msg, std::uint64_t flags) {
  return do_recv(ep, msg->msg_iov, msg->iov_count, msg->addr, true, msg->tag, msg->ignore,
                 msg->context, flags);
}
ssize_t tag_send(fid_ep* ep, const void* buf, std::size_t len, void* /*desc*/, fi_addr_t dest,
                 std::uint64_t tag, void* context) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, tagged(tag), context, std::nullopt, false);
}
ssize_t tag_sendv(fid_ep* ep, const iovec* iov, void** /*desc*/, std::size_t count, fi_addr_t dest,
                  std::uint64_t tag, void* context) {
  return do_send(ep, iov, count, dest, tagged(tag), context, std::nullopt, false);
}
ssize_t tag_sendmsg(fid_ep* ep, const fi_msg_tagged* msg, std::uint64_t flags) {
  return do_send(ep, msg->msg_iov, msg->iov_count, msg->addr,
                 tagged(msg->tag, (flags & FI_REMOTE_CQ_DATA) != 0, msg->data), msg->context, flags,
                 false);
}
ssize_t tag_inject(fid_ep* ep, const void* buf, std::size_t len, fi_addr_t dest,
                   std::uint64_t tag) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, tagged(tag), nullptr, std::nullopt, true);
}
ssize_t tag_senddata(fid_ep* ep, const void* buf, std::size_t len, void* /*desc*/,
                     std::uint64_t data, fi_addr_t dest, std::uint64_t tag, void* context) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, tagged(tag, true, data), context, std::nullopt, false);
}
ssize_t tag_injectdata(fid_ep* ep, const void* buf, std::size_t len, std::uint64_t data,
                       fi_addr_t dest, std::uint64_t tag) {
  const iovec iov = one(buf, len);
  return do_send(ep, &iov, 1, dest, tagged(tag, true, data), nullptr, std::nullopt, true);
}

// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): libfabric
// takes these tables by non-const pointer
fi_ops g_ep_fi_ops = {sizeof(fi_ops), ep_close, ep_bind,   ep_control,
                      no_ops_open,    no_tostr, no_ops_set};
fi_ops_ep g_ep_ops = {sizeof(fi_ops_ep), ep_cancel, ep_getopt,    ep_setopt,
                      ep_tx_ctx,         ep_rx_ctx, ep_size_left, ep_size_left};
fi_ops_cm g_cm_ops = {sizeof(fi_ops_cm), cm_setname, cm_getname, cm_getpeer,  cm_connect,
                      cm_listen,         cm_accept,  cm_reject,  cm_shutdown, cm_join};
fi_ops_msg g_msg_ops = {sizeof(fi_ops_msg), msg_recv,    msg_recvv,  msg_recvmsg,  msg_send,
                        msg_sendv,          msg_sendmsg, msg_inject, msg_senddata, msg_injectdata};
fi_ops_tagged g_tagged_ops = {
    sizeof(fi_ops_tagged), tag_recv,   tag_recvv,    tag_recvmsg,   tag_send, tag_sendv,
    tag_sendmsg,           tag_inject, tag_senddata, tag_injectdata};
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

}  // namespace

Endpoint::Endpoint(Domain& domain, const fi_info& info, void* context)
    : domain_(&domain),
      caps_(info.caps != 0 ? info.caps & kCaps : kCaps),
      tx_flags_(info.tx_attr != nullptr ? info.tx_attr->op_flags : 0),
      rx_flags_(info.rx_attr != nullptr ? info.rx_attr->op_flags : 0),
      socket_(Family{domain.family()}, SOCK_RDM | SOCK_NONBLOCK, 0),
      unexpected_(domain.settings().unexp_bytes, domain.settings().unexp_msgs) {
  if (info.src_addr != nullptr && info.src_addrlen >= sizeof(sockaddr_hf)) {
    sockaddr_hf sa{};
    std::memcpy(&sa, info.src_addr, sizeof(sa));
    port_ = sa.shf_port;
  }
  handle_.self = this;
  handle_.fid.fid.fclass = FI_CLASS_EP;
  handle_.fid.fid.context = context;
  handle_.fid.fid.ops = &g_ep_fi_ops;
  handle_.fid.ops = &g_ep_ops;
  handle_.fid.cm = &g_cm_ops;
  handle_.fid.msg = &g_msg_ops;
  handle_.fid.tagged = &g_tagged_ops;
}

Endpoint::~Endpoint() = default;

int open_endpoint(fid_domain* domain, fi_info* info, fid_ep** ep, void* context) {
  return guarded([&]() -> int {
    if (info == nullptr || info->ep_attr == nullptr || info->ep_attr->type != FI_EP_RDM) {
      return -FI_EINVAL;
    }
    auto* self = self_of<Domain>(domain);
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): ep_close deletes it
    auto* endpoint = new Endpoint(*self, *info, context);
    self->refs().fetch_add(1);
    *ep = endpoint->fid();
    return 0;
  });
}

}  // namespace hf::fabric
