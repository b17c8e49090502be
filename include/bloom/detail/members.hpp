// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_MEMBERS_HPP
#define BLOOM_DETAIL_MEMBERS_HPP

// Member-wise operations over a class's members named once, as a std::tie of references: a filter lists its
// state in one function and its swap and move assignment go through that list, so adding a member means
// adding it in one place. (Swapping two such tuples, std::tuple::swap, already swaps the members.)

#include <cstddef>
#include <tuple>
#include <utility>

namespace bloom::detail {

template <class... Members, std::size_t... Index>
void move_assign_members(const std::tuple<Members&...>& to, const std::tuple<Members&...>& from,
                         std::index_sequence<Index...>) {
    ((std::get<Index>(to) = std::move(std::get<Index>(from))), ...);
}

/// Move-assigns each member `from` refers to onto the one at the same place in `to`, in order.
template <class... Members>
void move_assign_members(const std::tuple<Members&...>& to, const std::tuple<Members&...>& from) {
    move_assign_members(to, from, std::index_sequence_for<Members...>{});
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_MEMBERS_HPP
