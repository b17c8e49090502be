// SPDX-License-Identifier: MIT
#ifndef BLOOM_SIZING_HPP
#define BLOOM_SIZING_HPP

// The classic Bloom filter's arithmetic, usable on its own:
//
//     m = ceil(-n * ln p / (ln 2)^2)          bits for n expected items at target rate p
//     k = floor or ceil of (m / n) * ln 2     whichever gives the lower rate, at least 1
//     p = (1 - e^(-k * n / m))^k              expected false-positive rate after n insertions
//
//     std::uint64_t m = bloom::optimal_bit_count(1'000'000, 0.01);   // 9'585'059 bits (1.2 MB)
//     unsigned k = bloom::optimal_hash_count(m, 1'000'000);          // 7
//     double p = bloom::false_positive_rate(m, k, 1'000'000);        // ~0.01
//
// Every function validates its arguments and throws std::invalid_argument naming the parameter.

#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/probe.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bloom {
namespace detail {

inline std::string to_display(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

inline constexpr double ln2 = 0.693147180559945309417232121458176568;

// The largest bit count whose 64-bit words the address space can hold (a 32-bit target stops far
// below 2^64 bits; a 64-bit one at 2^64 - 1).
inline constexpr std::uint64_t max_addressable_bits() noexcept {
    constexpr std::uint64_t max_bytes =
        static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max());
    constexpr std::uint64_t max_words = max_bytes / sizeof(std::uint64_t);
    return max_words >= (std::numeric_limits<std::uint64_t>::max() >> 6)
               ? std::numeric_limits<std::uint64_t>::max()
               : max_words * 64;
}

inline void check_items(const char* where, std::uint64_t expected_items) {
    if (expected_items == 0) {
        throw_invalid_argument(where, "expected_items", "must be at least 1, got 0");
    }
}

inline void check_rate(const char* where, double false_positive_rate) {
    // Written so that NaN fails too.
    if (!(false_positive_rate > 0.0 && false_positive_rate < 1.0)) {
        throw_invalid_argument(where, "false_positive_rate",
                               "must be in (0, 1), got " + to_display(false_positive_rate));
    }
}

inline void check_bits(const char* where, std::uint64_t bit_count) {
    if (bit_count == 0) {
        throw_invalid_argument(where, "bit_count", "must be at least 1, got 0");
    }
    if (bit_count > max_addressable_bits()) {
        throw_invalid_argument(where, "bit_count",
                               "of " + std::to_string(bit_count) + " does not fit in this platform's memory");
    }
}

inline void check_hashes(const char* where, unsigned hash_count) {
    if (hash_count == 0) {
        throw_invalid_argument(where, "hash_count", "must be at least 1, got 0");
    }
}

inline void check_probes(const char* where, probe_scheme probes) {
    if (probes != probe_scheme::mixed && probes != probe_scheme::enhanced_double_hashing) {
        throw_invalid_argument(
            where, "probes", "is not a known probe scheme: " + std::to_string(static_cast<unsigned>(probes)));
    }
}

// The rate formula without validation: 0 for an empty filter. -expm1 keeps precision when k*n/m is tiny.
inline double unchecked_false_positive_rate(std::uint64_t bit_count, unsigned hash_count,
                                            std::uint64_t items) noexcept {
    const double k = static_cast<double>(hash_count);
    const double exponent = -k * static_cast<double>(items) / static_cast<double>(bit_count);
    return std::pow(-std::expm1(exponent), k);
}

} // namespace detail

/// An explicit filter shape: `bit_count` bits probed `hash_count` times per item. Build a filter from one
/// to tune it by hand, to reproduce a shape in tests, or to load a saved filter.
struct filter_geometry {
    /// m: the number of bits (counters, for a counting filter).
    std::uint64_t bit_count = 0;
    /// k: the number of probes per item.
    unsigned hash_count = 0;
    /// How the k positions derive from an item's hash (classic layout only; blocked filters ignore it).
    /// Only filters loaded from old files use another than the default.
    probe_scheme probes = probe_scheme::mixed;
};

namespace detail {

/// optimal_bit_count, its errors naming `where`: the call the user made (a filter's constructor).
[[nodiscard]] inline std::uint64_t sized_bit_count(std::uint64_t expected_items, double false_positive_rate,
                                                   const char* where) {
    detail::check_items(where, expected_items);
    detail::check_rate(where, false_positive_rate);
    const double bits = std::ceil(-static_cast<double>(expected_items) * std::log(false_positive_rate) /
                                  (detail::ln2 * detail::ln2));
    // 2^64 as a double: a value at or above it does not fit; the address space may hold even fewer bits.
    constexpr double two_to_64 = 18446744073709551616.0;
    if (!(bits < two_to_64) || static_cast<std::uint64_t>(bits) > detail::max_addressable_bits()) {
        detail::throw_invalid_argument(where, "expected_items",
                                       std::to_string(expected_items) + " at false_positive_rate " +
                                           detail::to_display(false_positive_rate) + " needs " +
                                           detail::to_display(bits) +
                                           " bits, more than fit in 64 bits or in this platform's memory");
    }
    const auto bit_count = static_cast<std::uint64_t>(bits);
    return bit_count < 1 ? 1 : bit_count;
}

} // namespace detail

/// Bits a classic filter needs for `expected_items` at `false_positive_rate`: ceil(-n ln p / (ln 2)^2).
/// Throws std::invalid_argument if expected_items is 0, the rate is not in (0, 1), or the result would not
/// fit in 64 bits or in this platform's memory.
[[nodiscard]] inline std::uint64_t optimal_bit_count(std::uint64_t expected_items,
                                                     double false_positive_rate) {
    return detail::sized_bit_count(expected_items, false_positive_rate, "bloom::optimal_bit_count");
}

/// Expected false-positive rate of `bit_count` bits and `hash_count` probes holding `items` items:
/// (1 - e^(-k n / m))^k. Throws std::invalid_argument if any argument is 0.
[[nodiscard]] inline double false_positive_rate(std::uint64_t bit_count, unsigned hash_count,
                                                std::uint64_t items) {
    constexpr const char* where = "bloom::false_positive_rate";
    detail::check_bits(where, bit_count);
    detail::check_hashes(where, hash_count);
    if (items == 0) {
        detail::throw_invalid_argument(where, "items", "must be at least 1, got 0");
    }
    return detail::unchecked_false_positive_rate(bit_count, hash_count, items);
}

/// The probe count that minimises the rate of `bit_count` bits holding `expected_items` items: of
/// floor((m/n) ln 2) and ceil((m/n) ln 2), the one (at least 1) with the lower rate; the smaller on a tie.
/// Throws std::invalid_argument if either argument is 0.
[[nodiscard]] inline unsigned optimal_hash_count(std::uint64_t bit_count, std::uint64_t expected_items) {
    constexpr const char* where = "bloom::optimal_hash_count";
    detail::check_bits(where, bit_count);
    detail::check_items(where, expected_items);
    const double ideal = static_cast<double>(bit_count) / static_cast<double>(expected_items) * detail::ln2;
    constexpr double max_count = static_cast<double>(std::numeric_limits<unsigned>::max());
    const auto clamp = [&](double count) {
        return static_cast<unsigned>(std::fmin(std::fmax(count, 1.0), max_count));
    };
    const unsigned lower = clamp(std::floor(ideal));
    const unsigned upper = clamp(std::ceil(ideal));
    if (lower == upper) {
        return lower;
    }
    const double lower_rate = detail::unchecked_false_positive_rate(bit_count, lower, expected_items);
    const double upper_rate = detail::unchecked_false_positive_rate(bit_count, upper, expected_items);
    return upper_rate < lower_rate ? upper : lower;
}

namespace detail {

/// The exact expected rate of `bit_count` bits and `hash_count` independent uniform probes per item
/// holding `items` items: E[(X/m)^k] over the number X of bits set by the kn probes. The formula
/// (1 - e^(-kn/m))^k is its limit for large m, and below it: Bose et al. 2008 ("On the false-positive rate
/// of Bloom filters") show that it underestimates small filters, e.g. 5x for one item at a 1e-5 target
/// (24 bits, k = 17), because X varies and (X/m)^k is convex. Below 7.75 k^2 bits (and 8192) the
/// distribution of X is computed throw by throw over the window where it is not negligible
/// (O(kn sqrt(m))); above, a second-order expansion around the exact mean, within 2e-3 relative there.
inline double exact_false_positive_rate(std::uint64_t bit_count, unsigned hash_count, std::uint64_t items) {
    const double m = static_cast<double>(bit_count);
    const double k = static_cast<double>(hash_count);
    const double throws = k * static_cast<double>(items);
    if (items == 0) {
        return 0.0;
    }
    // The expansion's next term is of order (k cv)^3, cv = sd(X) / E[X] ~ sqrt(0.31 / m) near the optimal
    // load: below 0.2 (m > 7.75 k^2) it is under 2e-3 relative, so the O(kn sqrt(m)) distribution is only
    // computed for the small filters where it matters.
    if (bit_count > 8192 || static_cast<double>(bit_count) > 7.75 * k * k || throws > 1e6) {
        // E[(X/m)^k] ~ mu^k (1 + k(k-1)/2 Var(X/m) / mu^2), with the exact mean fill mu = 1 - (1 - 1/m)^t
        // and Var(X) = m a - m b + m^2 (b - a^2), a = (1 - 1/m)^t, b = (1 - 2/m)^t, where
        // b - a^2 = a^2 expm1(t log(1 - 1/(m - 1)^2)) avoids the cancellation.
        const double log_empty = throws * std::log1p(-1.0 / m);
        const double a = std::exp(log_empty);
        const double fill = -std::expm1(log_empty);
        if (!(fill > 0.0)) {
            return 0.0;
        }
        const double b = m > 2.0 ? std::exp(throws * std::log1p(-2.0 / m)) : 0.0;
        const double spread = a * a * std::expm1(throws * std::log1p(-1.0 / ((m - 1.0) * (m - 1.0))));
        const double variance = std::fmax(m * (a - b) + m * m * spread, 0.0) / (m * m);
        const double rate = std::pow(fill, k) * (1.0 + k * (k - 1.0) / 2.0 * variance / (fill * fill));
        return std::fmin(rate, 1.0);
    }
    // probability[j]: P(X = j) after the throws so far; [low, high] holds every j above `negligible`.
    std::vector<double> probability(static_cast<std::size_t>(bit_count) + 2, 0.0);
    probability[0] = 1.0;
    std::size_t low = 0, high = 0;
    constexpr double negligible = 1e-300;
    const auto total = static_cast<std::uint64_t>(throws);
    for (std::uint64_t t = 0; t < total; ++t) {
        // A throw lands on a set bit (j stays) with probability j/m, else sets one more (j + 1).
        for (std::size_t j = high + 1; j-- > low;) {
            const double here = probability[j];
            const double set_share = static_cast<double>(j) / m;
            if (j < bit_count) {
                probability[j + 1] += here * (1.0 - set_share);
            }
            probability[j] = here * set_share;
        }
        if (high < bit_count) {
            ++high;
        }
        while (low < high && probability[low] < negligible) {
            ++low;
        }
        while (high > low && probability[high] < negligible) {
            --high;
        }
    }
    double rate = 0.0;
    for (std::size_t j = low; j <= high; ++j) {
        rate += probability[j] * std::pow(static_cast<double>(j) / m, k);
    }
    return std::fmin(rate, 1.0);
}

/// The classic shape for `expected_items` at `false_positive_rate`: optimal_bit_count, then
/// optimal_hash_count, plus the bits a filter needs for its exact rate (exact_false_positive_rate) to keep
/// the promise. With k an integer the formula's rate at that size can exceed p: by 0.4% at 1%, which no
/// affordable test can see and the textbook sizes keep (10^6 items at 1%: 9,585,059 bits), but by 3.6% at
/// p = 0.37. The textbook size stands when its rate is within 2 sigma of what 10^7 queries would measure,
/// p (1 + 2 sqrt((1 - p) / (10^7 p))), and a small filter's exact rate within 0.1% of it; otherwise bits are
/// added until the exact rate is at most p. One item at 1e-9 gets 50 bits instead of 44; a filter of 10^4
/// items or more at 1% gets exactly optimal_bit_count. Shared by every filter with the classic layout
/// (plain, counting, concurrent, the scalable filter's stages). Throws as optimal_bit_count does, naming
/// `where`, the constructor the user called.
[[nodiscard]] inline filter_geometry optimal_geometry(std::uint64_t expected_items,
                                                      double false_positive_rate, const char* where) {
    std::uint64_t bits = sized_bit_count(expected_items, false_positive_rate, where);
    unsigned hashes = optimal_hash_count(bits, expected_items);
    const double p = false_positive_rate;
    const double formula = unchecked_false_positive_rate(bits, hashes, expected_items);
    const double resolution = 2.0 * std::sqrt((1.0 - p) / (1e7 * p));
    const double target = formula <= p * (1.0 + resolution) ? std::fmax(p, formula) * (1.0 + 1e-3) : p;
    const double items = static_cast<double>(expected_items);
    for (double rate = exact_false_positive_rate(bits, hashes, expected_items); rate > target;
         rate = exact_false_positive_rate(bits, hashes, expected_items)) {
        // The rate falls by a factor e^((ln 2)^2 / n) per added bit: step by what the ratio asks.
        const double step = std::ceil(items * std::log(rate / target) / (ln2 * ln2));
        bits += step < 1.0 ? 1 : static_cast<std::uint64_t>(step);
        hashes = optimal_hash_count(bits, expected_items);
    }
    return {bits, hashes};
}

/// The load at which a classic shape is optimal, round(m ln 2 / k), at least 1: the expected_items() of a
/// filter built from an explicit geometry.
[[nodiscard]] inline std::uint64_t optimal_load(filter_geometry geometry) noexcept {
    const double load = std::round(static_cast<double>(geometry.bit_count) * ln2 /
                                   static_cast<double>(geometry.hash_count == 0 ? 1 : geometry.hash_count));
    return load < 1.0 ? 1 : static_cast<std::uint64_t>(load);
}

inline void check_block_bits(const char* where, std::uint64_t bit_count) {
    check_bits(where, bit_count);
    if (bit_count % block_bits != 0) {
        throw_invalid_argument(where, "bit_count",
                               "must be a multiple of 512 (whole blocks), got " + std::to_string(bit_count));
    }
}

/// Throws std::invalid_argument unless `hash_count` is one the blocked pattern `probes` can place: 8 for
/// one_bit_per_word, 1 to 16 for bits_anywhere.
inline void check_block_hash_count(const char* where, unsigned hash_count, probe_scheme probes) {
    if (probes == probe_scheme::one_bit_per_word) {
        if (hash_count != block_word_count) {
            throw_invalid_argument(where, "hash_count",
                                   "must be 8 for probe_scheme::one_bit_per_word (one bit per word of a "
                                   "block), got " +
                                       std::to_string(hash_count));
        }
    } else if (probes == probe_scheme::bits_anywhere) {
        if (hash_count == 0 || hash_count > max_block_hash_count) {
            throw_invalid_argument(where, "hash_count",
                                   "must be in [1, 16] for probe_scheme::bits_anywhere, got " +
                                       std::to_string(hash_count));
        }
    } else {
        throw_invalid_argument(where, "probes",
                               "is not a blocked pattern: " + std::to_string(static_cast<unsigned>(probes)));
    }
}

// Putze, Sanders & Singler 2007: a blocked filter's rate is the one-block rate averaged over the
// Poisson-distributed number of items that share the query's block, lambda = n / blocks. Terms are summed
// outwards from the mode until they no longer change the sum. `block_rate(i)` is the rate of a block
// holding i items.
template <class BlockRate>
double poisson_average(double lambda, BlockRate&& block_rate) {
    const double log_lambda = std::log(lambda);
    const auto term = [&](double i) {
        return std::exp(i * log_lambda - lambda - std::lgamma(i + 1.0)) * block_rate(i);
    };
    const double mode = std::floor(lambda);
    double sum = 0.0;
    for (double i = mode;; ++i) {
        const double t = term(i);
        sum += t;
        if (i > lambda && !(t > sum * 1e-17)) {
            break;
        }
    }
    for (double i = mode - 1.0; i >= 1.0; --i) {
        const double t = term(i);
        sum += t;
        if (!(t > sum * 1e-17)) {
            break;
        }
    }
    return std::fmin(sum, 1.0);
}

// Crowded blocks (lambda > 4096, rate ~1): the sum would need ~sqrt(lambda) terms. With each of the `tested`
// bits of a query set by one of i items with probability 1 - q^i, independently, the closed form from the
// Poisson generating function is E[(1 - q^N)^e] = sum_j C(e, j) (-1)^j e^(-lambda (1 - q^j)); its
// cancellation error (~1e-14) is irrelevant here.
inline double crowded_block_rate(double lambda, double log_miss, unsigned tested) noexcept {
    double sum = 0.0;
    double binomial = 1.0;
    for (unsigned j = 0; j <= tested; ++j) {
        const double sign = j % 2 == 0 ? 1.0 : -1.0;
        sum += sign * binomial * std::exp(-lambda * -std::expm1(j * log_miss));
        binomial = binomial * (tested - j) / (j + 1);
    }
    return std::fmin(std::fmax(sum, 0.0), 1.0);
}

// one_bit_per_word: with i items in the block, each of the query's eight bits (one per 64-bit word) is set
// with probability 1 - (63/64)^i, independently.
inline double one_bit_per_word_rate(double lambda) {
    const double log_miss = std::log1p(-1.0 / 64.0);
    if (lambda > 4096.0) {
        return crowded_block_rate(lambda, log_miss, block_word_count);
    }
    return poisson_average(lambda, [&](double i) {
        return std::pow(-std::expm1(i * log_miss), static_cast<double>(block_word_count));
    });
}

/// The bits_anywhere rate of one block by the number of items in it, exactly. Each item sets k distinct
/// bits, a uniformly random k-subset of the 512, so the count X of set bits is a Markov chain: X -> X + j
/// with the hypergeometric probability C(512 - X, j) C(X, k - j) / C(512, k); a non-member's k distinct bits
/// are all set with probability C(X, k) / C(512, k). (Taking the query's bits as independent, fill^k,
/// understates the rate by 1% at 10 bits per item and 4% at 24.) The chain is run as far as asked, once.
class anywhere_block_rates {
  public:
    explicit anywhere_block_rates(unsigned hash_count)
        : m_hash_count(hash_count), m_steps((block_bits + 1) * (hash_count + 1), 0.0),
          m_hit(block_bits + 1, 0.0), m_state(block_bits + 1, 0.0), m_next(block_bits + 1, 0.0) {
        // log n! for n up to 512, once: the binomials below are sums of three of them.
        double log_factorial[block_bits + 1];
        log_factorial[0] = 0.0;
        for (unsigned n = 1; n <= block_bits; ++n) {
            log_factorial[n] = log_factorial[n - 1] + std::log(static_cast<double>(n));
        }
        const auto log_choose = [&](unsigned n, unsigned r) {
            return log_factorial[n] - log_factorial[r] - log_factorial[n - r];
        };
        const double log_subsets = log_choose(block_bits, hash_count);
        for (unsigned set = 0; set <= block_bits; ++set) {
            if (set >= hash_count) {
                m_hit[set] = std::exp(log_choose(set, hash_count) - log_subsets);
            }
            for (unsigned fresh = 0; fresh <= hash_count; ++fresh) {
                if (fresh <= block_bits - set && hash_count - fresh <= set) {
                    m_steps[set * (hash_count + 1) + fresh] =
                        std::exp(log_choose(block_bits - set, fresh) + log_choose(set, hash_count - fresh) -
                                 log_subsets);
                }
            }
        }
        m_state[0] = 1.0;
    }

    /// The rate of a block holding `items` items.
    double operator()(double items) {
        const auto wanted = static_cast<std::size_t>(items);
        while (m_rates.size() <= wanted) {
            if (m_low == block_bits) { // every bit set: every later block rate is 1
                m_rates.resize(wanted + 1, 1.0);
                break;
            }
            double rate = 0.0;
            for (std::size_t set = m_low; set <= m_high; ++set) {
                rate += m_state[set] * m_hit[set];
            }
            m_rates.push_back(rate);
            advance();
        }
        return m_rates[wanted];
    }

  private:
    // One more item. States below 1e-30 are dropped from the edges of the support: they move no rate above
    // 1e-30, and they keep the chain's cost to the width of its support instead of 513 states.
    void advance() {
        const std::size_t high = m_high + m_hash_count < block_bits ? m_high + m_hash_count : block_bits;
        std::fill(m_next.begin() + static_cast<std::ptrdiff_t>(m_low),
                  m_next.begin() + static_cast<std::ptrdiff_t>(high) + 1, 0.0);
        for (std::size_t set = m_low; set <= m_high; ++set) {
            const double here = m_state[set];
            const double* const step = &m_steps[set * (m_hash_count + 1)];
            for (std::size_t fresh = 0; fresh <= m_hash_count && set + fresh <= block_bits; ++fresh) {
                m_next[set + fresh] += here * step[fresh];
            }
        }
        m_state.swap(m_next);
        m_high = high;
        while (m_low < m_high && m_state[m_low] < 1e-30) {
            m_state[m_low++] = 0.0;
        }
        while (m_high > m_low && m_state[m_high] < 1e-30) {
            m_state[m_high--] = 0.0;
        }
    }

    unsigned m_hash_count;
    std::vector<double> m_steps; // (X, j) -> probability that one more item sets j new bits
    std::vector<double> m_hit;   // X -> probability that a non-member's bits are all set
    std::vector<double> m_state; // distribution of X after m_rates.size() items
    std::vector<double> m_next;
    std::size_t m_low = 0;
    std::size_t m_high = 0;
    std::vector<double> m_rates; // by items in the block
};

/// The bits_anywhere rate of `items` items in `bit_count` bits with k = `hash_count`. A block's rate by its
/// item count does not depend on the filter, so each k's chain is built once per program, on first use,
/// and shared (under a lock): sizing evaluates dozens of sizes, and every blocked filter is sized.
inline double anywhere_rate(std::uint64_t bit_count, std::uint64_t items, unsigned hash_count) {
    if (items == 0 || bit_count < block_bits || hash_count == 0) {
        return 0.0; // an empty filter (log(lambda) would be -inf and the sum NaN)
    }
    const double lambda = static_cast<double>(items) / static_cast<double>(bit_count / block_bits);
    if (lambda > 4096.0) {
        // Each of an item's k distinct bits is a given bit with probability k / 512.
        return crowded_block_rate(lambda, std::log1p(-static_cast<double>(hash_count) / block_bits),
                                  hash_count);
    }
    static std::mutex tables_mutex;
    static std::unique_ptr<anywhere_block_rates> tables[max_block_hash_count];
    const std::lock_guard<std::mutex> lock(tables_mutex);
    std::unique_ptr<anywhere_block_rates>& table = tables[hash_count - 1];
    if (!table) {
        table = std::make_unique<anywhere_block_rates>(hash_count);
    }
    return poisson_average(lambda, *table);
}

/// The expected rate of a blocked filter of `bit_count` bits holding `items` items, each setting
/// `hash_count` bits by the pattern `probes`. 0 for an empty filter.
inline double unchecked_blocked_false_positive_rate(std::uint64_t bit_count, std::uint64_t items,
                                                    unsigned hash_count, probe_scheme probes) {
    if (probes == probe_scheme::bits_anywhere) {
        return anywhere_rate(bit_count, items, hash_count);
    }
    if (items == 0 || bit_count < block_bits) {
        return 0.0;
    }
    return one_bit_per_word_rate(static_cast<double>(items) / static_cast<double>(bit_count / block_bits));
}

// The k in [1, 16] with the lowest bits_anywhere rate for `items` in `bit_count` bits. The rate is unimodal
// in k, so the search walks from an estimate of the optimum (about 0.62 m/n, below the classic
// (m/n) ln 2 for the crowding of blocks) towards lower rates: three or four evaluations instead of sixteen.
inline unsigned unchecked_optimal_blocked_hash_count(std::uint64_t bit_count, std::uint64_t items) {
    if (items == 0 || bit_count < block_bits) {
        return 1;
    }
    const auto rate = [&](unsigned k) { return anywhere_rate(bit_count, items, k); };
    const double guess = std::round(0.62 * static_cast<double>(bit_count) / static_cast<double>(items));
    unsigned best = guess < 1.0                    ? 1
                    : guess > max_block_hash_count ? max_block_hash_count
                                                   : static_cast<unsigned>(guess);
    double best_rate = rate(best);
    while (best > 1) {
        const double lower = rate(best - 1);
        if (!(lower <= best_rate)) {
            break;
        }
        --best;
        best_rate = lower;
    }
    while (best < max_block_hash_count) {
        const double higher = rate(best + 1);
        if (!(higher < best_rate)) {
            break;
        }
        ++best;
        best_rate = higher;
    }
    return best;
}

} // namespace detail

/// Expected false-positive rate of a blocked filter (bloom::blocked_bloom_filter's layout: 512-bit
/// blocks) of `bit_count` bits holding `items` items, each setting `hash_count` bits in one block by the
/// blocked pattern `probes` (Putze, Sanders & Singler 2007; docs/FORMAT.md). Throws std::invalid_argument
/// if bit_count is 0 or not a multiple of 512, items is 0, or hash_count does not suit the pattern (8 for
/// one_bit_per_word, 1 to 16 for bits_anywhere).
[[nodiscard]] inline double blocked_false_positive_rate(std::uint64_t bit_count, std::uint64_t items,
                                                        unsigned hash_count,
                                                        probe_scheme probes = probe_scheme::bits_anywhere) {
    constexpr const char* where = "bloom::blocked_false_positive_rate";
    detail::check_block_bits(where, bit_count);
    if (items == 0) {
        detail::throw_invalid_argument(where, "items", "must be at least 1, got 0");
    }
    detail::check_block_hash_count(where, hash_count, probes);
    return detail::unchecked_blocked_false_positive_rate(bit_count, items, hash_count, probes);
}

/// The bits each item sets in a blocked filter of `bit_count` bits sized for `items`: the k in [1, 16]
/// with the lowest blocked_false_positive_rate(bit_count, items, k). About 7 at 10 bits per item, 10 at
/// 16. Throws std::invalid_argument like blocked_false_positive_rate.
[[nodiscard]] inline unsigned optimal_blocked_hash_count(std::uint64_t bit_count, std::uint64_t items) {
    constexpr const char* where = "bloom::optimal_blocked_hash_count";
    detail::check_block_bits(where, bit_count);
    if (items == 0) {
        detail::throw_invalid_argument(where, "items", "must be at least 1, got 0");
    }
    return detail::unchecked_optimal_blocked_hash_count(bit_count, items);
}

/// Expected false-positive rate of a blocked filter of `bit_count` bits sized for `items` (k from
/// optimal_blocked_hash_count) once it holds them: what blocked_bloom_filter(items, rate) promises.
/// Throws std::invalid_argument like blocked_false_positive_rate.
[[nodiscard]] inline double blocked_false_positive_rate(std::uint64_t bit_count, std::uint64_t items) {
    return blocked_false_positive_rate(bit_count, items, optimal_blocked_hash_count(bit_count, items));
}

namespace detail {

/// optimal_blocked_bit_count, its errors naming `where`.
[[nodiscard]] inline std::uint64_t sized_blocked_bit_count(std::uint64_t expected_items,
                                                           double false_positive_rate, probe_scheme probes,
                                                           const char* where) {
    detail::check_items(where, expected_items);
    detail::check_rate(where, false_positive_rate);
    if (probes != probe_scheme::bits_anywhere && probes != probe_scheme::one_bit_per_word) {
        detail::throw_invalid_argument(
            where, "probes", "is not a blocked pattern: " + std::to_string(static_cast<unsigned>(probes)));
    }
    const auto too_large = [&] {
        detail::throw_invalid_argument(
            where, "expected_items",
            std::to_string(expected_items) + " at false_positive_rate " +
                detail::to_display(false_positive_rate) +
                " needs more bits than fit in 64 bits or in this platform's memory");
    };
    const std::uint64_t max_blocks = detail::max_addressable_bits() / detail::block_bits;
    const auto rate_of = [&](std::uint64_t blocks) {
        const std::uint64_t bits = blocks * detail::block_bits;
        if (probes == probe_scheme::one_bit_per_word) {
            return detail::unchecked_blocked_false_positive_rate(
                bits, expected_items, detail::block_word_count, probe_scheme::one_bit_per_word);
        }
        return detail::anywhere_rate(bits, expected_items,
                                     detail::unchecked_optimal_blocked_hash_count(bits, expected_items));
    };
    // A blocked filter never beats the classic one at equal memory: the classic size bounds from below.
    const double classic_bits =
        -static_cast<double>(expected_items) * std::log(false_positive_rate) / (detail::ln2 * detail::ln2);
    if (!(classic_bits / static_cast<double>(detail::block_bits) < static_cast<double>(max_blocks))) {
        too_large();
    }
    std::uint64_t low = static_cast<std::uint64_t>(classic_bits / static_cast<double>(detail::block_bits));
    low = low < 1 ? 1 : low;
    if (rate_of(low) <= false_positive_rate) {
        return low * detail::block_bits;
    }
    std::uint64_t high = low;
    do {
        if (high > max_blocks / 2) {
            if (rate_of(max_blocks) > false_positive_rate) {
                too_large();
            }
            high = max_blocks;
            break;
        }
        low = high;
        high *= 2;
    } while (rate_of(high) > false_positive_rate);
    // Invariant: rate_of(low) > target >= rate_of(high).
    while (high - low > 1) {
        const std::uint64_t middle = low + (high - low) / 2;
        (rate_of(middle) > false_positive_rate ? low : high) = middle;
    }
    return high * detail::block_bits;
}

} // namespace detail

/// The fewest bits, in whole 512-bit blocks, for which a blocked filter holding `expected_items` stays at
/// or below `false_positive_rate` by blocked_false_positive_rate(bits, expected_items), k chosen for it.
/// Needs a little more than optimal_bit_count (about 9.9 bits per item at 1% where the classic layout needs
/// 9.6). Throws std::invalid_argument like optimal_bit_count.
/// With `probes` one_bit_per_word: the fewest bits for the original pattern (k = 8), about 10.1 bits per
/// item at 1%, for a filter built from filter_geometry{bits, 8, probe_scheme::one_bit_per_word}: its inserts
/// are faster (one SIMD update of the block where bits_anywhere sets k bits one by one).
[[nodiscard]] inline std::uint64_t
optimal_blocked_bit_count(std::uint64_t expected_items, double false_positive_rate,
                          probe_scheme probes = probe_scheme::bits_anywhere) {
    return detail::sized_blocked_bit_count(expected_items, false_positive_rate, probes,
                                           "bloom::optimal_blocked_bit_count");
}

namespace detail {

/// The shape blocked filters size themselves to: optimal_blocked_bit_count bits, optimal_blocked_hash_count
/// bits per item, bits anywhere in the block. Throws as optimal_blocked_bit_count does, naming `where`.
[[nodiscard]] inline filter_geometry optimal_blocked_geometry(std::uint64_t expected_items,
                                                              double false_positive_rate, const char* where) {
    const std::uint64_t bit_count =
        sized_blocked_bit_count(expected_items, false_positive_rate, probe_scheme::bits_anywhere, where);
    return {bit_count, unchecked_optimal_blocked_hash_count(bit_count, expected_items),
            probe_scheme::bits_anywhere};
}

/// Stage `index` of a scalable filter before its capacity is rounded: n0 s^i items at rate p (1 - r) r^i
/// (Almeida et al. 2007, section 4). From the closed form rather than by repeated multiplication, so no
/// rounding accumulates over the stages. The filter sizes its stages by it and the loader checks saved
/// stages against it.
struct scalable_stage_target {
    double capacity;
    double rate;
};

[[nodiscard]] inline scalable_stage_target scalable_stage(std::uint64_t initial_capacity,
                                                          double false_positive_rate, double growth_factor,
                                                          double tightening_ratio,
                                                          std::size_t index) noexcept {
    const double exponent = static_cast<double>(index);
    return {static_cast<double>(initial_capacity) * std::pow(growth_factor, exponent),
            false_positive_rate * (1.0 - tightening_ratio) * std::pow(tightening_ratio, exponent)};
}

} // namespace detail

} // namespace bloom

#endif // BLOOM_SIZING_HPP
