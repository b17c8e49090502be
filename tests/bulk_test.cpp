// SPDX-License-Identifier: MIT
// The bulk operations of every filter kind, insert(first, last) and contains(first, last, out), against
// one-at-a-time calls. They hash a window of items ahead (16 for the classic filter, 64 for the blocked
// one) and only then touch the oldest, so the lengths tried are shorter than, equal to and longer than
// either window, and the inputs repeat values inside the window: a later copy must see the earlier one's
// bits, exactly as in one-at-a-time calls.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/concurrent_bloom_filter.hpp>
#include <bloom/counting_bloom_filter.hpp>
#include <bloom/detail/pipeline.hpp>
#include <bloom/scalable_bloom_filter.hpp>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <list>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using bloom_test::insert_keys;
using bloom_test::key;

// Around the pipelines' windows (16, 64) and their halves, and many windows.
constexpr std::size_t lengths[] = {0,  1,  7,  8,   9,   15,  16,  17,  31,  32,   33,
                                   63, 64, 65, 127, 128, 129, 511, 512, 513, 1000, 1537};

/// `length` keys drawn from `distinct` indices starting at `first_index`, so values repeat, often within a
/// window; every fifth key repeats the one before it.
template <class T>
std::vector<T> keys_with_repeats(std::size_t length, std::uint64_t distinct, std::uint64_t first_index,
                                 std::uint64_t seed) {
    bloom_test::splitmix64 random(seed);
    std::vector<T> values;
    for (std::size_t i = 0; i < length; ++i) {
        if (i % 5 == 4) {
            values.push_back(values.back());
        } else {
            values.push_back(key<T>(first_index + random.next() % distinct));
        }
    }
    return values;
}

/// A filter of either kind with about `items` of room at 5%: full enough that inserts of new values
/// sometimes return false.
template <class Filter>
Filter small_filter(std::uint64_t items) {
    return Filter(items, 0.05);
}

/// The one-at-a-time answers for `values`.
template <class Filter, class Values>
std::vector<bool> single_answers(const Filter& filter, const Values& values) {
    std::vector<bool> answers;
    for (const auto& value : values) {
        answers.push_back(filter.contains(value));
    }
    return answers;
}

template <class Filter, class = void>
struct has_to_plain : std::false_type {};
template <class Filter>
struct has_to_plain<Filter, std::void_t<decltype(std::declval<const Filter&>().to_plain())>>
    : std::true_type {};
template <class Filter, class = void>
struct is_equality_comparable : std::false_type {};
template <class Filter>
struct is_equality_comparable<
    Filter, std::void_t<decltype(std::declval<const Filter&>() == std::declval<const Filter&>())>>
    : std::true_type {};

/// Checks that two filters hold the same bits, where the kind can compare them (the scalable filter cannot).
template <class Filter>
void check_same_bits(const Filter& left, const Filter& right) {
    if constexpr (has_to_plain<Filter>::value) {
        CHECK(left.to_plain() == right.to_plain());
    } else if constexpr (is_equality_comparable<Filter>::value) {
        CHECK(left == right);
    }
}

} // namespace

TEMPLATE_TEST_CASE("bulk insert returns the count and sets the bits of one-at-a-time inserts",
                   "[bulk][insert]", bloom::bloom_filter<std::uint64_t>,
                   bloom::blocked_bloom_filter<std::uint64_t>, bloom::bloom_filter<std::string>,
                   bloom::blocked_bloom_filter<std::string>) {
    using value_type = typename TestType::value_type;
    for (const std::size_t length : lengths) {
        for (const std::uint64_t distinct :
             {std::uint64_t{1}, std::uint64_t{length / 2 + 1}, std::uint64_t{length + 1}}) {
            INFO(length << " values from " << distinct << " distinct");
            const std::vector<value_type> values =
                keys_with_repeats<value_type>(length, distinct, 0, length + distinct);
            TestType bulk = small_filter<TestType>(length / 2 + 1);
            TestType single = small_filter<TestType>(length / 2 + 1);
            // Some items already in: the bulk insert must see them too.
            insert_keys(bulk, 1'000'000, 1'000'000 + length / 4);
            insert_keys(single, 1'000'000, 1'000'000 + length / 4);
            const std::uint64_t count_before = single.item_count();
            // One distinct value is new unless it happens to be a false positive of the preloaded items.
            const bool first_reported = length > 0 && single.contains(values.front());

            std::uint64_t single_count = 0;
            for (const value_type& value : values) {
                single_count += single.insert(value) ? 1 : 0;
            }
            CHECK(bulk.insert(values.begin(), values.end()) == single_count);
            CHECK(bulk.item_count() == count_before + single_count);
            CHECK(bulk.item_count() == single.item_count());
            CHECK(bulk == single);
            // Inserting again: nothing is new.
            CHECK(bulk.insert(values.begin(), values.end()) == 0);
            CHECK(bulk == single);
            if (distinct == 1 && length > 0) {
                CHECK(single_count == (first_reported ? 0 : 1));
            }
        }
    }
}

TEMPLATE_TEST_CASE("bulk insert accepts other iterators and key types", "[bulk][insert]",
                   bloom::bloom_filter<std::uint64_t>, bloom::blocked_bloom_filter<std::uint64_t>) {
    const std::vector<std::uint64_t> values = keys_with_repeats<std::uint64_t>(300, 200, 0, 17);
    TestType single = small_filter<TestType>(200);
    for (const std::uint64_t value : values) {
        single.insert(value);
    }
    SECTION("a std::list (bidirectional)") {
        const std::list<std::uint64_t> list(values.begin(), values.end());
        TestType bulk = small_filter<TestType>(200);
        CHECK(bulk.insert(list.begin(), list.end()) == single.item_count());
        CHECK(bulk == single);
    }
    SECTION("a raw pointer range") {
        TestType bulk = small_filter<TestType>(200);
        CHECK(bulk.insert(values.data(), values.data() + values.size()) == single.item_count());
        CHECK(bulk == single);
    }
    SECTION("narrower integers, converted as single inserts convert them") {
        std::vector<std::uint32_t> narrow;
        TestType narrow_single = small_filter<TestType>(200);
        for (const std::uint64_t value : values) {
            narrow.push_back(static_cast<std::uint32_t>(value));
            narrow_single.insert(static_cast<std::uint32_t>(value));
        }
        TestType bulk = small_filter<TestType>(200);
        CHECK(bulk.insert(narrow.begin(), narrow.end()) == narrow_single.item_count());
        CHECK(bulk == narrow_single);
    }
}

TEMPLATE_TEST_CASE("bulk contains writes the one-at-a-time answers in order", "[bulk][lookup]",
                   bloom::bloom_filter<std::uint64_t>, bloom::blocked_bloom_filter<std::uint64_t>,
                   bloom::bloom_filter<std::string>, bloom::blocked_bloom_filter<std::string>,
                   bloom::counting_bloom_filter<std::uint64_t>, bloom::scalable_bloom_filter<std::string>,
                   bloom::concurrent_bloom_filter<std::uint64_t>,
                   bloom::concurrent_blocked_bloom_filter<std::string>) {
    using value_type = typename TestType::value_type;
    // Members are indices [0, 400); a filter sized for 300 at 5% also gives false positives.
    TestType filter = small_filter<TestType>(300);
    insert_keys(filter, 0, 400);
    const TestType& view = filter;

    // Indices [0, 800): half members, half not, in random order, with repeats.
    const auto queries_of = [](std::size_t length) {
        return keys_with_repeats<value_type>(length, 800, 0, 99 + length);
    };
    SECTION("into std::back_inserter of a std::vector<bool>") {
        for (const std::size_t length : lengths) {
            INFO(length << " queries");
            const std::vector<value_type> queries = queries_of(length);
            std::vector<bool> answers;
            auto next = view.contains(queries.begin(), queries.end(), std::back_inserter(answers));
            CHECK(answers == single_answers(view, queries));
            // The returned iterator goes on appending.
            *next = true;
            CHECK(answers.size() == length + 1);
        }
    }
    SECTION("into a bool array") {
        for (const std::size_t length : lengths) {
            INFO(length << " queries");
            const std::vector<value_type> queries = queries_of(length);
            const std::vector<bool> expected = single_answers(view, queries);
            // Every slot starts as the wrong answer; one more slot past the end must stay untouched.
            std::unique_ptr<bool[]> answers(new bool[length + 1]);
            for (std::size_t i = 0; i < length; ++i) {
                answers[i] = !expected[i];
            }
            answers[length] = true;
            bool* const end = view.contains(queries.begin(), queries.end(), answers.get());
            CHECK(end == answers.get() + length);
            CHECK(std::vector<bool>(answers.get(), answers.get() + length) == expected);
            CHECK(answers[length]);
        }
    }
    SECTION("into a std::vector<char>") {
        for (const std::size_t length : lengths) {
            INFO(length << " queries");
            const std::vector<value_type> queries = queries_of(length);
            const std::vector<bool> expected = single_answers(view, queries);
            std::vector<char> answers(length + 1, 7);
            const auto end = view.contains(queries.begin(), queries.end(), answers.begin());
            CHECK(end == answers.begin() + static_cast<std::ptrdiff_t>(length));
            std::vector<char> expected_chars;
            for (const bool answer : expected) {
                expected_chars.push_back(answer ? 1 : 0);
            }
            expected_chars.push_back(7);
            CHECK(answers == expected_chars);
        }
    }
    SECTION("into a std::vector<bool> through its iterator") {
        for (const std::size_t length : lengths) {
            INFO(length << " queries");
            const std::vector<value_type> queries = queries_of(length);
            const std::vector<bool> expected = single_answers(view, queries);
            std::vector<bool> answers(length + 1);
            for (std::size_t i = 0; i < length; ++i) {
                answers[i] = !expected[i];
            }
            answers[length] = true;
            const auto end = view.contains(queries.begin(), queries.end(), answers.begin());
            CHECK(end == answers.begin() + static_cast<std::ptrdiff_t>(length));
            std::vector<bool> written(answers.begin(), answers.begin() + static_cast<std::ptrdiff_t>(length));
            CHECK(written == expected);
            CHECK(answers[length]);
        }
    }
    SECTION("members are all found, and the false positives are the single calls' ones") {
        std::vector<value_type> members;
        std::vector<value_type> non_members;
        for (std::uint64_t i = 0; i < 400; ++i) {
            members.push_back(key<value_type>(i));
            non_members.push_back(key<value_type>(10'000 + i));
        }
        std::vector<char> found(400);
        view.contains(members.begin(), members.end(), found.begin());
        CHECK(found == std::vector<char>(400, 1));
        std::vector<bool> absent;
        view.contains(non_members.begin(), non_members.end(), std::back_inserter(absent));
        CHECK(absent == single_answers(view, non_members));
    }
}

TEMPLATE_TEST_CASE("bulk operations read single-pass input iterators", "[bulk][input]",
                   bloom::bloom_filter<std::uint64_t>, bloom::blocked_bloom_filter<std::uint64_t>,
                   bloom::bloom_filter<std::string>, bloom::blocked_bloom_filter<std::string>) {
    using value_type = typename TestType::value_type;
    for (const std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{65}, std::size_t{1000}}) {
        INFO(length << " values");
        // Keys print without whitespace (decimal integers, URLs), so a stream reads them back one by one.
        const std::vector<value_type> values = keys_with_repeats<value_type>(length, length / 2 + 1, 0, 5);
        std::ostringstream text;
        for (const value_type& value : values) {
            text << value << '\n';
        }

        TestType single = small_filter<TestType>(length / 2 + 1);
        std::uint64_t single_count = 0;
        for (const value_type& value : values) {
            single_count += single.insert(value) ? 1 : 0;
        }
        TestType bulk = small_filter<TestType>(length / 2 + 1);
        std::istringstream insert_stream(text.str());
        CHECK(bulk.insert(std::istream_iterator<value_type>(insert_stream),
                          std::istream_iterator<value_type>()) == single_count);
        CHECK(bulk == single);

        const std::vector<value_type> queries = keys_with_repeats<value_type>(length, 2 * length + 2, 0, 6);
        std::ostringstream query_text;
        for (const value_type& value : queries) {
            query_text << value << '\n';
        }
        std::istringstream query_stream(query_text.str());
        std::vector<bool> answers;
        bulk.contains(std::istream_iterator<value_type>(query_stream), std::istream_iterator<value_type>(),
                      std::back_inserter(answers));
        CHECK(answers == single_answers(single, queries));
    }
}

TEMPLATE_TEST_CASE("bulk operations on string filters take any string type", "[bulk][lookup]",
                   bloom::bloom_filter<std::string>, bloom::blocked_bloom_filter<std::string>) {
    const std::vector<std::string> strings = keys_with_repeats<std::string>(200, 150, 0, 3);
    std::vector<std::string_view> views(strings.begin(), strings.end());
    std::vector<const char*> pointers;
    for (const std::string& text : strings) {
        pointers.push_back(text.c_str());
    }
    TestType from_strings = small_filter<TestType>(100);
    TestType from_views = small_filter<TestType>(100);
    TestType from_pointers = small_filter<TestType>(100);
    const std::size_t count = from_strings.insert(strings.begin(), strings.end());
    CHECK(from_views.insert(views.begin(), views.end()) == count);
    CHECK(from_pointers.insert(pointers.begin(), pointers.end()) == count);
    CHECK(from_views == from_strings);
    CHECK(from_pointers == from_strings);

    const std::vector<std::string> queries = keys_with_repeats<std::string>(200, 400, 0, 4);
    const std::vector<std::string_view> query_views(queries.begin(), queries.end());
    std::vector<char> by_string(queries.size());
    std::vector<char> by_view(queries.size());
    from_strings.contains(queries.begin(), queries.end(), by_string.begin());
    from_strings.contains(query_views.begin(), query_views.end(), by_view.begin());
    CHECK(by_string == by_view);
    std::vector<bool> expected = single_answers(from_strings, queries);
    CHECK(std::vector<bool>(by_string.begin(), by_string.end()) == expected);
}

TEMPLATE_TEST_CASE("classic bulk contains answers as single calls do, under both probe schemes",
                   "[bulk][lookup]", std::uint64_t, std::string) {
    // A crowded filter (about 2 bits per member: many false positives, and misses that stop in the second
    // group of four probes) and a roomy one (10 bits per member: misses that stop in the first group).
    for (const bloom::probe_scheme scheme :
         {bloom::probe_scheme::mixed, bloom::probe_scheme::enhanced_double_hashing}) {
        for (const std::uint64_t bit_count : {std::uint64_t{2'000}, std::uint64_t{10'000}}) {
            INFO("scheme " << static_cast<int>(scheme) << ", " << bit_count << " bits");
            bloom::bloom_filter<TestType> filter(bloom::filter_geometry{bit_count, 7, scheme});
            insert_keys(filter, 0, 1000);
            std::vector<TestType> members;
            std::vector<TestType> non_members;
            for (std::uint64_t i = 0; i < 1000; ++i) {
                members.push_back(key<TestType>(i));
                non_members.push_back(key<TestType>(1'000'000 + i));
            }
            std::vector<bool> found;
            filter.contains(members.begin(), members.end(), std::back_inserter(found));
            CHECK(found == std::vector<bool>(members.size(), true));
            std::vector<bool> absent;
            filter.contains(non_members.begin(), non_members.end(), std::back_inserter(absent));
            const std::vector<bool> expected = single_answers(filter, non_members);
            CHECK(absent == expected);
            // Both answers occur, so a kernel that always said one of them would fail.
            CHECK(std::count(expected.begin(), expected.end(), true) > 0);
            CHECK(std::count(expected.begin(), expected.end(), false) > 0);
        }
    }
}

// The tests above use filters in the cache, whose range forms hash and process one item at a time. These
// filters are past the cache (detail/pipeline.hpp's thresholds), so theirs hash a window ahead and
// prefetch: the same answers and bits, with values repeating inside the window.
TEMPLATE_TEST_CASE("bulk operations of filters past the cache, which hash ahead, match single calls",
                   "[bulk][pipeline]", bloom::bloom_filter<std::uint64_t>,
                   bloom::blocked_bloom_filter<std::uint64_t>, bloom::bloom_filter<std::string>,
                   bloom::blocked_bloom_filter<std::string>, bloom::counting_bloom_filter<std::uint64_t>,
                   bloom::scalable_bloom_filter<std::string>, bloom::concurrent_bloom_filter<std::uint64_t>,
                   bloom::concurrent_blocked_bloom_filter<std::string>) {
    using value_type = typename TestType::value_type;
    // 6 * 10^6 items at 5%: 4.5 MB of bits (more for counters), past both thresholds.
    TestType bulk(6'000'000, 0.05);
    TestType single(6'000'000, 0.05);
    REQUIRE(bulk.memory_bytes() >= bloom::detail::scattered_prefetch_from_bytes);
    for (const std::size_t length : {std::size_t{1}, std::size_t{16}, std::size_t{17}, std::size_t{64},
                                     std::size_t{65}, std::size_t{1537}}) {
        INFO(length << " values");
        const std::vector<value_type> values =
            keys_with_repeats<value_type>(length, length / 2 + 1, length, 7);
        std::uint64_t single_count = 0;
        for (const value_type& value : values) {
            single_count += single.insert(value) ? 1 : 0;
        }
        // Repeats inside the window: a later copy must see the earlier one's bits.
        CHECK(bulk.insert(values.begin(), values.end()) == single_count);
        if (length > 2) {
            CHECK(single_count < length); // values repeat: some inserts were not new
        }
    }
    check_same_bits(bulk, single);
    const std::vector<value_type> queries = keys_with_repeats<value_type>(20'000, 2'000'000, 0, 11);
    std::vector<bool> answers;
    bulk.contains(queries.begin(), queries.end(), std::back_inserter(answers));
    CHECK(answers == single_answers(single, queries));
    CHECK(std::count(answers.begin(), answers.end(), true) > 0);
    CHECK(std::count(answers.begin(), answers.end(), false) > 0);
}

TEMPLATE_TEST_CASE("classic and counting bulk operations past the cache, from the probes they staged, match "
                   "single ones",
                   "[bulk][pipeline]", bloom::bloom_filter<std::uint64_t>,
                   bloom::counting_bloom_filter<std::uint64_t>) {
    // Half the bits (counters) of a 2^25-wide filter set (3.3 million members, k = 7): non-members are false
    // positives at fill^7 = 0.8%, and one probe left out would double that, so a lookup of staged probes
    // that skipped one, or read another, answers some of the 100,000 non-members differently.
    TestType filter(bloom::filter_geometry{std::uint64_t{1} << 25, 7});
    TestType one_by_one(bloom::filter_geometry{std::uint64_t{1} << 25, 7});
    REQUIRE(filter.memory_bytes() >= bloom::detail::scattered_prefetch_from_bytes);
    bloom_test::splitmix64 random(2025);
    std::vector<std::uint64_t> members(3'320'000);
    for (std::uint64_t& member : members) {
        member = random.next();
    }
    // Staged inserts: the same count and bits as single ones.
    std::size_t new_one_by_one = 0;
    for (const std::uint64_t member : members) {
        new_one_by_one += one_by_one.insert(member) ? 1 : 0;
    }
    CHECK(filter.insert(members.begin(), members.end()) == new_one_by_one);
    CHECK(filter == one_by_one);
    const double fill = filter.fill_ratio();
    CHECK(fill > 0.45);
    CHECK(fill < 0.55);
    std::vector<std::uint64_t> queries(100'000);
    for (std::size_t i = 0; i < queries.size(); ++i) {
        queries[i] = i % 10 == 0 ? members[i] : random.next();
    }
    std::vector<bool> answers;
    filter.contains(queries.begin(), queries.end(), std::back_inserter(answers));
    const std::vector<bool> expected = single_answers(filter, queries);
    CHECK(answers == expected);
    // Members (a tenth) and some false positives among the rest.
    CHECK(std::count(expected.begin(), expected.end(), true) > 10'000 + 200);
}

TEST_CASE("scalable bulk operations, stage by stage, match single ones and find the members of every stage",
          "[bulk][scalable]") {
    // Started at 1000 items, 600,000 members fill ten stages; the newest (12 million bits, 1.5 MB) is past
    // the 1 MiB from which a window's operations prefetch, the others are asked without.
    bloom::scalable_bloom_filter<std::uint64_t> filter(1000, 0.01);
    bloom::scalable_bloom_filter<std::uint64_t> one_by_one(1000, 0.01);
    bloom_test::splitmix64 random(77);
    std::vector<std::uint64_t> members(600'000);
    for (std::uint64_t& member : members) {
        member = random.next();
    }
    // Every seventh insert repeats the item three before it, in the same window of the range form: it must
    // see that item, inserted into the newest stage (or one it added) a moment before, as single calls do.
    std::vector<std::uint64_t> inserts;
    for (std::size_t i = 0; i < members.size(); ++i) {
        inserts.push_back(members[i]);
        if (i % 7 == 6) {
            inserts.push_back(members[i - 3]);
        }
    }
    std::size_t new_one_by_one = 0;
    for (const std::uint64_t item : inserts) {
        new_one_by_one += one_by_one.insert(item) ? 1 : 0;
    }
    CHECK(filter.insert(inserts.begin(), inserts.end()) == new_one_by_one);
    CHECK(new_one_by_one <= members.size());
    REQUIRE(filter.stage_count() == one_by_one.stage_count());
    for (std::size_t stage = 0; stage < filter.stage_count(); ++stage) {
        INFO("stage " << stage);
        CHECK(filter.stage(stage) == one_by_one.stage(stage));
    }
    REQUIRE(filter.stage_count() == 10);
    REQUIRE(filter.stage(9).bit_count() >= std::uint64_t{1} << 23);
    REQUIRE(filter.stage(8).bit_count() < std::uint64_t{1} << 23);
    // Members from every stage (the first 1000 went into stage 0), each followed by some non-members, in
    // a length that leaves the last window part-full.
    std::vector<std::uint64_t> queries;
    for (std::size_t i = 0; queries.size() < 100'003; ++i) {
        queries.push_back(members[i < 2000 ? i : random.next() % members.size()]);
        for (std::uint64_t extra = random.next() % 3; extra > 0; --extra) {
            queries.push_back(random.next());
        }
    }
    queries.resize(100'003);
    std::vector<bool> answers;
    filter.contains(queries.begin(), queries.end(), std::back_inserter(answers));
    const std::vector<bool> expected = single_answers(filter, queries);
    CHECK(answers == expected);
    const std::set<std::uint64_t> member_set(members.begin(), members.end());
    std::size_t member_queries = 0;
    std::size_t members_found = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        if (member_set.count(queries[i]) != 0) {
            ++member_queries;
            members_found += answers[i] ? 1 : 0;
        }
    }
    CHECK(members_found == member_queries); // no false negative, in any stage
    CHECK(member_queries > 40'000);
    // Non-members: some answered present (false positives), most not.
    const auto present = static_cast<std::size_t>(std::count(answers.begin(), answers.end(), true));
    CHECK(present > member_queries);
    CHECK(present < member_queries + (queries.size() - member_queries) / 20);
}

namespace {
/// The items 0, 1, ..., length - 1: each is its own hash in the pipeline tests below.
std::vector<std::uint64_t> numbered_items(std::size_t length) {
    std::vector<std::uint64_t> items(length);
    std::iota(items.begin(), items.end(), std::uint64_t{0});
    return items;
}
} // namespace

TEST_CASE("the bulk pipeline prefetches each item once, a window before processing it, in order",
          "[bulk][pipeline]") {
    // Each stage logs (stage, item); the item is its own hash. Stages: 0 prefetch, 1 process.
    for (const std::size_t length : lengths) {
        INFO(length << " items");
        const std::vector<std::uint64_t> items = numbered_items(length);
        std::vector<std::pair<int, std::uint64_t>> log;
        bloom::detail::pipelined_for_each<16>(
            true, items.begin(), items.end(), [](std::uint64_t item) { return item; },
            [&](std::uint64_t item) { log.emplace_back(0, item); },
            [&](std::uint64_t item) { log.emplace_back(1, item); });
        REQUIRE(log.size() == 2 * length);
        std::vector<std::size_t> position[2];
        for (auto& stage : position) {
            stage.assign(length, log.size());
        }
        for (std::size_t at = 0; at < log.size(); ++at) {
            const auto [stage, item] = log[at];
            REQUIRE(item < length);
            REQUIRE(position[stage][item] == log.size()); // once
            position[stage][item] = at;
        }
        for (std::size_t i = 0; i < length; ++i) {
            CHECK(position[0][i] < position[1][i]);
            if (i > 0) {
                CHECK(position[1][i - 1] < position[1][i]); // processed in order
            }
            // In a long run, item i is processed right after item i + 16 is prefetched.
            if (i + 16 < length) {
                CHECK(log[position[1][i] - 1] == std::pair<int, std::uint64_t>(0, i + 16));
            }
        }
    }
}

TEST_CASE("the bulk pipeline of a structure in the cache processes each item in turn, prefetching nothing",
          "[bulk][pipeline]") {
    for (const std::size_t length : lengths) {
        INFO(length << " items");
        const std::vector<std::uint64_t> items = numbered_items(length);
        std::vector<std::pair<int, std::uint64_t>> log;
        bloom::detail::pipelined_for_each<16>(
            false, items.begin(), items.end(),
            [&](std::uint64_t item) {
                log.emplace_back(0, item);
                return item;
            },
            [&](std::uint64_t item) { log.emplace_back(1, item); },
            [&](std::uint64_t item) { log.emplace_back(2, item); });
        REQUIRE(log.size() == 2 * length);
        for (std::size_t i = 0; i < length; ++i) {
            CHECK(log[2 * i] == std::pair<int, std::uint64_t>(0, i));     // hashed,
            CHECK(log[2 * i + 1] == std::pair<int, std::uint64_t>(2, i)); // then processed at once
        }
    }
}
