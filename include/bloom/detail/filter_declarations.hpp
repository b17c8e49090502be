// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_FILTER_DECLARATIONS_HPP
#define BLOOM_DETAIL_FILTER_DECLARATIONS_HPP

// The filter kinds and the machinery that befriends them, declared once (each defined by its own header).
// The shared state names the kinds it grants access to; the record code (a layer above the kinds) is a set
// of templates over them, and <bloom/serialization.hpp> includes the definitions. The default template
// arguments are given where each kind is defined.

#include <cstddef>

namespace bloom {

template <class T, class Layout, class Hasher, class Allocator>
class basic_bloom_filter;
template <class T, std::size_t CounterBits, class Hasher, class Allocator>
class counting_bloom_filter;
template <class T, class Hasher, class Allocator>
class scalable_bloom_filter;
template <class T, class Layout, class Hasher, class Allocator>
class basic_concurrent_bloom_filter;
template <class T, class Fingerprint, class Hasher>
class fuse_filter;

} // namespace bloom

namespace bloom::detail {

/// The item-level surface every kind derives from (detail/filter_surface.hpp).
template <class Derived, class T>
class filter_surface;

/// What the file format needs of each filter type (detail/io/record_io.hpp).
template <class Filter>
struct record_traits;

} // namespace bloom::detail

#endif // BLOOM_DETAIL_FILTER_DECLARATIONS_HPP
