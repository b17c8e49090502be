#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drives the real `bloom` binary (tools/bloom.cpp) through one scenario; tools/CMakeLists.txt registers
# each scenario as a CTest test.   usage: tests/cli_test.sh BLOOM_BINARY SCENARIO
set -euo pipefail

bloom=$1
scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() {
    echo "FAIL ($scenario): $*" >&2
    exit 1
}

# expect STATUS COMMAND...: runs COMMAND, keeps its stdout in $out and stderr in $err, checks its status.
expect() {
    local wanted=$1
    shift
    local status=0
    "$@" >out.txt 2>err.txt || status=$?
    out=$(cat out.txt)
    err=$(cat err.txt)
    [[ $status == "$wanted" ]] || fail "'$*' exited $status, expected $wanted; stderr: $err"
}

# contains TEXT PART: TEXT contains PART.
contains() {
    [[ $1 == *"$2"* ]] || fail "expected '$2' in: $1"
}

case $scenario in
help)
    expect 0 "$bloom" --help
    contains "$out" "usage: bloom COMMAND"
    for command in create add check info merge; do
        expect 0 "$bloom" "$command" --help
        contains "$out" "usage: bloom $command"
    done
    expect 2 "$bloom"
    contains "$err" "usage: bloom COMMAND"
    expect 0 "$bloom" --version
    contains "$out" "bloom "
    ;;

create_add_check)
    expect 0 "$bloom" create --items 1000 --rate 0.01 f.bloom
    expect 0 "$bloom" add f.bloom alice bob "carol smith" ""
    contains "$err" "4 new"
    printf 'dave\r\neve\n' | "$bloom" add f.bloom 2>/dev/null # CRLF lines
    # Present values are printed, absent ones are not; the status says whether all were present.
    expect 0 "$bloom" check f.bloom alice bob "carol smith" dave eve
    [[ $out == $'alice\nbob\ncarol smith\ndave\neve' ]] || fail "check printed: $out"
    expect 1 "$bloom" check f.bloom alice mallory
    [[ $out == alice ]] || fail "check printed: $out"
    expect 1 "$bloom" check --invert f.bloom alice mallory
    [[ $out == mallory ]] || fail "check --invert printed: $out"
    # Values from stdin, and values that look like options after --.
    expect 0 "$bloom" add f.bloom -- --not-an-option
    printf 'alice\nzed\n--not-an-option\n' >values.txt
    expect 1 "$bloom" check f.bloom <values.txt
    [[ $out == $'alice\n--not-an-option' ]] || fail "check from stdin printed: $out"
    # Adding a value twice reports it as present already.
    expect 0 "$bloom" add f.bloom alice
    contains "$err" "0 new"
    # The blocked kind and an explicit seed.
    expect 0 "$bloom" create --items 1e4 --rate 1% --kind blocked --seed 0x2a g.bloom
    expect 0 "$bloom" add g.bloom x y
    expect 0 "$bloom" check g.bloom x y
    ;;

info)
    expect 0 "$bloom" create --items 1000000 --rate 0.01 f.bloom
    expect 0 "$bloom" add f.bloom one two three
    expect 0 "$bloom" info f.bloom
    field() { sed -n "s/^$1: *//p" <<<"$out"; }
    [[ $(field kind) == classic ]] || fail "info: $out"
    [[ $(field bits) == 9585059 ]] || fail "info bits: $out" # m = ceil(-n ln p / ln^2 2), n = 10^6, p = 1%
    [[ $(field k) == "7 (hash functions)" ]] || fail "info k: $out"
    [[ $(field seed) == 0x626c6f6f6d5f7631 ]] || fail "info seed: $out"
    [[ $(field items) == 3 ]] || fail "info items: $out"
    [[ $(field "expected items") == 1000000 ]] || fail "info expected items: $out"
    contains "$(field fill)" "%"
    contains "$(field "current rate")" "e-"
    [[ $(field "target rate") == "0.01 (1%)" ]] || fail "info target rate: $out"
    [[ $(field bytes) == "$(stat -c %s f.bloom) (1.14 MiB)" ]] || fail "info bytes: $out"
    expect 0 "$bloom" create --items 1000 --rate 0.001 --kind blocked --seed 7 b.bloom
    expect 0 "$bloom" info b.bloom
    [[ $(field kind) == blocked ]] || fail "info: $out"
    # 15.5 bits per item at 0.1%: nine bits anywhere in the block (the sizing tests derive both).
    [[ $(field k) == "9 (hash functions)" ]] || fail "info k: $out"
    [[ $(field pattern) == "bits anywhere in the block" ]] || fail "info pattern: $out"
    [[ $(field seed) == 0x0000000000000007 ]] || fail "info seed: $out"
    ;;

capacity)
    field() { sed -n "s/^$1: *//p" <<<"$out"; }
    expect 0 "$bloom" create --items 2000 --rate 0.01 f.bloom
    seq 1 1000 >half.txt
    expect 0 "$bloom" add f.bloom <half.txt
    [[ $err != *warning* ]] || fail "a warning below capacity: $err"
    expect 0 "$bloom" info f.bloom
    [[ $out != *warning* ]] || fail "info warned below capacity: $out"
    load=$(field "load factor" | cut -d' ' -f1)
    awk -v l="$load" 'BEGIN { exit !(l > 0.45 && l < 0.55) }' || fail "load factor at half capacity: $load"
    # Past capacity: the add succeeds, with one warning line on stderr; info warns once the rate from the
    # bits passes twice the target.
    seq 1001 5000 >more.txt
    expect 0 "$bloom" add f.bloom <more.txt
    [[ $(grep -c '^warning: ' <<<"$err") == 1 ]] || fail "add past capacity: $err"
    contains "$err" "2,000"
    expect 0 "$bloom" info f.bloom
    [[ $(grep -c '^warning: ' <<<"$out") == 1 ]] || fail "info past capacity: $out"
    load=$(field "load factor" | cut -d' ' -f1)
    awk -v l="$load" 'BEGIN { exit !(l > 2.3 && l < 2.7) }' || fail "load factor at 2.5x: $load"
    # The reported rate is what non-members see: 20,000 of them, within 4 sigma + 5%.
    rate=$(field "current rate" | cut -d' ' -f1)
    seq 1000001 1020000 >absent.txt
    "$bloom" check f.bloom <absent.txt >present.txt || true
    present=$(wc -l <present.txt)
    awk -v p="$rate" -v c="$present" 'BEGIN { q = 20000; s = sqrt(p * (1 - p) / q);
        d = c / q - p; if (d < 0) d = -d; exit !(d <= 4 * s + 0.05 * p) }' ||
        fail "current rate $rate, measured $present of 20000"
    # A merge of a file with itself has its count and its rate.
    expect 0 "$bloom" info f.bloom
    before_items=$(field items)
    before_rate=$(field "current rate")
    expect 0 "$bloom" merge dup.bloom f.bloom f.bloom
    expect 0 "$bloom" info dup.bloom
    [[ $(field items) == "$before_items" ]] || fail "f | f items: $out"
    [[ $(field "current rate") == "$before_rate" ]] || fail "f | f rate: $out"
    ;;

merge)
    expect 0 "$bloom" create --items 1000 --rate 0.01 a.bloom
    expect 0 "$bloom" create --items 1000 --rate 0.01 b.bloom
    expect 0 "$bloom" add a.bloom apple apricot
    expect 0 "$bloom" add b.bloom banana
    expect 0 "$bloom" merge ab.bloom a.bloom b.bloom
    expect 0 "$bloom" check ab.bloom apple apricot banana
    expect 0 "$bloom" info ab.bloom
    [[ $(sed -n 's/^items: *//p' <<<"$out") == 3 ]] || fail "merged items: $out"
    # Into one of its inputs.
    expect 0 "$bloom" merge a.bloom a.bloom b.bloom
    expect 0 "$bloom" check a.bloom banana
    # An existing output that is not an input needs --force.
    expect 2 "$bloom" merge ab.bloom a.bloom
    contains "$err" "ab.bloom"
    expect 0 "$bloom" merge --force ab.bloom a.bloom
    # Incompatible filters: a clear error naming the file, and the output untouched.
    expect 0 "$bloom" create --items 5000 --rate 0.01 big.bloom
    expect 0 "$bloom" create --items 1000 --rate 0.01 --seed 9 seeded.bloom
    expect 0 "$bloom" create --items 1000 --rate 0.01 --kind blocked blocked.bloom
    before=$(sha256sum ab.bloom)
    expect 2 "$bloom" merge --force ab.bloom a.bloom big.bloom
    contains "$err" "big.bloom"
    contains "$err" "bit_count"
    expect 2 "$bloom" merge --force ab.bloom a.bloom seeded.bloom
    contains "$err" "seed"
    expect 2 "$bloom" merge --force ab.bloom a.bloom blocked.bloom
    contains "$err" "another kind"
    [[ $(sha256sum ab.bloom) == "$before" ]] || fail "a failed merge changed its output"
    ;;

exit_codes)
    expect 2 "$bloom" frobnicate
    contains "$err" "unknown command"
    expect 2 "$bloom" create --items 0 --rate 0.01 x.bloom
    contains "$err" "--items"
    expect 2 "$bloom" create --items 10 --rate 1.5 x.bloom
    contains "$err" "--rate"
    expect 2 "$bloom" create --items 10 --rate 0.01 --kind fancy x.bloom
    contains "$err" "--kind"
    expect 2 "$bloom" create --items 10 --rate 0.01 --seed -1 x.bloom
    contains "$err" "--seed"
    expect 2 "$bloom" create --items 10 x.bloom
    expect 2 "$bloom" create --items 10 --rate 0.01
    [[ ! -e x.bloom ]] || fail "a failed create left a file"
    expect 0 "$bloom" create --items 10 --rate 0.01 x.bloom
    expect 2 "$bloom" create --items 10 --rate 0.01 x.bloom
    contains "$err" "already exists"
    expect 0 "$bloom" create --force --items 20 --rate 0.01 x.bloom
    expect 2 "$bloom" add x.bloom --bogus
    expect 2 "$bloom" check
    expect 2 "$bloom" info
    ;;

malformed_files)
    expect 2 "$bloom" check missing.bloom x
    contains "$err" "missing.bloom: no such file"
    [[ $(wc -l <err.txt) == 1 ]] || fail "expected a one-line error: $err"
    : >empty.bloom
    expect 2 "$bloom" info empty.bloom
    contains "$err" "empty.bloom: not a valid filter file"
    echo "hello, I am not a filter" >text.bloom
    expect 2 "$bloom" add text.bloom x
    contains "$err" "text.bloom"
    [[ $(cat text.bloom) == "hello, I am not a filter" ]] || fail "add changed a malformed file"
    mkdir dir.bloom
    expect 2 "$bloom" info dir.bloom
    contains "$err" "directory"
    expect 0 "$bloom" create --items 1000 --rate 0.01 good.bloom
    size=$(stat -c %s good.bloom)
    head -c $((size / 2)) good.bloom >truncated.bloom
    expect 2 "$bloom" check truncated.bloom x
    contains "$err" "truncated"
    cp good.bloom corrupt.bloom
    printf '\xff' | dd of=corrupt.bloom bs=1 seek=$((size - 20)) conv=notrunc status=none
    expect 2 "$bloom" info corrupt.bloom
    contains "$err" "checksum"
    for file in empty truncated corrupt text; do
        expect 2 "$bloom" merge out.bloom good.bloom "$file.bloom"
        [[ ! -e out.bloom ]] || fail "merge with a malformed input wrote its output"
    done
    ;;

large_stdin)
    # 10^6 lines through add and check, streamed.
    expect 0 "$bloom" create --items 1000000 --rate 0.01 big.bloom
    seq 1 1000000 | "$bloom" add big.bloom 2>err.txt || fail "add from stdin failed: $(cat err.txt)"
    contains "$(cat err.txt)" "1,000,000 values"
    seq 1 1000000 >members.txt
    expect 0 "$bloom" check big.bloom <members.txt
    [[ $(wc -l <out.txt) == 1000000 ]] || fail "check did not print every member"
    # 10^5 non-members: the absent ones are most of them, and the rate is near 1%.
    seq 2000001 2100000 >others.txt
    expect 1 "$bloom" check --invert big.bloom <others.txt
    absent=$(wc -l <out.txt)
    (( absent > 98500 && absent < 99500 )) || fail "expected about 99,000 absent of 100,000, got $absent"
    # item_count counts the inserts that were definitely new: all but the few false positives met on the way.
    expect 0 "$bloom" info big.bloom
    items=$(sed -n 's/^items: *//p' <<<"$out")
    (( items > 995000 && items <= 1000000 )) || fail "expected about 10^6 items, got $items"
    ;;

atomic_writes)
    expect 0 "$bloom" create --items 100000 --rate 0.01 f.bloom
    expect 0 "$bloom" add f.bloom keep-me
    # An add interrupted mid-stream (as Ctrl-C or a shutdown would; a non-interactive shell makes background
    # jobs ignore SIGINT, so SIGTERM stands in for it) leaves the old file intact and no temporary file.
    before=$(sha256sum f.bloom)
    (seq 1 50000; sleep 5) | "$bloom" add f.bloom 2>/dev/null &
    pid=$!
    sleep 1
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || true
    [[ $(sha256sum f.bloom) == "$before" ]] || fail "an interrupted add changed the file"
    [[ $(ls | grep -c 'tmp-') == 0 ]] || fail "an interrupted add left a temporary file: $(ls)"
    expect 0 "$bloom" check f.bloom keep-me
    # A file that cannot be replaced (read-only directory) fails with status 2 and keeps the old one.
    if [[ $EUID != 0 ]]; then
        chmod a-w .
        expect 2 "$bloom" add f.bloom more
        chmod u+w .
        [[ $(sha256sum f.bloom) == "$before" ]] || fail "a failed save changed the file"
    fi
    ;;

*)
    fail "unknown scenario"
    ;;
esac
echo "ok: $scenario"
