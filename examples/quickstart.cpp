// SPDX-License-Identifier: MIT
//
// quickstart: what a Bloom filter promises, and what it costs, in one short run.
//
// Sizes a bloom::bloom_filter<std::string> for 1,000,000 e-mail addresses at a 1% false-positive rate and
// prints its shape; inserts the addresses and checks that every one is found (a Bloom filter never gives
// a false negative); measures its rate on 1,000,000 addresses it never saw, next to the formula's; measures
// the memory a std::unordered_set of the same strings takes; and shows how the rate falls as each item
// gets more bits.
//
// smoke-test:

#include "support/example_support.hpp"

#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

namespace {

using example_support::grouped;
using example_support::mebibytes;

std::string email(std::uint64_t number) { return "user-" + std::to_string(number) + "@example.com"; }

/// Share of the addresses numbered [first, first + count) that `filter` reports as present.
double measured_rate(const bloom::bloom_filter<std::string>& filter, std::uint64_t first,
                     std::uint64_t count) {
    std::uint64_t positives = 0;
    for (std::uint64_t i = first; i < first + count; ++i) {
        positives += filter.contains(email(i)) ? 1 : 0;
    }
    return static_cast<double>(positives) / static_cast<double>(count);
}

/// A minimal allocator that adds every allocation to a shared byte counter and subtracts every release.
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

    std::size_t* counter() const noexcept { return m_bytes; }

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

// The set's strings allocate through the counter too, so their heap buffers are counted with the set's
// nodes and buckets.
using counted_string = std::basic_string<char, std::char_traits<char>, counting_allocator<char>>;

struct counted_string_hash {
    std::size_t operator()(const counted_string& text) const noexcept {
        return std::hash<std::string_view>()(std::string_view(text));
    }
};

using counted_set = std::unordered_set<counted_string, counted_string_hash, std::equal_to<counted_string>,
                                       counting_allocator<counted_string>>;

} // namespace

int main() {
    constexpr std::uint64_t item_count = 1'000'000;
    constexpr std::uint64_t query_count = 1'000'000;

    bloom::bloom_filter<std::string> filter(item_count, 0.01);
    std::printf("A Bloom filter for %s strings at a 1%% false-positive rate\n", grouped(item_count).c_str());
    std::printf("  bits (m)         %s\n", grouped(filter.bit_count()).c_str());
    std::printf("  hashes (k)       %u\n", filter.hash_count());
    std::printf("  memory           %s bytes (%s)\n", grouped(filter.memory_bytes()).c_str(),
                mebibytes(filter.memory_bytes()).c_str());
    std::printf("  bits per item    %.2f\n\n",
                static_cast<double>(filter.bit_count()) / static_cast<double>(item_count));

    for (std::uint64_t i = 0; i < item_count; ++i) {
        filter.insert(email(i));
    }
    std::uint64_t false_negatives = 0;
    for (std::uint64_t i = 0; i < item_count; ++i) {
        false_negatives += filter.contains(email(i)) ? 0 : 1;
    }
    // Addresses numbered from item_count on were never inserted.
    const double rate = measured_rate(filter, item_count, query_count);
    const double formula = bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), item_count);
    std::printf("Inserted %s addresses (\"%s\" ... \"%s\")\n", grouped(item_count).c_str(), email(0).c_str(),
                email(item_count - 1).c_str());
    std::printf("  false negatives  %s of %s members checked\n", grouped(false_negatives).c_str(),
                grouped(item_count).c_str());
    std::printf("  false positives  %.3f%% of %s non-members (formula: %.3f%%)\n\n", 100.0 * rate,
                grouped(query_count).c_str(), 100.0 * formula);
    if (false_negatives != 0) {
        std::fprintf(stderr, "error: a Bloom filter must never miss an inserted item\n");
        return EXIT_FAILURE;
    }

    std::size_t set_bytes = 0;
    {
        const counting_allocator<char> allocator(&set_bytes);
        counted_set set(0, counted_set::allocator_type(allocator));
        for (std::uint64_t i = 0; i < item_count; ++i) {
            set.emplace(std::string_view(email(i)), allocator);
        }
        std::printf("A std::unordered_set of the same %s strings\n", grouped(set.size()).c_str());
        std::printf("  memory           %s bytes (%s): %.1fx the filter\n", grouped(set_bytes).c_str(),
                    mebibytes(set_bytes).c_str(),
                    static_cast<double>(set_bytes) / static_cast<double>(filter.memory_bytes()));
        std::printf("  (counted by its allocator: nodes, buckets and the strings' own buffers)\n\n");
    }

    constexpr std::uint64_t table_items = 100'000;
    std::printf("Memory for accuracy: %s items, %s non-member queries per row\n",
                grouped(table_items).c_str(), grouped(query_count).c_str());
    std::printf("  bits per item  hashes (k)  formula rate  measured rate\n");
    for (const std::uint64_t bits_per_item : {4u, 10u, 14u}) {
        const std::uint64_t bit_count = bits_per_item * table_items;
        const unsigned hash_count = bloom::optimal_hash_count(bit_count, table_items);
        bloom::bloom_filter<std::string> sized(bloom::filter_geometry{bit_count, hash_count});
        for (std::uint64_t i = 0; i < table_items; ++i) {
            sized.insert(email(i));
        }
        std::printf("  %13llu  %10u  %11.3f%%  %12.3f%%\n", static_cast<unsigned long long>(bits_per_item),
                    hash_count, 100.0 * bloom::false_positive_rate(bit_count, hash_count, table_items),
                    100.0 * measured_rate(sized, table_items, query_count));
    }
    return EXIT_SUCCESS;
}
