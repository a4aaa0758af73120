// selftests/hf_fi_local.cc - the libfabric provider "hf" as Open MPI 4.1's
// ofi MTL drives it, between two endpoints of one process on one domain
// (FI_LOCAL_COMM), for selftests/hf_fabric.sh:
//
//   hf_fi_local IFACE
//
// fi_getinfo with the MTL's hints (FI_TAGGED | FI_LOCAL_COMM |
// FI_REMOTE_COMM | FI_DIRECTED_RECV, FI_CONTEXT modes, FI_ORDER_SAS, an
// FI_AV_MAP, FI_COMPLETION op flags) must offer "hf" on IFACE; then, over
// tagged completion queues bound with FI_SELECTIVE_COMPLETION: a receive
// posted before its send and directed at its sender, a message waiting
// for its receive (injected, no send completion), remote CQ data, a 4 MiB
// message, a truncated one (FI_ETRUNC and its
// overrun), scattered and gathered buffers (whole and truncated), a send
// posted without a completion, a peek that claims and the claim that
// takes it (the claim with an address that names nobody, as Open MPI 4.1
// passes 0), 40 messages an endpoint sends itself past its unexpected
// bound, in order, a thread blocked in fi_cq_sread woken by a send of this
// process, and sends to a port of the domain's own address that no
// endpoint here holds (one never opened, one closed), refused at once
// (-FI_EHOSTUNREACH). Local messages never reach the wire; the
// script checks the module's counters did not move.
// Prints "# " lines; exits 0 when every check passed, 1 when one failed,
// 2 for a usage or set-up error.
#include <linux/hyperframe.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

namespace {

// Whether a check failed.
bool& failed() {
  static bool any = false;
  return any;
}

void check(bool ok, std::string_view what) {
  std::cout << "# " << (ok ? "ok" : "FAIL") << ": " << what << '\n';
  if (!ok) {
    failed() = true;
  }
}

// A byte of message `seed` at `i`, so a misplaced byte shows.
std::byte pattern(std::size_t i, std::uint64_t seed) {
  return static_cast<std::byte>((i * 131U + seed * 7U) & 0xffU);
}

std::vector<std::byte> make(std::size_t len, std::uint64_t seed) {
  std::vector<std::byte> v(len);
  for (std::size_t i = 0; i < len; ++i) {
    v[i] = pattern(i, seed);
  }
  return v;
}

bool intact(const std::vector<std::byte>& v, std::size_t len, std::uint64_t seed) {
  for (std::size_t i = 0; i < len; ++i) {
    if (v[i] != pattern(i, seed)) {
      return false;
    }
  }
  return true;
}

// Releases what fi_* opened, in reverse order.
template <typename T>
struct Closer {
  T* fid = nullptr;
  Closer() = default;
  Closer(const Closer&) = delete;
  Closer& operator=(const Closer&) = delete;
  Closer(Closer&&) = delete;
  Closer& operator=(Closer&&) = delete;
  ~Closer() {
    if (fid != nullptr) {
      (void)fi_close(&fid->fid);
    }
  }
};

// One endpoint with its completion queue.
struct Ep {
  Closer<fid_cq> cq;
  Closer<fid_ep> ep;
  fi_addr_t addr = FI_ADDR_NOTAVAIL;
};

// Reads one completion of `cq` within 5 s: 1, or the error code (-FI_EAVAIL
// for an error entry).
ssize_t read_one(fid_cq* cq, fi_cq_tagged_entry* entry, fi_addr_t* src) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    const ssize_t n = fi_cq_readfrom(cq, entry, 1, src);
    if (n != -FI_EAGAIN || std::chrono::steady_clock::now() > deadline) {
      return n;
    }
  }
}

// Whether `cq` has nothing to report now.
bool quiet(fid_cq* cq) {
  fi_cq_tagged_entry entry{};
  return fi_cq_read(cq, &entry, 1) == -FI_EAGAIN;
}

int open_ep(fid_domain* domain, fi_info* info, fid_av* av, fi_wait_obj wait, Ep& ep) {
  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_TAGGED;
  cq_attr.size = 100;
  cq_attr.wait_obj = wait;
  int ret = fi_cq_open(domain, &cq_attr, &ep.cq.fid, nullptr);
  if (ret == 0) {
    ret = fi_endpoint(domain, info, &ep.ep.fid, nullptr);
  }
  if (ret == 0) {
    ret = fi_ep_bind(ep.ep.fid, &av->fid, 0);
  }
  if (ret == 0) {
    ret = fi_ep_bind(ep.ep.fid, &ep.cq.fid->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION);
  }
  if (ret == 0) {
    ret = fi_enable(ep.ep.fid);
  }
  std::array<std::byte, FI_NAME_MAX> name{};
  std::size_t len = name.size();
  if (ret == 0) {
    ret = fi_getname(&ep.ep.fid->fid, name.data(), &len);
  }
  if (ret == 0 && fi_av_insert(av, name.data(), 1, &ep.addr, 0, nullptr) != 1) {
    ret = -FI_EINVAL;
  }
  return ret;
}

// Open MPI 4.1.4's ofi MTL hints (mtl_ofi_component.c), naming the provider.
fi_info* mtl_hints() {
  fi_info* hints = fi_allocinfo();
  if (hints == nullptr) {
    return nullptr;
  }
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = FI_TAGGED | FI_LOCAL_COMM | FI_REMOTE_COMM | FI_DIRECTED_RECV;
  hints->tx_attr->msg_order = FI_ORDER_SAS;
  hints->rx_attr->msg_order = FI_ORDER_SAS;
  hints->tx_attr->op_flags = FI_COMPLETION;
  hints->rx_attr->op_flags = FI_COMPLETION;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  hints->domain_attr->cq_data_size = sizeof(int);
  hints->domain_attr->av_type = FI_AV_MAP;
  hints->domain_attr->resource_mgmt = FI_RM_ENABLED;
  hints->fabric_attr->prov_name = strdup("hf");
  return hints;
}

// A send posted with flags 0 under FI_SELECTIVE_COMPLETION.
void msg_send_quiet(Ep& a, Ep& b) {
  std::array<std::byte, 32> in{};
  std::vector<std::byte> out = make(32, 9);
  int ctx = 0;
  fi_cq_tagged_entry entry{};
  iovec iov{out.data(), out.size()};
  fi_msg_tagged msg{};
  msg.msg_iov = &iov;
  msg.iov_count = 1;
  msg.addr = b.addr;
  msg.tag = 0x70;
  check(fi_trecv(b.ep.fid, in.data(), in.size(), nullptr, a.addr, 0x70, 0, &ctx) == 0 &&
            fi_tsendmsg(a.ep.fid, &msg, 0) == 0,
        "fi_tsendmsg with flags 0");
  check(read_one(b.cq.fid, &entry, nullptr) == 1 && entry.op_context == &ctx && entry.len == 32,
        "its receive completes");
  check(quiet(a.cq.fid), "its sender's queue stays quiet");
}

// Messages to itself beyond the unexpected queue's bound (hf_fabric.sh
// sets FI_HF_UNEXP_MSGS to 16): each send is taken, none waits for room
// its own thread would have to make; received in the order sent.
void to_itself(Ep& b) {
  constexpr int kCount = 40;
  int refused = 0;
  for (int i = 0; i < kCount; ++i) {
    const auto n = static_cast<std::uint32_t>(i);
    refused += fi_tinject(b.ep.fid, &n, sizeof(n), b.addr, 0x80) == 0 ? 0 : 1;
  }
  check(refused == 0, std::to_string(kCount) + " sends to itself, none refused (" +
                          std::to_string(refused) + ")");
  int in_order = 0;
  for (int i = 0; i < kCount; ++i) {
    std::uint32_t n = ~0U;
    int ctx = 0;
    fi_cq_tagged_entry entry{};
    if (fi_trecv(b.ep.fid, &n, sizeof(n), nullptr, b.addr, 0x80, 0, &ctx) == 0 &&
        read_one(b.cq.fid, &entry, nullptr) == 1 && n == static_cast<std::uint32_t>(i)) {
      ++in_order;
    }
  }
  check(in_order == kCount, "received in the order sent (" + std::to_string(in_order) + ")");
}

// The tagged exchanges between `a` and `b`, which share a domain.
void exchanges(Ep& a, Ep& b) {
  fi_cq_tagged_entry entry{};
  fi_addr_t src = FI_ADDR_NOTAVAIL;
  int ctx_recv = 0;
  int ctx_send = 0;

  // 1. Posted first, with CQ data, directed at a.
  std::vector<std::byte> in(65536);
  std::vector<std::byte> out = make(in.size(), 1);
  check(fi_trecv(b.ep.fid, in.data(), in.size(), nullptr, a.addr, 0x7, 0, &ctx_recv) == 0,
        "posted receive");
  check(
      fi_tsenddata(a.ep.fid, out.data(), out.size(), nullptr, 0x1234, b.addr, 0x7, &ctx_send) == 0,
      "fi_tsenddata of 64 KiB to an endpoint of this process");
  check(read_one(a.cq.fid, &entry, nullptr) == 1 && entry.op_context == &ctx_send &&
            (entry.flags & (FI_SEND | FI_TAGGED)) == (FI_SEND | FI_TAGGED),
        "the send completes");
  check(read_one(b.cq.fid, &entry, &src) == 1 && entry.op_context == &ctx_recv &&
            entry.len == out.size() && entry.tag == 0x7 && entry.data == 0x1234 &&
            (entry.flags & FI_REMOTE_CQ_DATA) != 0 && src == FI_ADDR_NOTAVAIL,
        "the receive completes: length, tag, CQ data; no source (no FI_SOURCE asked)");
  check(intact(in, out.size(), 1), "64 KiB intact");

  // 2. Unexpected first: injected (no send completion), then received.
  out = make(100, 2);
  check(fi_tinjectdata(a.ep.fid, out.data(), out.size(), 0x55, b.addr, 0x9) == 0, "fi_tinjectdata");
  check(quiet(a.cq.fid), "an injected send reports nothing");
  std::fill(in.begin(), in.end(), std::byte{0});
  check(fi_trecv(b.ep.fid, in.data(), in.size(), nullptr, FI_ADDR_UNSPEC, 0x9, 0, &ctx_recv) == 0,
        "receive of a message that waits");
  check(read_one(b.cq.fid, &entry, &src) == 1 && entry.op_context == &ctx_recv &&
            entry.len == out.size() && entry.data == 0x55 && intact(in, out.size(), 2),
        "the waiting message is taken, intact");

  // 3. 4 MiB, and one tag among two waiting: the ignore mask picks.
  std::array<std::byte, 16> other{};
  check(fi_tinject(a.ep.fid, other.data(), other.size(), b.addr, 0x200) == 0,
        "a message the mask below does not take");
  out = make(std::size_t{4} << 20U, 3);
  std::vector<std::byte> big(out.size());
  check(fi_tsend(a.ep.fid, out.data(), out.size(), nullptr, b.addr, 0x100, &ctx_send) == 0,
        "fi_tsend of 4 MiB");
  check(read_one(a.cq.fid, &entry, nullptr) == 1, "its send completes");
  check(fi_trecv(b.ep.fid, big.data(), big.size(), nullptr, a.addr, 0x1ff, 0xff, &ctx_recv) == 0,
        "receive with an ignore mask");
  check(read_one(b.cq.fid, &entry, nullptr) == 1 && entry.len == out.size() && entry.tag == 0x100 &&
            intact(big, out.size(), 3),
        "4 MiB intact, the tag as sent, past a message the mask does not take");
  check(
      fi_trecv(b.ep.fid, in.data(), in.size(), nullptr, FI_ADDR_UNSPEC, 0x200, 0, &ctx_recv) == 0 &&
          read_one(b.cq.fid, &entry, nullptr) == 1 && entry.tag == 0x200 && entry.len == 16,
      "the other message, still waiting");

  // 4. Truncated: 4 KiB into 1 KiB.
  out = make(4096, 4);
  check(fi_trecv(b.ep.fid, in.data(), 1024, nullptr, FI_ADDR_UNSPEC, 0x20, 0, &ctx_recv) == 0,
        "a 1 KiB receive");
  check(fi_tsend(a.ep.fid, out.data(), out.size(), nullptr, b.addr, 0x20, &ctx_send) == 0,
        "a 4 KiB send to it");
  (void)read_one(a.cq.fid, &entry, nullptr);
  fi_cq_err_entry err{};
  check(read_one(b.cq.fid, &entry, nullptr) == -FI_EAVAIL &&
            fi_cq_readerr(b.cq.fid, &err, 0) == 1 && err.err == FI_ETRUNC && err.olen == 3072 &&
            err.op_context == &ctx_recv && err.len == 1024 && intact(in, 1024, 4),
        "FI_ETRUNC, 1024 bytes taken and 3072 over, the first 1 KiB intact");

  // 4b. Gathered from three buffers, scattered into three of other sizes;
  // then into two that hold less (truncated).
  out = make(10000, 8);
  std::vector<std::byte> r0(1000);
  std::vector<std::byte> r1(5000);
  std::vector<std::byte> r2(6000);
  const std::span<std::byte> whole(out);
  const std::array<iovec, 3> sv{iovec{whole.data(), 3000}, iovec{whole.subspan(3000).data(), 1},
                                iovec{whole.subspan(3001).data(), 6999}};
  const std::array<iovec, 3> rv{iovec{r0.data(), r0.size()}, iovec{r1.data(), r1.size()},
                                iovec{r2.data(), r2.size()}};
  check(fi_trecvv(b.ep.fid, rv.data(), nullptr, rv.size(), FI_ADDR_UNSPEC, 0x60, 0, &ctx_recv) == 0,
        "fi_trecvv into 1000 + 5000 + 6000 bytes");
  check(fi_tsendv(a.ep.fid, sv.data(), nullptr, sv.size(), b.addr, 0x60, &ctx_send) == 0,
        "fi_tsendv of 3000 + 1 + 6999 bytes");
  (void)read_one(a.cq.fid, &entry, nullptr);
  std::vector<std::byte> joined(r0);
  joined.insert(joined.end(), r1.begin(), r1.end());
  joined.insert(joined.end(), r2.begin(), r2.end());
  check(read_one(b.cq.fid, &entry, nullptr) == 1 && entry.len == 10000 && intact(joined, 10000, 8),
        "10000 bytes across the three, in order");
  check(fi_trecvv(b.ep.fid, rv.data(), nullptr, 2, FI_ADDR_UNSPEC, 0x61, 0, &ctx_recv) == 0 &&
            fi_tsendv(a.ep.fid, sv.data(), nullptr, sv.size(), b.addr, 0x61, &ctx_send) == 0,
        "the same into 1000 + 5000 bytes");
  (void)read_one(a.cq.fid, &entry, nullptr);
  joined.assign(r0.begin(), r0.end());
  joined.insert(joined.end(), r1.begin(), r1.end());
  check(read_one(b.cq.fid, &entry, nullptr) == -FI_EAVAIL &&
            fi_cq_readerr(b.cq.fid, &err, 0) == 1 && err.err == FI_ETRUNC && err.len == 6000 &&
            err.olen == 4000 && intact(joined, 6000, 8),
        "FI_ETRUNC, 6000 bytes taken across two, 4000 over");

  // 4c. A send without FI_COMPLETION (Open MPI's synchronous-send ACK): its
  // receive completes, the sender's queue stays quiet.
  msg_send_quiet(a, b);

  // 5. A peek that claims, and the claim (its address names nobody).
  out = make(300, 5);
  check(fi_tsend(a.ep.fid, out.data(), out.size(), nullptr, b.addr, 0x30, &ctx_send) == 0,
        "a send to be probed");
  (void)read_one(a.cq.fid, &entry, nullptr);
  fi_context2 claim{};
  iovec iov{in.data(), in.size()};
  fi_msg_tagged msg{};
  msg.msg_iov = &iov;
  msg.iov_count = 1;
  msg.addr = FI_ADDR_UNSPEC;
  msg.tag = 0x30;
  msg.context = &claim;
  check(fi_trecvmsg(b.ep.fid, &msg, FI_PEEK | FI_CLAIM | FI_COMPLETION) == 0, "FI_PEEK | FI_CLAIM");
  check(read_one(b.cq.fid, &entry, nullptr) == 1 && entry.op_context == &claim && entry.len == 300,
        "the peek finds it");
  msg.addr = 12345;
  check(fi_trecvmsg(b.ep.fid, &msg, FI_CLAIM | FI_COMPLETION) == 0,
        "FI_CLAIM takes it, whatever its address names");
  check(read_one(b.cq.fid, &entry, nullptr) == 1 && entry.op_context == &claim &&
            entry.len == 300 && intact(in, 300, 5),
        "the claimed message, intact");
}

// A thread in fi_cq_sread() on `b`'s queue, woken by a's send.
void wakes(Ep& a, Ep& b) {
  std::vector<std::byte> in(64);
  std::vector<std::byte> out = make(64, 6);
  int ctx = 0;
  ssize_t got = 0;
  fi_cq_tagged_entry entry{};
  check(fi_trecv(b.ep.fid, in.data(), in.size(), nullptr, FI_ADDR_UNSPEC, 0x40, 0, &ctx) == 0,
        "a receive for the sleeper");
  const auto start = std::chrono::steady_clock::now();
  std::thread sleeper([&] { got = fi_cq_sread(b.cq.fid, &entry, 1, nullptr, 10000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  check(fi_tinject(a.ep.fid, out.data(), out.size(), b.addr, 0x40) == 0, "the send that wakes it");
  sleeper.join();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  std::cout << "# fi_cq_sread returned after " << ms << " ms\n";
  check(got == 1 && entry.op_context == &ctx && intact(in, 64, 6) && ms < 5000,
        "fi_cq_sread returns the completion, woken well before its 10 s timeout");
}

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> args(argv, static_cast<std::size_t>(argc));
  if (args.size() != 2) {
    std::cerr << "usage: hf_fi_local IFACE\n";
    return 2;
  }
  const std::string_view iface = args[1];
  fi_info* hints = mtl_hints();
  fi_info* list = nullptr;
  const int ret = fi_getinfo(FI_VERSION(1, 5), nullptr, nullptr, 0, hints, &list);
  fi_freeinfo(hints);
  check(ret == 0, std::string("fi_getinfo with Open MPI's hints: ") + fi_strerror(-ret));
  fi_info* info = nullptr;
  for (fi_info* i = list; i != nullptr; i = i->next) {
    if (i->domain_attr->name != nullptr && iface == i->domain_attr->name) {
      info = i;
    }
  }
  check(info != nullptr, "hf offers a domain on the interface");
  if (info == nullptr) {
    fi_freeinfo(list);
    return 1;
  }
  check((info->caps & FI_LOCAL_COMM) != 0 && (info->caps & FI_REMOTE_COMM) != 0,
        "caps hold FI_LOCAL_COMM and FI_REMOTE_COMM");
  {
    Closer<fid_fabric> fabric;
    Closer<fid_domain> domain;
    Closer<fid_av> av;
    fi_av_attr av_attr{};
    av_attr.type = FI_AV_MAP;
    if (fi_fabric(info->fabric_attr, &fabric.fid, nullptr) != 0 ||
        fi_domain(fabric.fid, info, &domain.fid, nullptr) != 0 ||
        fi_av_open(domain.fid, &av_attr, &av.fid, nullptr) != 0) {
      std::cerr << "hf_fi_local: fabric, domain or address vector would not open\n";
      fi_freeinfo(list);
      return 2;
    }
    Ep a;
    Ep b;
    const int ra = open_ep(domain.fid, info, av.fid, FI_WAIT_NONE, a);
    const int rb = open_ep(domain.fid, info, av.fid, FI_WAIT_UNSPEC, b);
    check(ra == 0 && rb == 0, std::string("two endpoints: ") + fi_strerror(ra != 0 ? -ra : -rb));
    if (ra == 0 && rb == 0) {
      exchanges(a, b);
      to_itself(b);
      wakes(a, b);
      // An endpoint closed: its port is nobody's.
      Ep c;
      check(open_ep(domain.fid, info, av.fid, FI_WAIT_NONE, c) == 0, "a third endpoint");
      (void)fi_close(&c.ep.fid->fid);
      c.ep.fid = nullptr;
      std::array<std::byte, 8> byte{};
      check(fi_tinject(a.ep.fid, byte.data(), byte.size(), c.addr, 0x90) == -FI_EHOSTUNREACH,
            "a send to an endpoint closed is refused (-FI_EHOSTUNREACH)");
      // The domain's own address at a port nobody here holds.
      sockaddr_hf nobody{};
      std::size_t len = sizeof(nobody);
      fi_addr_t addr = FI_ADDR_NOTAVAIL;
      (void)fi_getname(&b.ep.fid->fid, &nobody, &len);
      nobody.shf_port = static_cast<std::uint16_t>(nobody.shf_port + 1000U);
      check(fi_av_insert(av.fid, &nobody, 1, &addr, 0, nullptr) == 1, "an address of nobody");
      std::array<std::byte, 8> one{};
      const auto start = std::chrono::steady_clock::now();
      const ssize_t sent = fi_tinject(a.ep.fid, one.data(), one.size(), addr, 0x50);
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      check(sent == -FI_EHOSTUNREACH, std::string("a send to it is refused at once (") +
                                          fi_strerror(static_cast<int>(-sent)) + ", " +
                                          std::to_string(ms) + " ms)");
    }
  }
  fi_freeinfo(list);
  std::cout << "# " << (failed() ? "some checks failed" : "every check passed") << '\n';
  return failed() ? 1 : 0;
}
