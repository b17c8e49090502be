// SPDX-License-Identifier: MIT
#ifndef BLOOM_BENCH_KEYS_HPP
#define BLOOM_BENCH_KEYS_HPP

// The benchmark keys: random std::uint64_t, and random 16-character strings packed back to back in one
// buffer and handed out as std::string_view. 10^8 string keys take 1.6 GB that way; as std::string
// objects with their own heap buffers they would take about 6.4 GB per key array.
//
// A key_set holds four arrays of n keys, generated once from a fixed seed: the members (insertion
// order), the members again in a shuffled order (hits), keys never inserted (misses), and a shuffled
// 50/50 mix of members and non-members. Each array is laid out in the order it is read, so a lookup pays
// for the structure's memory, not for fetching its key.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <random>
#include <string_view>
#include <vector>

namespace bench {

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

/// `count` strings of `width` characters stored back to back; element i is a std::string_view.
class string_key_array {
  public:
    static constexpr std::size_t width = 16;

    /// A read-only iterator whose elements are std::string_view values (so, formally, an input iterator).
    class iterator {
      public:
        using iterator_category = std::input_iterator_tag;
        using value_type = std::string_view;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::string_view;

        explicit iterator(const char* position) noexcept : m_position(position) {}
        std::string_view operator*() const noexcept { return std::string_view(m_position, width); }
        iterator& operator++() noexcept {
            m_position += width;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator old = *this;
            m_position += width;
            return old;
        }
        friend bool operator==(iterator left, iterator right) noexcept {
            return left.m_position == right.m_position;
        }
        friend bool operator!=(iterator left, iterator right) noexcept { return !(left == right); }

      private:
        const char* m_position;
    };

    string_key_array() = default;
    explicit string_key_array(std::size_t count) : m_chars(new char[count * width]), m_count(count) {}

    [[nodiscard]] std::size_t size() const noexcept { return m_count; }
    std::string_view operator[](std::size_t index) const noexcept {
        return std::string_view(m_chars.get() + index * width, width);
    }
    [[nodiscard]] char* slot(std::size_t index) noexcept { return m_chars.get() + index * width; }
    [[nodiscard]] iterator begin() const noexcept { return iterator(m_chars.get()); }
    [[nodiscard]] iterator end() const noexcept { return iterator(m_chars.get() + m_count * width); }

  private:
    std::unique_ptr<char[]> m_chars; // left uninitialised: every key is written once before use
    std::size_t m_count = 0;
};

/// std::uint64_t keys.
struct u64_keys {
    static constexpr const char* name = "u64";
    using key_type = std::uint64_t;
    using array = std::vector<std::uint64_t>;
    /// The element type of filters over these keys.
    using filter_value = std::uint64_t;

    static array make_array(std::size_t count) { return array(count); }
    static void generate(array& keys, std::size_t index, splitmix64& random) { keys[index] = random(); }
    static void copy(array& to, std::size_t to_index, const array& from, std::size_t from_index) {
        to[to_index] = from[from_index];
    }
};

/// 16-character keys from a 64-letter alphabet (96 random bits each), as std::string_view. Filters over
/// them are bloom_filter<std::string> and are queried with the views, as the library intends.
struct str16_keys {
    static constexpr const char* name = "str16";
    using key_type = std::string_view;
    using array = string_key_array;
    using filter_value = std::string;

    static array make_array(std::size_t count) { return array(count); }
    static void generate(array& keys, std::size_t index, splitmix64& random) {
        static constexpr char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
        char* const key = keys.slot(index);
        std::uint64_t bits = 0;
        for (std::size_t i = 0; i < array::width; ++i) {
            if (i % 8 == 0) {
                bits = random();
            }
            key[i] = alphabet[bits & 63];
            bits >>= 6;
        }
    }
    static void copy(array& to, std::size_t to_index, const array& from, std::size_t from_index) {
        std::memcpy(to.slot(to_index), from[from_index].data(), array::width);
    }
};

template <class Keys>
struct key_set {
    typename Keys::array members; // insertion order
    typename Keys::array hits;    // the members, shuffled
    typename Keys::array misses;  // never inserted
    typename Keys::array mixed;   // shuffled: element i is a member if the permutation's value is even
};

/// All four arrays for n keys, from a seed fixed per n.
template <class Keys>
key_set<Keys> make_key_set(std::size_t item_count) {
    key_set<Keys> keys{Keys::make_array(item_count), Keys::make_array(item_count),
                       Keys::make_array(item_count), Keys::make_array(item_count)};
    splitmix64 random(0x5eed0000 + item_count);
    for (std::size_t i = 0; i < item_count; ++i) {
        Keys::generate(keys.members, i, random);
    }
    for (std::size_t i = 0; i < item_count; ++i) {
        Keys::generate(keys.misses, i, random);
    }
    // One permutation serves both shuffled arrays: hits[i] = members[order[i]], and mixed[i] is that same
    // member when order[i] is even and misses[order[i]] when it is odd, so half of it are members.
    std::vector<std::uint32_t> order(item_count);
    std::iota(order.begin(), order.end(), std::uint32_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(item_count));
    for (std::size_t i = 0; i < item_count; ++i) {
        Keys::copy(keys.hits, i, keys.members, order[i]);
        Keys::copy(keys.mixed, i, order[i] % 2 == 0 ? keys.members : keys.misses, order[i]);
    }
    return keys;
}

} // namespace bench

#endif // BLOOM_BENCH_KEYS_HPP
