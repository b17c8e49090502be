// SPDX-License-Identifier: MIT
//
// Insert and lookup cost of bloom::bloom_filter next to two baselines, at 10^6 and 10^7 items, 1% rate:
//
//   bloom_*          bloom::bloom_filter<Key>: one seeded XXH3 per item, k positions by enhanced double
//                    hashing, multiply-shift onto [0, m).
//   textbook_*       the filter many write first, with the same m and k: k seeded XXH3 calls per item,
//                    each mapped with % m.
//   unordered_set_*  std::unordered_set<Key> (exact, no false positives), reserved for n items.
//
// Keys: random std::uint64_t (splitmix64) and random 16-character std::string. Every structure is
// built once per (size, key type) and cached; lookups walk members in a shuffled order (hit) or keys
// never inserted (miss). Insert benchmarks time filling the cleared structure with all n keys.
// Counters: per_item (time per operation), bits_per_item (memory; for the set its allocations as
// counted by its allocator, plus the strings' own buffers) and fpr (measured on all n miss keys).

// The textbook filter calls XXH3 itself; inline it, as bloom does.
#ifndef XXH_INLINE_ALL
#    define XXH_INLINE_ALL
#endif

#include <algorithm>
#include <benchmark/benchmark.h>
#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>
#include <xxhash.h>

namespace {

constexpr double target_rate = 0.01;

// ---- keys ----

/// splitmix64 (Steele, Lea & Flood 2014): a fast, well-mixed, reproducible stream of 64-bit values.
class splitmix64 {
  public:
    explicit splitmix64(std::uint64_t seed) noexcept : m_state(seed) {}

    std::uint64_t operator()() noexcept {
        std::uint64_t value = (m_state += 0x9e3779b97f4a7c15ULL);
        value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
        value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
        return value ^ (value >> 31);
    }

  private:
    std::uint64_t m_state;
};

/// A random std::uint64_t, or 16 characters from a 64-letter alphabet (96 random bits): longer than
/// the in-place capacity of libstdc++, libc++ and MSVC strings, so each key owns a heap buffer as most
/// real string keys do.
template <class Key>
Key make_key(splitmix64& random) {
    if constexpr (std::is_same_v<Key, std::uint64_t>) {
        return random();
    } else {
        static constexpr char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
        Key key(16, ' ');
        std::uint64_t bits = 0;
        for (std::size_t i = 0; i < key.size(); ++i) {
            if (i % 8 == 0) {
                bits = random();
            }
            key[i] = alphabet[bits & 63];
            bits >>= 6;
        }
        return key;
    }
}

template <class Key>
struct key_set {
    std::vector<Key> members; // insertion order
    std::vector<Key> hits;    // the members again, shuffled, each copied afresh in its new order
    std::vector<Key> misses;  // never inserted
};

/// The keys for n items, generated once per (key type, n) from a fixed seed.
template <class Key>
const key_set<Key>& keys_for(std::size_t item_count) {
    static std::map<std::size_t, std::unique_ptr<key_set<Key>>> cache;
    std::unique_ptr<key_set<Key>>& slot = cache[item_count];
    if (!slot) {
        slot = std::make_unique<key_set<Key>>();
        splitmix64 random(0x5eed0000 + item_count);
        slot->members.reserve(item_count);
        slot->misses.reserve(item_count);
        for (std::size_t i = 0; i < item_count; ++i) {
            slot->members.push_back(make_key<Key>(random));
        }
        for (std::size_t i = 0; i < item_count; ++i) {
            slot->misses.push_back(make_key<Key>(random));
        }
        // Copying in the shuffled order also lays the strings' buffers out in lookup order, so a lookup
        // pays for the structure's memory, not for fetching its key.
        std::vector<std::size_t> order(item_count);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), std::mt19937_64(item_count));
        slot->hits.reserve(item_count);
        for (const std::size_t index : order) {
            slot->hits.push_back(slot->members[index]);
        }
    }
    return *slot;
}

// ---- the structures under test ----

template <class Key>
class bloom_subject {
  public:
    using key_type = Key;

    explicit bloom_subject(std::size_t item_count) : m_filter(item_count, target_rate) {}

    bool insert(const Key& key) { return m_filter.insert(key); }
    [[nodiscard]] bool contains(const Key& key) const { return m_filter.contains(key); }
    void clear() { m_filter.clear(); }
    [[nodiscard]] double memory_bits() const { return static_cast<double>(m_filter.bit_count()); }

  private:
    bloom::bloom_filter<Key> m_filter;
};

/// The textbook Bloom filter: k independent seeded hashes of the key's bytes, each reduced with % m.
template <class Key>
class textbook_bloom_filter {
  public:
    textbook_bloom_filter(std::uint64_t bit_count, unsigned hash_count)
        : m_words(static_cast<std::size_t>((bit_count + 63) / 64)), m_bit_count(bit_count),
          m_hash_count(hash_count) {}

    void insert(const Key& key) {
        for (unsigned i = 0; i < m_hash_count; ++i) {
            const std::uint64_t position = XXH3_64bits_withSeed(data(key), size(key), i) % m_bit_count;
            m_words[position / 64] |= std::uint64_t{1} << (position % 64);
        }
    }

    [[nodiscard]] bool contains(const Key& key) const {
        for (unsigned i = 0; i < m_hash_count; ++i) {
            const std::uint64_t position = XXH3_64bits_withSeed(data(key), size(key), i) % m_bit_count;
            if ((m_words[position / 64] & (std::uint64_t{1} << (position % 64))) == 0) {
                return false;
            }
        }
        return true;
    }

    void clear() { std::fill(m_words.begin(), m_words.end(), std::uint64_t{0}); }
    [[nodiscard]] std::uint64_t bit_count() const { return m_bit_count; }

  private:
    static const void* data(const std::uint64_t& key) { return &key; }
    static std::size_t size(const std::uint64_t& key) { return sizeof key; }
    static const void* data(const std::string& key) { return key.data(); }
    static std::size_t size(const std::string& key) { return key.size(); }

    std::vector<std::uint64_t> m_words;
    std::uint64_t m_bit_count;
    unsigned m_hash_count;
};

template <class Key>
class textbook_subject {
  public:
    using key_type = Key;

    explicit textbook_subject(std::size_t item_count) : m_filter(sized_for(item_count)) {}

    bool insert(const Key& key) {
        m_filter.insert(key);
        return true;
    }
    [[nodiscard]] bool contains(const Key& key) const { return m_filter.contains(key); }
    void clear() { m_filter.clear(); }
    [[nodiscard]] double memory_bits() const { return static_cast<double>(m_filter.bit_count()); }

  private:
    /// The same m and k as bloom::bloom_filter<Key>(item_count, target_rate).
    static textbook_bloom_filter<Key> sized_for(std::size_t item_count) {
        const std::uint64_t bit_count = bloom::optimal_bit_count(item_count, target_rate);
        return textbook_bloom_filter<Key>(bit_count, bloom::optimal_hash_count(bit_count, item_count));
    }

    textbook_bloom_filter<Key> m_filter;
};

/// Forwards to std::allocator and adds up the bytes currently allocated, so the set's memory is measured.
template <class T>
class counting_allocator {
  public:
    using value_type = T;

    explicit counting_allocator(std::size_t* bytes) noexcept : m_bytes(bytes) {}
    template <class U>
    counting_allocator(const counting_allocator<U>& other) noexcept : m_bytes(other.counter()) {}

    T* allocate(std::size_t count) {
        T* const memory = std::allocator<T>().allocate(count);
        *m_bytes += count * sizeof(T);
        return memory;
    }
    void deallocate(T* memory, std::size_t count) noexcept {
        *m_bytes -= count * sizeof(T);
        std::allocator<T>().deallocate(memory, count);
    }
    [[nodiscard]] std::size_t* counter() const noexcept { return m_bytes; }

  private:
    std::size_t* m_bytes;
};

template <class T, class U>
bool operator==(const counting_allocator<T>& left, const counting_allocator<U>& right) noexcept {
    return left.counter() == right.counter();
}
template <class T, class U>
bool operator!=(const counting_allocator<T>& left, const counting_allocator<U>& right) noexcept {
    return !(left == right);
}

/// Heap bytes a key owns beyond its own object: a string's buffer when it is not stored in place.
std::size_t owned_bytes(const std::uint64_t&) { return 0; }
std::size_t owned_bytes(const std::string& key) {
    // An empty string's capacity is the in-place capacity; a longer string lives in a heap buffer.
    return key.capacity() > std::string().capacity() ? key.capacity() + 1 : 0;
}

template <class Key>
class unordered_set_subject {
  public:
    using key_type = Key;

    explicit unordered_set_subject(std::size_t item_count)
        : m_bytes(std::make_unique<std::size_t>(0)), m_set(0, counting_allocator<Key>(m_bytes.get())) {
        m_set.reserve(item_count);
    }

    bool insert(const Key& key) { return m_set.insert(key).second; }
    [[nodiscard]] bool contains(const Key& key) const { return m_set.find(key) != m_set.end(); }
    void clear() { m_set.clear(); }
    [[nodiscard]] double memory_bits() const {
        std::size_t bytes = *m_bytes;
        for (const Key& key : m_set) {
            bytes += owned_bytes(key);
        }
        return 8.0 * static_cast<double>(bytes);
    }

  private:
    std::unique_ptr<std::size_t> m_bytes; // stays put when the subject moves
    std::unordered_set<Key, std::hash<Key>, std::equal_to<Key>, counting_allocator<Key>> m_set;
};

using bloom_u64 = bloom_subject<std::uint64_t>;
using bloom_str16 = bloom_subject<std::string>;
using textbook_u64 = textbook_subject<std::uint64_t>;
using textbook_str16 = textbook_subject<std::string>;
using unordered_set_u64 = unordered_set_subject<std::uint64_t>;
using unordered_set_str16 = unordered_set_subject<std::string>;

// ---- built structures, cached ----

template <class Subject>
struct built_subject {
    Subject subject;
    double bits_per_item;
    double false_positive_rate;
};

/// The structure holding all n member keys, built once per (Subject, n), with its measured rate.
template <class Subject>
built_subject<Subject>& built_for(std::size_t item_count) {
    static std::map<std::size_t, std::unique_ptr<built_subject<Subject>>> cache;
    std::unique_ptr<built_subject<Subject>>& slot = cache[item_count];
    if (!slot) {
        const auto& keys = keys_for<typename Subject::key_type>(item_count);
        Subject subject(item_count);
        for (const auto& key : keys.members) {
            subject.insert(key);
        }
        std::size_t positives = 0;
        for (const auto& key : keys.misses) {
            positives += subject.contains(key) ? 1 : 0;
        }
        const double count = static_cast<double>(item_count);
        const double bits_per_item = subject.memory_bits() / count;
        slot = std::make_unique<built_subject<Subject>>(built_subject<Subject>{
            std::move(subject), bits_per_item, static_cast<double>(positives) / count});
    }
    return *slot;
}

template <class Subject>
void report(benchmark::State& state, const built_subject<Subject>& built, std::size_t items_per_iteration) {
    const auto items =
        static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(items_per_iteration);
    state.SetItemsProcessed(items);
    state.counters["per_item"] = benchmark::Counter(
        static_cast<double>(items), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["bits_per_item"] = built.bits_per_item;
    state.counters["fpr"] = built.false_positive_rate;
}

// ---- benchmarks ----

/// Each iteration clears the cached structure (not timed) and fills it again with all n member keys, so
/// it ends as the lookups expect it.
template <class Subject>
void BM_insert(benchmark::State& state) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const auto& keys = keys_for<typename Subject::key_type>(item_count).members;
    built_subject<Subject>& built = built_for<Subject>(item_count);
    for (auto _ : state) {
        state.PauseTiming();
        built.subject.clear();
        state.ResumeTiming();
        for (const auto& key : keys) {
            benchmark::DoNotOptimize(built.subject.insert(key));
        }
        benchmark::ClobberMemory();
    }
    report(state, built, item_count);
}

/// One lookup of a member per iteration, walking the members in shuffled order.
template <class Subject>
void BM_lookup_hit(benchmark::State& state) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const auto& keys = keys_for<typename Subject::key_type>(item_count).hits;
    const auto& built = built_for<Subject>(item_count);
    std::size_t next = 0;
    std::size_t found = 0;
    for (auto _ : state) {
        const bool present = built.subject.contains(keys[next]);
        benchmark::DoNotOptimize(present);
        found += present ? 1 : 0;
        next = next + 1 == keys.size() ? 0 : next + 1;
    }
    if (found != static_cast<std::size_t>(state.iterations())) {
        state.SkipWithError("an inserted key was not found");
    }
    report(state, built, 1);
}

/// One lookup of a key never inserted per iteration.
template <class Subject>
void BM_lookup_miss(benchmark::State& state) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const auto& keys = keys_for<typename Subject::key_type>(item_count).misses;
    const auto& built = built_for<Subject>(item_count);
    std::size_t next = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(built.subject.contains(keys[next]));
        next = next + 1 == keys.size() ? 0 : next + 1;
    }
    report(state, built, 1);
}

#define BLOOM_FILTER_BENCH(family, subject)                                                                  \
    BENCHMARK_TEMPLATE(family, subject)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kNanosecond)

#define BLOOM_FILTER_BENCH_ALL(subject)                                                                      \
    BLOOM_FILTER_BENCH(BM_insert, subject);                                                                  \
    BLOOM_FILTER_BENCH(BM_lookup_hit, subject);                                                              \
    BLOOM_FILTER_BENCH(BM_lookup_miss, subject)

BLOOM_FILTER_BENCH_ALL(bloom_u64);
BLOOM_FILTER_BENCH_ALL(textbook_u64);
BLOOM_FILTER_BENCH_ALL(unordered_set_u64);
BLOOM_FILTER_BENCH_ALL(bloom_str16);
BLOOM_FILTER_BENCH_ALL(textbook_str16);
BLOOM_FILTER_BENCH_ALL(unordered_set_str16);

} // namespace
