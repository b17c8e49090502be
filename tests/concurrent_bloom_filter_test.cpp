// SPDX-License-Identifier: MIT
// bloom/concurrent_bloom_filter.hpp: many threads inserting disjoint and overlapping sets at once (no false
// negatives, item_count exact, at most one "new" per distinct item, the same bits as a plain filter fed the
// same items by one thread), lookups racing inserts, conversions both ways, the parallel-build path
// (per-thread plain filters merged with |=), value semantics and errors. Also run under ThreadSanitizer
// (the tsan preset), so the sizes stay small.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/concurrent_bloom_filter.hpp>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using bloom_test::key;

constexpr unsigned thread_count = 4;

/// Starts `thread_count` threads running body(thread index) at the same moment (a spin barrier, so they
/// race), and joins them.
template <class Body>
void run_together(unsigned threads, Body body) {
    std::atomic<unsigned> waiting{threads};
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            waiting.fetch_sub(1);
            while (waiting.load() != 0) {
                std::this_thread::yield();
            }
            body(t);
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
}

template <class Concurrent>
typename Concurrent::plain_filter_type plain_like(std::uint64_t expected_items, double rate) {
    return typename Concurrent::plain_filter_type(expected_items, rate);
}

} // namespace

TEMPLATE_TEST_CASE("concurrent: one thread sets the plain filter's bits and answers", "[concurrent]",
                   (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_bloom_filter<std::string>),
                   (bloom::concurrent_blocked_bloom_filter<std::string>)) {
    using value_type = typename TestType::value_type;
    TestType filter(2000, 0.01);
    auto plain = plain_like<TestType>(2000, 0.01);
    REQUIRE(filter.bit_count() == plain.bit_count());
    REQUIRE(filter.hash_count() == plain.hash_count());
    REQUIRE(filter.memory_bytes() == plain.memory_bytes());

    for (std::uint64_t i = 0; i < 2000; ++i) {
        const value_type value = key<value_type>(i);
        CHECK(filter.insert(value) == plain.insert(value));
    }
    CHECK(filter.item_count() == plain.item_count());
    CHECK(filter.to_plain() == plain);
    CHECK(filter.current_false_positive_rate() == plain.current_false_positive_rate());
    for (std::uint64_t i = 0; i < 6000; ++i) {
        const value_type value = key<value_type>(i);
        CHECK(filter.contains(value) == plain.contains(value));
    }

    SECTION("range forms give the one-at-a-time answers") {
        TestType bulk(2000, 0.01);
        std::vector<value_type> values;
        for (std::uint64_t i = 0; i < 2000; ++i) {
            values.push_back(key<value_type>(i));
        }
        CHECK(bulk.insert(values.begin(), values.end()) == plain.item_count());
        CHECK(bulk.to_plain() == plain);
        std::vector<value_type> queries;
        for (std::uint64_t i = 1000; i < 5000; ++i) {
            queries.push_back(key<value_type>(i));
        }
        std::vector<char> answers(queries.size());
        bulk.contains(queries.begin(), queries.end(), answers.begin());
        for (std::size_t i = 0; i < queries.size(); ++i) {
            CHECK((answers[i] != 0) == plain.contains(queries[i]));
        }
    }
}

TEMPLATE_TEST_CASE("concurrent: threads inserting disjoint sets lose nothing and count exactly",
                   "[concurrent]", (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_bloom_filter<std::string>)) {
    using value_type = typename TestType::value_type;
    constexpr std::uint64_t per_thread = 5000;
    constexpr std::uint64_t total = per_thread * thread_count;
    TestType filter(total, 0.01);
    std::atomic<std::uint64_t> true_answers{0};

    run_together(thread_count, [&](unsigned t) {
        std::uint64_t mine = 0;
        for (std::uint64_t i = t * per_thread; i < (t + 1) * per_thread; ++i) {
            mine += filter.insert(key<value_type>(i)) ? 1 : 0;
        }
        true_answers.fetch_add(mine);
    });

    CHECK(bloom_test::count_found(filter, 0, total) == total); // no false negatives
    CHECK(filter.item_count() == true_answers.load());
    // Bits do not depend on the order of inserts: the same as one thread inserting everything.
    auto plain = plain_like<TestType>(total, 0.01);
    bloom_test::insert_keys(plain, 0, total);
    CHECK(filter.to_plain() == plain);
    // A "not new" answer for a new item is a false positive against the items before it: few of them.
    CHECK(true_answers.load() <= total);
    CHECK(true_answers.load() >= total - total / 50);
}

TEMPLATE_TEST_CASE("concurrent: of threads inserting the same items at once, at most one gets true per item",
                   "[concurrent]", (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_bloom_filter<std::string>),
                   (bloom::concurrent_blocked_bloom_filter<std::string>)) {
    using value_type = typename TestType::value_type;
    constexpr std::uint64_t items = 4000;
    constexpr unsigned racers = 2 * thread_count;
    TestType filter(items, 0.01);
    const std::unique_ptr<std::atomic<unsigned>[]> true_answers(new std::atomic<unsigned>[items]);
    for (std::uint64_t i = 0; i < items; ++i) {
        true_answers[i].store(0);
    }
    std::vector<value_type> values;
    for (std::uint64_t i = 0; i < items; ++i) {
        values.push_back(key<value_type>(i));
    }

    // Every racer inserts every item; half walk forwards, half backwards, so pairs meet on the same item
    // at the same moment all along.
    run_together(racers, [&](unsigned t) {
        for (std::uint64_t n = 0; n < items; ++n) {
            const std::uint64_t i = t % 2 == 0 ? n : items - 1 - n;
            if (filter.insert(values[i])) {
                true_answers[i].fetch_add(1);
            }
        }
    });

    std::uint64_t sum = 0;
    std::uint64_t items_with_true = 0;
    for (std::uint64_t i = 0; i < items; ++i) {
        const unsigned answers = true_answers[i].load();
        INFO("item " << i);
        REQUIRE(answers <= 1);
        sum += answers;
        items_with_true += answers;
    }
    CHECK(filter.item_count() == sum);
    CHECK(bloom_test::count_found(filter, 0, items) == items);
    // Only an item whose bits other items had all set already may see no true at all.
    CHECK(items_with_true >= items - items / 50);
    auto plain = plain_like<TestType>(items, 0.01);
    bloom_test::insert_keys(plain, 0, items);
    CHECK(filter.to_plain() == plain);
}

TEMPLATE_TEST_CASE("concurrent: lookups racing inserts never miss an item inserted before them",
                   "[concurrent]", (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>)) {
    constexpr std::uint64_t items = 20000;
    TestType filter(items, 0.01);
    // The writer publishes how many items it has inserted, in order; readers check that every published
    // item is found (the release/acquire on `published` orders the inserts before the reads).
    std::atomic<std::uint64_t> published{0};
    std::atomic<std::uint64_t> misses{0};
    run_together(thread_count, [&](unsigned t) {
        if (t == 0) {
            for (std::uint64_t i = 0; i < items; ++i) {
                filter.insert(key<std::uint64_t>(i));
                published.store(i + 1, std::memory_order_release);
            }
            return;
        }
        bloom_test::splitmix64 random(t);
        std::uint64_t seen = 0;
        while (seen < items) {
            seen = published.load(std::memory_order_acquire);
            if (seen == 0) {
                continue;
            }
            std::uint64_t queries[16];
            for (std::uint64_t& query : queries) {
                query = key<std::uint64_t>(random.next() % seen);
            }
            // Odd readers use the range form, which reads the words through its own pipeline.
            bool found[16];
            if (t % 2 == 1) {
                filter.contains(std::begin(queries), std::end(queries), std::begin(found));
            } else {
                std::transform(std::begin(queries), std::end(queries), std::begin(found),
                               [&](std::uint64_t query) { return filter.contains(query); });
            }
            misses.fetch_add(
                static_cast<std::uint64_t>(std::count(std::begin(found), std::end(found), false)));
        }
    });
    CHECK(misses.load() == 0);
    CHECK(bloom_test::count_found(filter, 0, items) == items);
}

TEMPLATE_TEST_CASE("concurrent: per-thread plain filters merged with |= equal one filter of everything",
                   "[concurrent]", (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>)) {
    using plain_type = typename TestType::plain_filter_type;
    constexpr std::uint64_t per_thread = 5000;
    constexpr std::uint64_t total = per_thread * thread_count;
    std::vector<plain_type> parts(thread_count, plain_type(total, 0.01));
    TestType merged_concurrently(total, 0.01);

    run_together(thread_count, [&](unsigned t) {
        bloom_test::insert_keys(parts[t], t * per_thread, (t + 1) * per_thread);
        merged_concurrently |= parts[t]; // threads merge into one concurrent filter at once
    });

    plain_type merged = parts[0];
    for (unsigned t = 1; t < thread_count; ++t) {
        merged |= parts[t];
    }
    plain_type reference(total, 0.01);
    bloom_test::insert_keys(reference, 0, total);
    CHECK(merged == reference);
    CHECK(merged_concurrently.to_plain() == reference);
    CHECK(bloom_test::count_found(merged_concurrently, 0, total) == total);

    SECTION("and converting a plain filter keeps its bits, counts and targets") {
        const TestType converted(reference);
        const plain_type back = converted.to_plain();
        CHECK(back == reference);
        CHECK(back.item_count() == reference.item_count());
        CHECK(back.expected_items() == reference.expected_items());
        CHECK(back.target_false_positive_rate() == reference.target_false_positive_rate());
        CHECK(converted.item_count() == reference.item_count());
        CHECK(converted.seed() == reference.seed());
    }
}

TEST_CASE("concurrent: compatible_with a plain filter compares the probe scheme, as |= does",
          "[concurrent]") {
    // Same bit count, hash count and seed; only the probe scheme differs (a filter loaded from an older
    // file keeps its scheme): the bits of one mean nothing to the other.
    const bloom::concurrent_bloom_filter<std::uint64_t> mixed(
        bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{9600, 7, bloom::probe_scheme::mixed}));
    const bloom::bloom_filter<std::uint64_t> older(
        bloom::filter_geometry{9600, 7, bloom::probe_scheme::enhanced_double_hashing});
    CHECK_FALSE(mixed.compatible_with(older));
    CHECK(mixed.compatible_with(
        bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{9600, 7, bloom::probe_scheme::mixed})));
    bloom::concurrent_bloom_filter<std::uint64_t> target(mixed.to_plain());
    CHECK_THROWS_AS(target |= older, std::invalid_argument);

    const bloom::concurrent_blocked_bloom_filter<std::uint64_t> anywhere(
        bloom::blocked_bloom_filter<std::uint64_t>(
            bloom::filter_geometry{512 * 20, 8, bloom::probe_scheme::bits_anywhere}));
    const bloom::blocked_bloom_filter<std::uint64_t> per_word(
        bloom::filter_geometry{512 * 20, 8, bloom::probe_scheme::one_bit_per_word});
    CHECK_FALSE(anywhere.compatible_with(per_word));
    bloom::concurrent_blocked_bloom_filter<std::uint64_t> blocked_target(anywhere.to_plain());
    CHECK_THROWS_AS(blocked_target |= per_word, std::invalid_argument);
}

TEMPLATE_TEST_CASE("concurrent: copies, moves, clear and errors", "[concurrent]",
                   (bloom::concurrent_bloom_filter<std::uint64_t>),
                   (bloom::concurrent_blocked_bloom_filter<std::uint64_t>)) {
    TestType filter(1000, 0.01);
    bloom_test::insert_keys(filter, 0, 1000);
    const std::uint64_t count = filter.item_count();

    TestType copy(filter);
    CHECK(copy.to_plain() == filter.to_plain());
    CHECK(copy.item_count() == count);

    TestType moved(std::move(copy));
    CHECK(moved.to_plain() == filter.to_plain());
    CHECK(moved.item_count() == count);
    // The moved-from state (empty) is tested with every kind's in contract_test.cpp.
    copy = filter; // NOLINT(bugprone-use-after-move): assigning a moved-from filter is documented
    CHECK(copy.to_plain() == filter.to_plain());

    moved.clear();
    CHECK(moved.item_count() == 0);
    CHECK(bloom_test::count_found(moved, 0, 1000) == 0);
    CHECK(moved.compatible_with(filter));

    TestType other_seed(1000, 0.01, 7);
    CHECK_FALSE(filter.compatible_with(other_seed));
    bloom_test::require_invalid_argument([&] { filter |= other_seed.to_plain(); },
                                         std::vector<std::string>{"other", "seed"});
    bloom_test::require_invalid_argument([] { TestType bad(0, 0.01); }, "expected_items");
    bloom_test::require_invalid_argument([] { TestType bad(100, 1.5); }, "false_positive_rate");
}
