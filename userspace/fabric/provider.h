// fabric/provider.h - the objects of the libfabric provider "hf": fabric,
// domain (one Ethernet interface), address vector, completion queue,
// memory region, event queue and endpoint (one AF_HYPERFRAME socket).
// Each libfabric object is a Handle: the C structure libfabric hands to
// the application, then a pointer to the C++ object that owns it. One
// mutex per domain serialises every call on the domain's objects, so the
// provider offers FI_THREAD_SAFE. Nothing here throws across the C ABI:
// every entry point goes through guarded().
#pragma once

#include <sys/uio.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "hyperframe/fd.h"
#include "hyperframe/socket.h"
#include "match.h"
#include "wire.h"

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <rdma/providers/fi_prov.h>

namespace hf::fabric {

inline constexpr const char* kProviderName = "hf";
inline constexpr const char* kFabricName = "hyperframe";
inline constexpr std::uint32_t kProviderVersion = FI_VERSION(0, 1);
inline constexpr std::size_t kIovLimit = 8;
inline constexpr std::size_t kInjectSize = 16384;
inline constexpr std::size_t kDefaultMaxMsg = std::size_t{64} << 20U;
// The capabilities an endpoint offers. FI_LOCAL_COMM: endpoints of the
// same domain in one process reach each other without the network
// (Endpoint::send_local); hyperframe itself cannot loop a frame back to
// its own interface, so other processes on it are out of reach.
inline constexpr std::uint64_t kCaps = FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | FI_DIRECTED_RECV |
                                       FI_SOURCE | FI_LOCAL_COMM | FI_REMOTE_COMM;

// The provider structure fi_prov_ini hands to libfabric.
[[nodiscard]] fi_provider& provider() noexcept;

// The libfabric object `C` and the C++ object behind it.
template <typename C, typename T>
struct Handle {
  C fid{};
  T* self = nullptr;
};

// The object behind `c`, the first member of a Handle<C, T>.
template <typename T, typename C>
[[nodiscard]] T* self_of(C* c) noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): first member
  return reinterpret_cast<Handle<C, T>*>(c)->self;
}
// The object behind `f`, the generic head of a Handle<C, T>.
template <typename T, typename C>
[[nodiscard]] T* self_of_fid(fid* f) noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): first member
  return reinterpret_cast<Handle<C, T>*>(f)->self;
}

// Runs `f`, turning an exception into a libfabric error code.
template <typename F>
auto guarded(F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return -FI_ENOMEM;
  } catch (const std::system_error& error) {
    return error.code().value() > 0 ? -error.code().value() : -FI_EOTHER;
  } catch (...) {
    return -FI_EOTHER;
  }
}

// An Ethernet interface a domain may stand for.
struct Interface {
  std::string name;
  int ifindex = 0;
  MacAddress mac{};
};

// The up, non-loopback Ethernet interfaces of the calling thread's
// network namespace.
[[nodiscard]] std::vector<Interface> ethernet_interfaces();
[[nodiscard]] std::optional<Interface> find_interface(std::string_view name);

// The provider's parameters (FI_HF_*; fi_info -e lists them).
struct Settings {
  std::string iface;                                 // FI_HF_IFACE
  std::size_t unexp_bytes = std::size_t{64} << 20U;  // FI_HF_UNEXP_BYTES
  std::size_t unexp_msgs = 4096;                     // FI_HF_UNEXP_MSGS
};
[[nodiscard]] Settings settings();

// The largest message the namespace's hyperframe takes (max_msg), or
// kDefaultMaxMsg when it cannot be read.
[[nodiscard]] std::size_t module_max_msg() noexcept;

class Endpoint;
class CompletionQueue;

class Fabric {
 public:
  Fabric(std::uint32_t api_version, void* context);
  [[nodiscard]] fid_fabric* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] std::uint32_t api_version() const noexcept { return handle_.fid.api_version; }
  // Objects opened on this one (closing it first is -FI_EBUSY).
  [[nodiscard]] std::atomic<int>& refs() noexcept { return refs_; }

 private:
  std::atomic<int> refs_{0};
  Handle<fid_fabric, Fabric> handle_;
};

class Domain {
 public:
  Domain(Fabric& fabric, Interface iface, int family, std::size_t max_msg, std::uint32_t api,
         void* context);
  [[nodiscard]] fid_domain* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Fabric& fabric() const noexcept { return *fabric_; }
  [[nodiscard]] const Interface& iface() const noexcept { return iface_; }
  [[nodiscard]] int family() const noexcept { return family_; }
  [[nodiscard]] std::size_t max_msg() const noexcept { return max_msg_; }
  [[nodiscard]] std::uint32_t api_version() const noexcept { return api_; }
  [[nodiscard]] std::mutex& mutex() noexcept { return mutex_; }
  [[nodiscard]] const Settings& settings() const noexcept { return settings_; }
  // Objects opened on this one (closing it first is -FI_EBUSY).
  [[nodiscard]] std::atomic<int>& refs() noexcept { return refs_; }

  // The endpoints of this domain by the port they are bound to: where a
  // send to the domain's own address goes. Caller holds the mutex.
  void add_local(std::uint16_t port, Endpoint* ep) { local_.insert_or_assign(port, ep); }
  void remove_local(const Endpoint* ep) noexcept;
  [[nodiscard]] Endpoint* local(std::uint16_t port) const noexcept;

 private:
  std::atomic<int> refs_{0};
  Handle<fid_domain, Domain> handle_;
  Fabric* fabric_;
  Interface iface_;
  int family_;
  std::size_t max_msg_;
  std::uint32_t api_;
  Settings settings_;
  std::mutex mutex_;
  std::unordered_map<std::uint16_t, Endpoint*> local_;
};

// A peer in an address vector: what its fi_getname() said, less the
// interface, which is the domain's.
struct Peer {
  MacAddress mac{};
  std::uint16_t port = 0;
};

class AddressVector {
 public:
  AddressVector(Domain& domain, fi_av_type type, void* context);
  [[nodiscard]] fid_av* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Domain& domain() const noexcept { return *domain_; }

  // Caller holds the domain's mutex for all of these.
  [[nodiscard]] int insert(const void* addr, std::size_t count, fi_addr_t* fi_addr,
                           std::uint64_t flags, void* context);
  [[nodiscard]] int insert_one(const Peer& peer, fi_addr_t* fi_addr);
  [[nodiscard]] int remove(const fi_addr_t* fi_addr, std::size_t count);
  [[nodiscard]] std::optional<Peer> lookup(fi_addr_t fi_addr) const noexcept;
  [[nodiscard]] fi_addr_t reverse(SourceKey key) const noexcept;
  // Objects opened on this one (closing it first is -FI_EBUSY).
  [[nodiscard]] std::atomic<int>& refs() noexcept { return refs_; }

 private:
  std::atomic<int> refs_{0};
  Handle<fid_av, AddressVector> handle_;
  Domain* domain_;
  std::vector<std::optional<Peer>> table_;
  std::unordered_map<SourceKey, fi_addr_t> by_source_;
};

// One completion, in the widest format, with its source.
struct Completion {
  fi_cq_err_entry entry{};
  fi_addr_t source = FI_ADDR_NOTAVAIL;
  bool error = false;
};

class CompletionQueue {
 public:
  CompletionQueue(Domain& domain, const fi_cq_attr& attr, void* context);
  [[nodiscard]] fid_cq* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Domain& domain() const noexcept { return *domain_; }

  // Caller holds the domain's mutex. Wakes a thread sleeping in sread():
  // the entry may come from another thread's call (a local send, a
  // receive that took an unexpected message, a cancel).
  void push(const Completion& completion);
  void attach(Endpoint* ep);
  void detach(Endpoint* ep) noexcept;
  [[nodiscard]] bool has_endpoints() const noexcept { return !endpoints_.empty(); }

  // Take the domain's mutex themselves.
  [[nodiscard]] ssize_t read(void* buf, std::size_t count, fi_addr_t* src);
  [[nodiscard]] ssize_t readerr(fi_cq_err_entry* buf);
  [[nodiscard]] ssize_t sread(void* buf, std::size_t count, fi_addr_t* src, int timeout);
  [[nodiscard]] int signal() noexcept;
  [[nodiscard]] int wait_fd() const noexcept { return epoll_.get(); }
  [[nodiscard]] bool ready();  // progress; whether an entry waits

 private:
  class Sleeper;

  // Caller holds the mutex.
  void progress();
  [[nodiscard]] bool delivery_pending() const noexcept;
  void drain() noexcept;  // empties event_

  Handle<fid_cq, CompletionQueue> handle_;
  Domain* domain_;
  fi_cq_format format_;
  std::size_t entry_size_;
  std::deque<Completion> entries_;
  std::vector<Endpoint*> endpoints_;
  Fd epoll_;
  Fd event_;                            // signal() and push() write it
  std::atomic<bool> signalled_{false};  // signal() did, not only push()
  std::atomic<int> sleepers_{0};        // threads in sread() that may sleep
};

class MemoryRegion {
 public:
  MemoryRegion(Domain& domain, std::uint64_t key, void* context);
  [[nodiscard]] fid_mr* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Domain& domain() const noexcept { return *domain_; }

 private:
  Handle<fid_mr, MemoryRegion> handle_;
  Domain* domain_;
};

class EventQueue {
 public:
  EventQueue(Fabric& fabric, void* context);
  [[nodiscard]] fid_eq* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Fabric& fabric() const noexcept { return *fabric_; }

 private:
  Handle<fid_eq, EventQueue> handle_;
  Fabric* fabric_;
};

// A receive waiting for its message.
struct PostedRecv {
  MatchSpec spec;
  std::array<iovec, kIovLimit> iov{};
  std::size_t count = 0;
  void* context = nullptr;
  bool completion = true;
};

// A send whose completion waits until the socket's messages are resolved
// (FI_TRANSMIT_COMPLETE, FI_DELIVERY_COMPLETE).
struct PendingSend {
  std::uint64_t number = 0;  // among the socket's sends, from 0
  void* context = nullptr;
  std::uint64_t flags = 0;
  std::size_t len = 0;
  std::uint64_t tag = 0;
};

// What fi_send*, fi_tsend* and fi_inject* asked for.
struct SendRequest {
  const iovec* iov = nullptr;
  std::size_t count = 0;
  fi_addr_t dest = FI_ADDR_UNSPEC;
  Header header;
  void* context = nullptr;
  std::uint64_t flags = 0;  // FI_* op flags in effect
  bool completion = false;
};

// What fi_recv* and fi_trecv* asked for.
struct RecvRequest {
  const iovec* iov = nullptr;
  std::size_t count = 0;
  fi_addr_t src = FI_ADDR_UNSPEC;
  bool tagged = false;
  std::uint64_t tag = 0;
  std::uint64_t ignore = 0;
  void* context = nullptr;
  std::uint64_t flags = 0;
  bool completion = false;
};

class Endpoint {
 public:
  Endpoint(Domain& domain, const fi_info& info, void* context);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;
  Endpoint(Endpoint&&) = delete;
  Endpoint& operator=(Endpoint&&) = delete;

  [[nodiscard]] fid_ep* fid() noexcept { return &handle_.fid; }
  [[nodiscard]] Domain& domain() const noexcept { return *domain_; }
  [[nodiscard]] int socket_fd() const noexcept { return socket_.get(); }

  // Caller holds the domain's mutex for all of these.
  [[nodiscard]] int bind(struct fid* bfid, std::uint64_t flags);
  [[nodiscard]] int enable();
  [[nodiscard]] int getname(void* addr, std::size_t* addrlen);
  [[nodiscard]] int setname(const void* addr, std::size_t addrlen);
  [[nodiscard]] ssize_t send(const SendRequest& request);
  [[nodiscard]] ssize_t recv(const RecvRequest& request);
  [[nodiscard]] ssize_t cancel(void* context);
  [[nodiscard]] int control(int command, void* arg);
  void progress();
  // A message from `source`, an endpoint of this process on the same
  // domain (FI_LOCAL_COMM): matched now, or queued as unexpected past the
  // queue's bounds (they hold back remote senders; a local one waiting
  // for room its own thread must make, as a send to itself, would hang).
  void deliver_local(SourceKey source, const Header& header, const iovec* iov, std::size_t count,
                     std::size_t len);
  [[nodiscard]] bool delivery_pending() const noexcept { return !pending_.empty(); }
  void unbind_all() noexcept;
  [[nodiscard]] std::uint64_t tx_op_flags() const noexcept { return tx_flags_; }
  [[nodiscard]] std::uint64_t rx_op_flags() const noexcept { return rx_flags_; }
  [[nodiscard]] bool tx_selective() const noexcept { return tx_selective_; }
  [[nodiscard]] bool rx_selective() const noexcept { return rx_selective_; }

 private:
  [[nodiscard]] int bind_socket();
  [[nodiscard]] ssize_t send_local(const SendRequest& request, std::uint16_t port, std::size_t len);
  void complete_posted(const PostedRecv& posted, const MatchKey& key, const Header& header,
                       std::size_t len);
  void complete_send(const SendRequest& request);
  [[nodiscard]] Completion recv_completion(void* context, const MatchKey& key, bool has_data,
                                           std::uint64_t data, std::size_t len, void* buf) const;
  void complete_rx(const Completion& completion);
  void complete_tx(const Completion& completion);
  [[nodiscard]] ssize_t deliver_unexpected(const RecvRequest& request, Unexpected message);
  [[nodiscard]] ssize_t peek(const RecvRequest& request, const MatchSpec& spec);
  [[nodiscard]] bool take_one();
  void discard_head() noexcept;
  [[nodiscard]] bool drain_errors();
  void check_pending();

  Handle<fid_ep, Endpoint> handle_;
  Domain* domain_;
  AddressVector* av_ = nullptr;
  CompletionQueue* tx_cq_ = nullptr;
  CompletionQueue* rx_cq_ = nullptr;
  std::uint64_t caps_;
  std::uint64_t tx_flags_;
  std::uint64_t rx_flags_;
  bool tx_selective_ = false;
  bool rx_selective_ = false;
  bool enabled_ = false;
  bool bound_ = false;
  std::uint16_t port_ = 0;
  Socket socket_;
  PostedQueue<PostedRecv> posted_;
  UnexpectedQueue unexpected_;
  std::unordered_map<void*, Unexpected> claimed_;
  std::deque<PendingSend> pending_;
  std::uint64_t sends_ = 0;
  std::uint64_t dropped_ = 0;
};

// Object constructors behind the ops tables.
[[nodiscard]] int open_fabric(fi_fabric_attr* attr, fid_fabric** fabric, void* context);
[[nodiscard]] int open_domain(fid_fabric* fabric, fi_info* info, fid_domain** domain,
                              void* context);
[[nodiscard]] int open_endpoint(fid_domain* domain, fi_info* info, fid_ep** ep, void* context);
[[nodiscard]] int getinfo(std::uint32_t version, const char* node, const char* service,
                          std::uint64_t flags, const fi_info* hints, fi_info** info);

// Shared "not supported" entries for ops tables.
int no_bind(struct fid* fid, struct fid* bfid, std::uint64_t flags);
int no_control(struct fid* fid, int command, void* arg);
int no_ops_open(struct fid* fid, const char* name, std::uint64_t flags, void** ops, void* context);
int no_tostr(const struct fid* fid, char* buf, std::size_t len);
int no_ops_set(struct fid* fid, const char* name, std::uint64_t flags, void* ops, void* context);

// The text of a completion or event queue's error (its strerror entry):
// fi_strerror()'s, copied into BUF of LEN bytes where one is given.
const char* error_text(int prov_errno, char* buf, std::size_t len);

}  // namespace hf::fabric
