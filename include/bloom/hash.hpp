// SPDX-License-Identifier: MIT
#ifndef BLOOM_HASH_HPP
#define BLOOM_HASH_HPP

// Seeded hashing for Bloom filters.
//
// A Hasher is any callable `std::uint64_t(const K& value, std::uint64_t seed)`. The default,
// bloom::hash<T>, hashes a canonical form of the value, so the same value hashes the same on every
// platform and filters built anywhere can be merged and loaded:
// - integers (widened to 64 bits, signed ones sign-extended), bool, enums, float and double (IEEE bits,
//   -0.0 as 0.0, one NaN) are one 64-bit word, hashed inline by two seeded multiply-fold rounds: a few
//   cycles, where a general byte hash costs more than the filter's own work;
// - strings, containers of scalars and wider scalars run xxHash's XXH3 with the seed over their bytes.
// bloom::xxh3_hash<T> runs XXH3 for every type: the default hasher of files saved before the integer path
// (their hasher id says XXH3), which load through it.
//
//     bloom::hash<std::string> h;
//     std::uint64_t a = h(std::string("abc"), bloom::default_seed);
//     std::uint64_t b = h("abc", bloom::default_seed);                     // == a, no allocation
//     std::uint64_t c = h(std::string_view("abc"), bloom::default_seed);   // == a
//
// A user type plugs in by specialising bloom::hash<UserType>, or by passing any callable as Hasher.
// A hasher that does not declare `using is_avalanching = void;` gets one extra mixing step from the
// filters, so even std::hash<int> (the identity on libstdc++) gives the formula's rate; bloom::
// std_hash_adapter<T> does that mixing for you.

#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/detail/xxhash.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace bloom {

/// The seed used when none is given: fixed and documented, so filters built in different processes,
/// on different machines, are compatible (mergeable, loadable). Use random_seed() for untrusted input.
inline constexpr std::uint64_t default_seed = 0x626c6f6f6d5f7631ULL; // "bloom_v1" in ASCII

/// A fresh seed from std::random_device. A secret per-filter seed stops an attacker from crafting keys
/// that all look present (hash flooding); keep it with the filter, or the filter cannot be reloaded.
[[nodiscard]] inline std::uint64_t random_seed() {
    std::random_device device;
    const auto high = static_cast<std::uint64_t>(device());
    const auto low = static_cast<std::uint64_t>(device());
    return (high << 32) ^ low;
}

namespace detail {

template <class T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

/// XXH3 over raw bytes with a seed: the one place every default hash ends up.
[[nodiscard]] inline std::uint64_t hash_bytes(const void* data, std::size_t size,
                                              std::uint64_t seed) noexcept {
    return static_cast<std::uint64_t>(XXH3_64bits_withSeed(data, size, static_cast<XXH64_hash_t>(seed)));
}

[[nodiscard]] inline std::uint64_t hash_u64(std::uint64_t value, std::uint64_t seed) noexcept {
    unsigned char bytes[8];
    store_little_endian(bytes, value, sizeof bytes);
    return hash_bytes(bytes, sizeof bytes, seed);
}

// ---- strings: std::string, std::string_view, const char*, char arrays all hash their characters ----

template <class K>
struct is_string_like : std::false_type {};
template <class Traits, class Allocator>
struct is_string_like<std::basic_string<char, Traits, Allocator>> : std::true_type {};
template <class Traits>
struct is_string_like<std::basic_string_view<char, Traits>> : std::true_type {};
template <>
struct is_string_like<const char*> : std::true_type {};
template <>
struct is_string_like<char*> : std::true_type {};
template <std::size_t N>
struct is_string_like<char[N]> : std::true_type {};
template <std::size_t N>
struct is_string_like<const char[N]> : std::true_type {};

template <class K>
inline constexpr bool is_string_like_v = is_string_like<remove_cvref_t<K>>::value;

template <class K>
[[nodiscard]] std::string_view string_bytes(const K& value) noexcept {
    using key = remove_cvref_t<K>;
    if constexpr (std::is_pointer_v<key>) {
        return value == nullptr ? std::string_view() : std::string_view(value);
    } else if constexpr (std::is_array_v<key>) {
        // A char array holds a C string: stop at its terminator, or at its end if it has none.
        const std::size_t capacity = std::extent_v<key>;
        const void* terminator = std::memchr(value, '\0', capacity);
        const std::size_t length =
            terminator == nullptr ? capacity
                                  : static_cast<std::size_t>(static_cast<const char*>(terminator) - value);
        return std::string_view(value, length);
    } else {
        return std::string_view(value.data(), value.size());
    }
}

// ---- scalars: canonical little-endian bytes ----

template <class K>
inline constexpr bool is_scalar_key_v = std::is_arithmetic_v<K> || std::is_enum_v<K>;

/// Writes the canonical bytes of a scalar into `out` (at most 16) and returns how many.
/// Integers, bool and enums: widened to 64 bits (128 for wider types), little-endian. Floating point:
/// IEEE bits at the type's own width with -0.0 folded into 0.0 and every NaN into one.
template <class K>
std::size_t canonical_scalar_bytes(K value, unsigned char* out) noexcept {
    if constexpr (std::is_enum_v<K>) {
        return canonical_scalar_bytes(static_cast<std::underlying_type_t<K>>(value), out);
    } else if constexpr (std::is_integral_v<K>) {
        if constexpr (sizeof(K) <= 8) {
            // Sign-extends signed types, so int and std::int64_t agree on every value they share.
            using wide = std::conditional_t<std::is_signed_v<K>, std::int64_t, std::uint64_t>;
            store_little_endian(out, static_cast<std::uint64_t>(static_cast<wide>(value)), 8);
            return 8;
        } else {
            static_assert(sizeof(K) == 16, "bloom::hash supports integers of up to 128 bits");
            store_little_endian(out, static_cast<std::uint64_t>(value), 8);
            store_little_endian(out + 8, static_cast<std::uint64_t>(value >> 64), 8);
            return 16;
        }
    } else {
        static_assert(std::is_floating_point_v<K>);
        if (value == K(0)) {
            value = K(0);
        } else if (std::isnan(value)) {
            value = std::numeric_limits<K>::quiet_NaN();
        }
        if constexpr (sizeof(K) == 4 && std::numeric_limits<K>::is_iec559) {
            std::uint32_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            store_little_endian(out, bits, 4);
            return 4;
        } else if constexpr (sizeof(K) == 8 && std::numeric_limits<K>::is_iec559) {
            std::uint64_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            store_little_endian(out, bits, 8);
            return 8;
        } else {
            // Extended types (x87 80-bit, binary128) carry padding whose bytes are unspecified. A value a
            // double holds exactly hashes as that double; any other as sign, exponent and 64 mantissa bits.
            const double narrow = static_cast<double>(value);
            if (static_cast<K>(narrow) == value || std::isnan(value) || std::isinf(value)) {
                return canonical_scalar_bytes(narrow, out);
            }
            int exponent = 0;
            const K fraction = std::frexp(value, &exponent); // |fraction| in [0.5, 1)
            const K scaled = std::ldexp(std::fabs(fraction), 64);
            const auto mantissa = static_cast<std::uint64_t>(scaled); // < 2^64 as |fraction| < 1
            const std::uint64_t sign_and_exponent =
                (std::signbit(value) ? 1ULL << 63 : 0ULL) | static_cast<std::uint32_t>(exponent);
            store_little_endian(out, mantissa, 8);
            store_little_endian(out + 8, sign_and_exponent, 8);
            return 16;
        }
    }
}

/// True if bloom::hash gives K's canonical form as one 64-bit word and hashes it with hash_word: integers
/// of up to 64 bits, bool, enums, and IEEE float and double.
template <class K>
constexpr bool has_word_form() noexcept {
    if constexpr (std::is_enum_v<K>) {
        return has_word_form<std::underlying_type_t<K>>();
    } else if constexpr (std::is_integral_v<K>) {
        return sizeof(K) <= 8;
    } else if constexpr (std::is_floating_point_v<K>) {
        return (sizeof(K) == 4 || sizeof(K) == 8) && std::numeric_limits<K>::is_iec559;
    } else {
        return false;
    }
}

/// The canonical bytes of a scalar with a word form, read as one little-endian word (zero-extended), so
/// the integer path and the byte path see the same canonical value.
template <class K>
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t canonical_word(K value) noexcept {
    if constexpr (std::is_enum_v<K>) {
        return canonical_word(static_cast<std::underlying_type_t<K>>(value));
    } else if constexpr (std::is_integral_v<K>) {
        using wide = std::conditional_t<std::is_signed_v<K>, std::int64_t, std::uint64_t>;
        return static_cast<std::uint64_t>(static_cast<wide>(value));
    } else {
        if (value == K(0)) {
            value = K(0);
        } else if (std::isnan(value)) {
            value = std::numeric_limits<K>::quiet_NaN();
        }
        if constexpr (sizeof(K) == 4) {
            std::uint32_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            return bits;
        } else {
            std::uint64_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            return bits;
        }
    }
}

/// bloom::hash's integer path: two multiply-fold rounds over the word, the seed XORed in before each, so
/// every output bit depends on every input bit and seed bit. One round leaves sequential keys on a
/// lattice (the low half of k * c is a Weyl sequence) that spreads them over a blocked filter's blocks
/// more evenly than chance, which the rate formula does not describe; the second round's high half breaks
/// it. The constants are the golden ratio's and Vigna's splitmix multipliers, both odd.
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t hash_word(std::uint64_t word, std::uint64_t seed) noexcept {
    const std::uint64_t first = fold_multiply(word ^ seed, 0x9e3779b97f4a7c15ULL);
    return fold_multiply(first ^ seed ^ 0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL);
}

template <class K>
[[nodiscard]] std::uint64_t hash_scalar(K value, std::uint64_t seed) noexcept {
    unsigned char bytes[16];
    const std::size_t size = canonical_scalar_bytes(value, bytes);
    return hash_bytes(bytes, size, seed);
}

// ---- contiguous containers of scalars (std::vector, std::array, spans) ----

template <class K, class = void>
struct contiguous_element {
    using type = void;
};
template <class K>
struct contiguous_element<K, std::void_t<decltype(std::data(std::declval<const K&>())),
                                         decltype(std::size(std::declval<const K&>()))>> {
    using type = remove_cvref_t<decltype(*std::data(std::declval<const K&>()))>;
};

/// The element type of a contiguous container of scalars, or void if K is not one.
template <class K>
using scalar_element_t =
    std::conditional_t<!is_string_like_v<K> && !std::is_array_v<remove_cvref_t<K>> &&
                           is_scalar_key_v<typename contiguous_element<remove_cvref_t<K>>::type>,
                       typename contiguous_element<remove_cvref_t<K>>::type, void>;

/// Canonical bytes of one container element: like canonical_scalar_bytes, except that integers keep
/// their own width (a std::vector<std::uint8_t> hashes as its bytes).
template <class E>
std::size_t canonical_element_bytes(E value, unsigned char* out) noexcept {
    if constexpr (std::is_enum_v<E>) {
        return canonical_element_bytes(static_cast<std::underlying_type_t<E>>(value), out);
    } else if constexpr (std::is_integral_v<E> && sizeof(E) <= 8) {
        store_little_endian(out, static_cast<std::uint64_t>(value), sizeof(E));
        return sizeof(E);
    } else {
        return canonical_scalar_bytes(value, out);
    }
}

template <class E>
[[nodiscard]] std::uint64_t hash_elements(const E* elements, std::size_t count, std::uint64_t seed) noexcept {
    // Integers at their own width are already canonical on a little-endian host: hash the memory at once.
    constexpr bool memory_is_canonical =
        host_is_little_endian &&
        (std::is_integral_v<E> || std::is_enum_v<E>)&&std::has_unique_object_representations_v<E>;
    if constexpr (memory_is_canonical) {
        return hash_bytes(elements, count * sizeof(E), seed);
    } else {
        // Canonicalise element by element into a buffer fed to XXH3's streaming state, which yields the
        // same hash as the one-shot call over the concatenated bytes.
        XXH3_state_t state;
        XXH3_INITSTATE(&state);
        XXH3_64bits_reset_withSeed(&state, static_cast<XXH64_hash_t>(seed));
        unsigned char buffer[256];
        std::size_t used = 0;
        for (std::size_t i = 0; i < count; ++i) {
            unsigned char bytes[16];
            const std::size_t size = canonical_element_bytes(elements[i], bytes);
            if (used + size > sizeof buffer) {
                XXH3_64bits_update(&state, buffer, used);
                used = 0;
            }
            std::memcpy(buffer + used, bytes, size);
            used += size;
        }
        XXH3_64bits_update(&state, buffer, used);
        return static_cast<std::uint64_t>(XXH3_64bits_digest(&state));
    }
}

// ---- which keys bloom::hash<T> accepts for a filter of T ----

template <class T, class K>
constexpr bool hash_accepts() noexcept {
    using key = remove_cvref_t<K>;
    if constexpr (is_string_like_v<T>) {
        return is_string_like_v<key>;
    } else if constexpr (std::is_enum_v<T>) {
        return std::is_same_v<key, T>;
    } else if constexpr (std::is_same_v<T, bool>) {
        return std::is_same_v<key, bool>;
    } else if constexpr (std::is_integral_v<T>) {
        return std::is_integral_v<key> && !std::is_same_v<key, bool>;
    } else if constexpr (std::is_floating_point_v<T>) {
        return std::is_floating_point_v<key> || std::is_integral_v<key>;
    } else if constexpr (!std::is_void_v<scalar_element_t<T>>) {
        return std::is_same_v<scalar_element_t<key>, scalar_element_t<T>>;
    } else {
        return false;
    }
}

/// The key family code of bloom::hash<T> in a saved filter's hasher id (docs/FORMAT.md): which canonical
/// byte form the hash runs over. Keys whose byte forms agree share a code (every integer up to 64 bits,
/// bool and enums widen to 8 bytes), so filters of int and std::int64_t load into each other.
template <class E>
constexpr std::uint64_t scalar_family_code(bool as_element) noexcept {
    if constexpr (std::is_enum_v<E>) {
        return scalar_family_code<std::underlying_type_t<E>>(as_element);
    } else if constexpr (std::is_integral_v<E>) {
        return 0x0100 | (as_element || sizeof(E) > 8 ? sizeof(E) : 8);
    } else if constexpr (sizeof(E) == 4 && std::numeric_limits<E>::is_iec559) {
        return 0x0204;
    } else if constexpr (sizeof(E) == 8 && std::numeric_limits<E>::is_iec559) {
        return 0x0208;
    } else {
        return 0x0210;
    }
}

/// The hasher id of bloom::hash<T> (WordPath) or bloom::xxh3_hash<T> (not): the algorithm's tag in the
/// high 32 bits, "XXH3" or "MUM2" (two multiply-fold rounds, the word path), and T's key family below
/// (strings 0x0001, scalars 0x01WW / 0x02WW, contiguous containers 0x1000 | their element's code).
template <class T, bool WordPath>
constexpr std::uint64_t default_hasher_format_id() noexcept {
    constexpr std::uint64_t xxh3_tag = 0x58584833ULL << 32;
    constexpr std::uint64_t word_tag = 0x4d554d32ULL << 32;
    if constexpr (is_string_like_v<T>) {
        return xxh3_tag | 0x0001;
    } else if constexpr (is_scalar_key_v<T>) {
        return (WordPath && has_word_form<T>() ? word_tag : xxh3_tag) | scalar_family_code<T>(false);
    } else if constexpr (!std::is_void_v<scalar_element_t<T>>) {
        return xxh3_tag | 0x1000 | scalar_family_code<scalar_element_t<T>>(true);
    } else {
        return 0;
    }
}

/// True if To holds `value` exactly (it converts to To and back unchanged), so hashing it as a To hashes
/// the same value. NaN and the infinities count as held: every NaN hashes as one.
template <class To, class From>
[[nodiscard]] BLOOM_FORCE_INLINE bool holds_exactly(const From& value) noexcept {
    if constexpr (std::is_same_v<To, From> || !std::is_arithmetic_v<To> || std::is_same_v<To, bool>) {
        return true; // hash_accepts admits no other key for enums and bool
    } else if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) {
        if constexpr (std::is_signed_v<From> == std::is_signed_v<To>) {
            return std::numeric_limits<To>::min() <= value && value <= std::numeric_limits<To>::max();
        } else if constexpr (std::is_signed_v<From>) {
            return value >= 0 && static_cast<std::make_unsigned_t<From>>(value) <=
                                     static_cast<std::make_unsigned_t<To>>(std::numeric_limits<To>::max());
        } else {
            return value <= static_cast<std::make_unsigned_t<To>>(std::numeric_limits<To>::max());
        }
    } else if constexpr (std::is_floating_point_v<To> && std::is_floating_point_v<From>) {
        if (std::isnan(value) || std::isinf(value)) {
            return true;
        }
        // Out of To's range the conversion is undefined: test the range first.
        return std::fabs(value) <= static_cast<From>(std::numeric_limits<To>::max()) &&
               static_cast<From>(static_cast<To>(value)) == value;
    } else if constexpr (std::is_floating_point_v<To> && std::is_integral_v<From>) {
        const To converted = static_cast<To>(value);
        // Rounding may carry a large value to 2^digits, which From cannot hold: converting back would be
        // undefined.
        return converted < std::ldexp(To(1), std::numeric_limits<From>::digits) &&
               static_cast<From>(converted) == value;
    } else {
        return true; // integral To and floating From: hash_accepts refuses the key
    }
}

/// bloom::hash<T> (WordPath) and bloom::xxh3_hash<T>: the canonical form of any key of T's family, hashed
/// by the word path or XXH3. A key T cannot hold (300 for a filter of std::uint8_t, 2^53 + 1 for one of
/// double) is never narrowed into another value: it is hashed as itself under a different seed, so a filter
/// reports it absent unless it collides by chance, as any non-member may.
template <class T, bool WordPath>
struct canonical_hasher {
    using is_avalanching = void;
    using is_transparent = void;
    static constexpr std::uint64_t format_id = default_hasher_format_id<remove_cvref_t<T>, WordPath>();

    template <class K, std::enable_if_t<hash_accepts<remove_cvref_t<T>, K>(), int> = 0>
    [[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t operator()(const K& value,
                                                              std::uint64_t seed) const noexcept {
        using key = remove_cvref_t<T>;
        if constexpr (is_string_like_v<key>) {
            const std::string_view bytes = string_bytes(value);
            return hash_bytes(bytes.data(), bytes.size(), seed);
        } else if constexpr (is_scalar_key_v<key>) {
            if (!holds_exactly<key>(value)) {
                return hash_scalar(value, seed ^ 0x6f75747369646521ULL); // "outside!"
            }
            if constexpr (WordPath && has_word_form<key>()) {
                return hash_word(canonical_word(static_cast<key>(value)), seed);
            } else {
                return hash_scalar(static_cast<key>(value), seed);
            }
        } else {
            return hash_elements(std::data(value), std::size(value), seed);
        }
    }
};

/// Whether a hasher declares that its output is already well mixed.
template <class Hasher, class = void>
struct is_avalanching : std::false_type {};
template <class Hasher>
struct is_avalanching<Hasher, std::void_t<typename Hasher::is_avalanching>> : std::true_type {};

/// Runs `hasher` and, unless it declares itself avalanching, one extra mixing step: positions are read
/// from the hash's high bits, which an identity-like hash leaves almost constant. The seed enters the mix
/// pre-mixed, so a hasher that merely XORs the seed in (or ignores it) still gets a seed that matters.
template <class Hasher, class K>
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t
seeded_hash(const Hasher& hasher, const K& value,
            std::uint64_t seed) noexcept(noexcept(hasher(value, seed))) {
    const auto hash = static_cast<std::uint64_t>(hasher(value, seed));
    if constexpr (is_avalanching<Hasher>::value) {
        return hash;
    } else {
        return mix64(hash ^ mix64(seed));
    }
}

/// True if `Hasher` can hash a `K` with a seed.
template <class Hasher, class K>
inline constexpr bool can_hash_v = std::is_invocable_v<const Hasher&, const K&, std::uint64_t>;

/// True if `Hasher` can hash what an `InputIt` points to (the range forms of insert and contains).
template <class Hasher, class InputIt>
inline constexpr bool can_hash_range_v =
    can_hash_v<Hasher, std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<InputIt&>())>>>;

} // namespace detail

/// The default hasher. Integers of up to 64 bits, bool, enums, float and double hash as one canonical
/// 64-bit word by two seeded multiply-fold rounds (hasher id "MUM2"); std::string / std::string_view / C
/// strings (interchangeably), contiguous containers (std::vector, std::array) of scalars and wider scalars
/// by XXH3 with the seed over their canonical bytes. Accepts any key of T's family (any string type for a
/// string T, any integer for an integer T, converted to T first), so lookups never convert. Declares
/// itself avalanching and transparent; `format_id` is saved with filters (docs/FORMAT.md). Specialise it
/// for your own types.
template <class T>
struct hash : detail::canonical_hasher<T, true> {};

/// XXH3 with the seed over the canonical bytes of every key type bloom::hash<T> accepts: bloom::hash<T>
/// before its integer path, with the same "XXH3" hasher ids. Files of integer, float or double filters
/// saved before that path (their hasher id reads XXH3) load into filters of this hasher and answer as they
/// did. For strings and containers it equals bloom::hash<T>.
template <class T>
struct xxh3_hash : detail::canonical_hasher<T, false> {};

/// Adapts std::hash<T> (or any unseeded hash with std::hash's shape) to a seeded, avalanching hasher by
/// running XXH3 with the seed over the 64-bit std::hash value. std::hash<int> is the identity on
/// libstdc++: this adapter still gives the formula's rate on sequential integers.
template <class T, class StdHash = std::hash<T>>
struct std_hash_adapter {
    /// Declares the output well mixed (XXH3 has mixed it).
    using is_avalanching = void;

    /// The wrapped unseeded hash.
    StdHash std_hash{};

    /// XXH3(seed, std::hash(value)).
    [[nodiscard]] std::uint64_t operator()(const T& value, std::uint64_t seed) const
        noexcept(noexcept(std_hash(value))) {
        return detail::hash_u64(static_cast<std::uint64_t>(std_hash(value)), seed);
    }
};

} // namespace bloom

#endif // BLOOM_HASH_HPP
