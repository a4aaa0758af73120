// selftests/hf_a2a.cc - MPI_Alltoall timed and checked, for
// selftests/hf_mpi.sh: whatever transport mpirun gives it (the libfabric
// provider "hf" under pml cm, or TCP under ob1).
//
//   hf_a2a [--min BYTES] [--max BYTES] [--iters N]
//
// For block sizes doubling from --min (4 KiB) to --max (1 MiB), --iters
// (5) calls of MPI_Alltoall, each after a barrier, every block filled
// from (source, destination, call, byte) and checked on arrival; then a
// message of --max bytes each rank sends itself (MPI_Isend + MPI_Recv).
// Rank 0 prints per size "a2a bytes=B calls=N p50_us=.. max_us=..
// errors=E" (a call's time is the slowest rank's) and "self bytes=B
// errors=E"; every rank exits 1 when any byte was wrong anywhere.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <span>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::size_t min = std::size_t{4} << 10U;
  std::size_t max = std::size_t{1} << 20U;
  int iters = 5;
};

bool parse(std::span<char*> args, Options& o) {
  for (std::size_t i = 1; i + 1 < args.size(); i += 2) {
    const std::string_view key = args[i];
    const unsigned long long value = std::strtoull(args[i + 1], nullptr, 0);
    if (key == "--min") {
      o.min = value;
    } else if (key == "--max") {
      o.max = value;
    } else if (key == "--iters") {
      o.iters = static_cast<int>(value);
    } else {
      return false;
    }
  }
  return args.size() % 2 == 1 && o.min > 0 && o.min <= o.max && o.iters > 0;
}

// The byte at `i` of the block `src` sends `dst` in call `call`.
std::uint8_t fill(int src, int dst, int call, std::size_t i) {
  return static_cast<std::uint8_t>((static_cast<std::size_t>(src) * 131U) ^
                                   (static_cast<std::size_t>(dst) * 31U) ^
                                   (static_cast<std::size_t>(call) * 7U) ^ (i * 3U) ^ (i >> 8U));
}

// Wrong bytes in the blocks `recv` holds, block `s` of `bytes` from rank s.
long long check(const std::vector<std::uint8_t>& recv, int rank, int size, int call,
                std::size_t bytes) {
  long long wrong = 0;
  for (int s = 0; s < size; ++s) {
    const std::size_t base = static_cast<std::size_t>(s) * bytes;
    for (std::size_t i = 0; i < bytes; ++i) {
      wrong += recv[base + i] != fill(s, rank, call, i) ? 1 : 0;
    }
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  if (!parse(std::span<char*>(argv, static_cast<std::size_t>(argc)), o)) {
    if (rank == 0) {
      std::cerr << "usage: hf_a2a [--min BYTES] [--max BYTES] [--iters N]\n";
    }
    MPI_Finalize();
    return 2;
  }
  long long wrong_all = 0;
  for (std::size_t bytes = o.min; bytes <= o.max; bytes *= 2) {
    const std::size_t total = bytes * static_cast<std::size_t>(size);
    std::vector<std::uint8_t> send(total);
    std::vector<std::uint8_t> recv(total);
    std::vector<double> times;
    long long wrong = 0;
    for (int call = 0; call < o.iters; ++call) {
      for (int d = 0; d < size; ++d) {
        for (std::size_t i = 0; i < bytes; ++i) {
          send[static_cast<std::size_t>(d) * bytes + i] = fill(rank, d, call, i);
        }
      }
      std::fill(recv.begin(), recv.end(), 0);
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Alltoall(send.data(), static_cast<int>(bytes), MPI_BYTE, recv.data(),
                   static_cast<int>(bytes), MPI_BYTE, MPI_COMM_WORLD);
      double t = MPI_Wtime() - t0;
      double slowest = 0;
      MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      times.push_back(slowest);
      wrong += check(recv, rank, size, call, bytes);
    }
    long long wrong_sum = 0;
    MPI_Allreduce(&wrong, &wrong_sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    wrong_all += wrong_sum;
    if (rank == 0) {
      std::sort(times.begin(), times.end());
      std::cout << "a2a bytes=" << bytes << " calls=" << o.iters
                << " p50_us=" << static_cast<long long>(times[times.size() / 2] * 1e6)
                << " max_us=" << static_cast<long long>(times.back() * 1e6)
                << " errors=" << wrong_sum << std::endl;
    }
  }

  // A message to itself: under pml cm, through the provider's local path.
  std::vector<std::uint8_t> out(o.max);
  std::vector<std::uint8_t> in(o.max);
  for (std::size_t i = 0; i < o.max; ++i) {
    out[i] = fill(rank, rank, -1, i);
  }
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Isend(out.data(), static_cast<int>(o.max), MPI_BYTE, rank, 77, MPI_COMM_WORLD, &request);
  MPI_Recv(in.data(), static_cast<int>(o.max), MPI_BYTE, rank, 77, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  long long wrong_self = in == out ? 0 : 1;
  long long self_sum = 0;
  MPI_Allreduce(&wrong_self, &self_sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  wrong_all += self_sum;
  if (rank == 0) {
    std::cout << "self bytes=" << o.max << " errors=" << self_sum << std::endl;
  }
  MPI_Finalize();
  return wrong_all == 0 ? 0 : 1;
}
