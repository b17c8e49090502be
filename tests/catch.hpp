// SPDX-License-Identifier: MIT
// Tests include "catch.hpp", never <catch2/...>: this shim picks Catch2 v3 when
// CMake found it (BLOOM_CATCH2_V3) and Catch2 v2 (Debian 12) otherwise.
#ifndef BLOOM_TESTS_CATCH_HPP
#define BLOOM_TESTS_CATCH_HPP

#ifdef BLOOM_CATCH2_V3
#    include <catch2/catch_all.hpp>
// v2 spells it Approx at global scope; v3 moved it to namespace Catch.
using Catch::Approx;
#else
#    include <catch2/catch.hpp>
#endif

#endif // BLOOM_TESTS_CATCH_HPP
