#pragma once
// Work over rows split across the machine's threads: the CPU references and models, which compute
// every texel of a frame in double precision, share it.
#include <algorithm>
#include <thread>
#include <vector>

namespace blurlab {

// Runs body(begin, end) over [0, count) split across the hardware threads (one call for fewer
// than 64 rows: starting threads would cost more than the rows).
template <typename Body>
void parallel_rows(int count, Body body) {
  const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 64);
  const int chunks = std::min(threads, std::max(count, 1));
  if (chunks <= 1 || count < 64) {
    body(0, count);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < chunks; ++t) pool.emplace_back(body, count * t / chunks, count * (t + 1) / chunks);
  for (auto& thread : pool) thread.join();
}

}  // namespace blurlab
