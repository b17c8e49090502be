#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drives the real `bloom` binary (tools/bloom.cpp) through one scenario; tools/CMakeLists.txt registers
# each scenario as a CTest test.   usage: tests/cli_test.sh BLOOM_BINARY SCENARIO
set -euo pipefail

bloom=$1
scenario=$2
data=${3:-} # tests/data, for the scenarios that read committed files
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
    for command in create build add check info merge parquet guava-import guava-export; do
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

concurrent_updates)
    # at_once COMMAND COMMAND: runs two shell commands together; both must succeed.
    at_once() {
        sh -c "$1" 2>/dev/null &
        local first=$!
        sh -c "$2" 2>/dev/null &
        local second=$!
        wait "$first" || fail "'$1' failed"
        wait "$second" || fail "'$2' failed"
    }
    # lost: how many of the values of a.txt and b.txt f.bloom lacks.
    lost() { cat a.txt b.txt | "$bloom" check --invert f.bloom | wc -l; }
    seq 1 200000 | sed 's/^/a/' >a.txt
    seq 1 200000 | sed 's/^/b/' >b.txt
    # Two adds of 200,000 values each at once, five times: both batches land every time (each add holds
    # the file's lock from load to rename; without it one batch was lost in 5 of 5 runs).
    for run in 1 2 3 4 5; do
        expect 0 "$bloom" create --force --items 1000000 --rate 0.01 f.bloom
        at_once "'$bloom' add f.bloom <a.txt" "'$bloom' add f.bloom <b.txt"
        missing=$(lost) || true
        [[ $missing == 0 ]] || fail "run $run: $missing values lost by two concurrent adds"
    done
    # An add while a merge into the same file runs: the merged filter and the added values both land.
    expect 0 "$bloom" create --items 1000000 --rate 0.01 other.bloom
    expect 0 "$bloom" add other.bloom <b.txt
    for run in 1 2 3; do
        expect 0 "$bloom" create --force --items 1000000 --rate 0.01 f.bloom
        at_once "'$bloom' merge f.bloom f.bloom other.bloom" "'$bloom' add f.bloom <a.txt"
        missing=$(lost) || true
        [[ $missing == 0 ]] || fail "run $run: $missing values lost by an add during a merge"
    done
    ;;

create_race)
    # Creates of one path at once, without --force: exactly one succeeds each time; the other says
    # "already exists" and the file is the winner's, whole.
    for run in $(seq 1 10); do
        rm -f f.bloom
        "$bloom" create --items 100000 --rate 0.01 f.bloom 2>err1.txt &
        first=$!
        "$bloom" create --items 100000 --rate 0.01 --kind blocked f.bloom 2>err2.txt &
        second=$!
        status1=0
        status2=0
        wait "$first" || status1=$?
        wait "$second" || status2=$?
        [[ $((status1 + status2)) == 2 && $((status1 * status2)) == 0 ]] ||
            fail "run $run: two creates exited $status1 and $status2; expected one 0 and one 2"
        contains "$(cat err1.txt err2.txt)" "already exists"
        expect 0 "$bloom" info f.bloom
    done
    [[ $(ls | grep -c 'tmp-') == 0 ]] || fail "creates left temporary files: $(ls)"
    ;;

links)
    # A write through a symbolic link updates its target and the link stays a link.
    mkdir store
    expect 0 "$bloom" create --items 1000 --rate 0.01 store/real.bloom
    ln -s store/real.bloom link.bloom
    expect 0 "$bloom" add link.bloom x
    [[ -L link.bloom ]] || fail "add replaced the symbolic link with a file"
    expect 0 "$bloom" check store/real.bloom x
    expect 0 "$bloom" merge link.bloom link.bloom store/real.bloom
    [[ -L link.bloom ]] || fail "merge replaced the symbolic link with a file"
    # A dangling link: create makes its target.
    ln -s store/new.bloom dangling.bloom
    expect 0 "$bloom" create --items 1000 --rate 0.01 --force dangling.bloom
    [[ -L dangling.bloom && -f store/new.bloom ]] || fail "create through a dangling link"
    # merge OUT IN with OUT a second spelling of IN is a merge into an input.
    expect 0 "$bloom" merge ./store/real.bloom store/real.bloom dangling.bloom
    # A hard link: the update writes a new file (atomically), so the other name keeps the old filter, and
    # add says so.
    ln store/real.bloom hard.bloom
    expect 0 "$bloom" add store/real.bloom y
    contains "$err" "hard links"
    expect 0 "$bloom" check store/real.bloom y
    expect 1 "$bloom" check hard.bloom y
    ;;

special_files)
    # Nothing that is not a regular file is ever replaced; each refusal is one line naming the path.
    mkdir dir.bloom
    mkfifo fifo.bloom
    for target in dir.bloom fifo.bloom /dev/null; do
        expect 2 "$bloom" create --force --items 100 --rate 0.01 "$target"
        contains "$err" "$target"
        [[ $(wc -l <err.txt) == 1 ]] || fail "expected a one-line error: $err"
        expect 2 "$bloom" add "$target" x
        expect 2 "$bloom" merge --force "$target" "$target"
    done
    [[ -d dir.bloom && -p fifo.bloom && -c /dev/null ]] || fail "a special file was replaced"
    # Reading a FIFO nobody writes to fails at once instead of hanging; a pipe with a filter in it works.
    status=0
    timeout 20 "$bloom" check fifo.bloom x 2>err.txt || status=$?
    [[ $status == 2 ]] || fail "check of an idle FIFO exited $status (124: it hung)"
    expect 0 "$bloom" create --items 100 --rate 0.01 f.bloom
    expect 0 "$bloom" add f.bloom x
    expect 0 "$bloom" check <(cat f.bloom) x
    status=0
    timeout 20 "$bloom" check <(cat f.bloom f.bloom; yes) x >/dev/null 2>&1 || status=$?
    [[ $status == 0 ]] || fail "check of an endless pipe exited $status"
    ;;

changed_underneath)
    # A file truncated or rewritten while check reads it: status 2 with a message, never a crash (a
    # mapped file raised SIGBUS, status 135).
    expect 0 "$bloom" create --items 20000000 --rate 0.01 big.bloom
    seq 1 100 | "$bloom" add big.bloom 2>/dev/null
    cp big.bloom copy.bloom
    for run in $(seq 1 10); do
        cp copy.bloom big.bloom
        (sleep 0.0$((run % 5)); truncate -s 4096 big.bloom) &
        status=0
        "$bloom" check big.bloom 1 2 3 >/dev/null 2>err.txt || status=$?
        wait
        [[ $status == 0 || $status == 2 ]] || fail "run $run: check exited $status: $(cat err.txt)"
    done
    head -c 4096 copy.bloom >short.bloom
    expect 2 "$bloom" check short.bloom 1
    contains "$err" "short.bloom"
    ;;

output_errors)
    expect 0 "$bloom" create --items 100000 --rate 0.01 t.bloom
    seq 1 100000 >values.txt
    expect 2 sh -c "\"$bloom\" info t.bloom >/dev/full"
    contains "$err" "stdout"
    expect 2 sh -c "\"$bloom\" check --invert t.bloom <values.txt >/dev/full"
    contains "$err" "stdout"
    expect 2 sh -c "\"$bloom\" --help >/dev/full"
    # A full file system (a tiny tmpfs, where this runs as root and may mount one).
    mkdir small
    if mount -t tmpfs -o size=64k tmpfs small 2>/dev/null; then
        expect 2 sh -c "\"$bloom\" check --invert t.bloom <values.txt >small/out.txt"
        contains "$err" "stdout"
        rm small/out.txt
        # A save that does not fit: the old file stays, no temporary file remains.
        expect 0 "$bloom" create --items 1000 --rate 0.01 small/f.bloom
        expect 0 "$bloom" add small/f.bloom keep
        before=$(sha256sum small/f.bloom)
        expect 2 "$bloom" create --force --items 1000000 --rate 0.01 small/f.bloom
        contains "$err" "small/f.bloom"
        [[ $(sha256sum small/f.bloom) == "$before" ]] || fail "a failed save changed the file"
        [[ $(ls small | grep -c 'tmp-') == 0 ]] || fail "a failed save left a temporary file: $(ls small)"
        umount small
    fi
    ;;

arguments)
    expect 0 "$bloom" create --items 1000 --rate 0.01 h.bloom
    # After --, -h is a value, not a request for help.
    expect 0 "$bloom" add h.bloom -- -h
    contains "$err" "1 new"
    expect 0 "$bloom" check h.bloom -- -h
    [[ $out == "-h" ]] || fail "check -- -h printed: $out"
    expect 1 "$bloom" check h.bloom -- --help
    expect 0 "$bloom" help add
    contains "$out" "usage: bloom add"
    expect 2 "$bloom" help frobnicate
    # Messages say what is wrong.
    expect 2 "$bloom" create --items 18446744073709551615 --rate 0.01 x.bloom
    contains "$err" "too large"
    expect 2 "$bloom" create --items 1e30 --rate 0.01 x.bloom
    contains "$err" "too large"
    expect 2 "$bloom" create --items 100 --rate 1e-320 x.bloom
    contains "$err" "subnormal"
    # A 251-byte file name: the temporary name beside it still fits the 255-byte limit.
    long=$(printf 'n%.0s' $(seq 1 245)).bloom
    expect 0 "$bloom" create --items 100 --rate 0.01 "$long"
    expect 0 "$bloom" add "$long" x
    expect 0 "$bloom" check "$long" x
    ;;

temporary_files)
    # A writer killed mid-save leaves FILE.tmp-PID-N behind; the next save of FILE removes it (its
    # process is gone) and leaves others' alone.
    expect 0 "$bloom" create --items 1000 --rate 0.01 f.bloom
    echo partial >f.bloom.tmp-2147483646-0
    echo live >"f.bloom.tmp-$$-0"
    echo unrelated >g.bloom.tmp-2147483646-0
    expect 0 "$bloom" add f.bloom x
    [[ ! -e f.bloom.tmp-2147483646-0 ]] || fail "a dead writer's temporary file remains"
    [[ -e f.bloom.tmp-$$-0 && -e g.bloom.tmp-2147483646-0 ]] || fail "a save removed another's file"
    ;;

key_types)
    # Integer keys: the file's hasher says so; values parse as integers (any width hashes alike).
    expect 0 "$bloom" create --type u64 --items 1000 --rate 0.01 n.bloom
    expect 0 "$bloom" add n.bloom 1 2 -3 18446744073709551615
    expect 0 "$bloom" check n.bloom 1 2 -3 18446744073709551615
    expect 0 "$bloom" check n.bloom -1 # -1 and 2^64 - 1 are one 64-bit word
    expect 1 "$bloom" check n.bloom 4
    expect 2 "$bloom" add n.bloom abc
    contains "$err" "n.bloom: 'abc' is not an integer"
    expect 2 "$bloom" add --type u8 n.bloom 300
    contains "$err" "u8"
    expect 2 "$bloom" check --type string n.bloom 1
    contains "$err" "integers"
    expect 0 "$bloom" info n.bloom
    contains "$out" "integers"
    expect 0 "$bloom" create --type f64 --items 1000 --rate 0.01 d.bloom
    expect 0 "$bloom" add d.bloom 0.5 1e300
    expect 0 "$bloom" check d.bloom 0.5 1e300
    # Files written by programs: every golden file of the test suite is described, and its keys checked.
    data=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data
    for file in "$data"/*.bloom; do
        expect 0 "$bloom" info "$file"
        contains "$out" "keys:"
    done
    # Counting and scalable files do not merge, and the message says why.
    expect 2 "$bloom" merge out.bloom "$data/counting8_string.bloom" "$data/counting8_string.bloom"
    contains "$err" "counting"
    expect 2 "$bloom" merge out.bloom "$data/scalable_u64_mum2.bloom"
    contains "$err" "scalable"
    [[ ! -e out.bloom ]] || fail "a refused merge wrote its output"
    ;;

static)
    # A static (fuse) filter from stdin: every value found, the rest at about 2^-8; never changed in place.
    seq 1 20000 | sed 's/^/url-/' >urls.txt
    expect 0 "$bloom" build --static s.bloom <urls.txt
    contains "$err" "static filter of 20,000 distinct values, 8-bit fingerprints"
    expect 0 "$bloom" check s.bloom <urls.txt
    [[ $(wc -l <out.txt) == 20000 ]] || fail "check printed $(wc -l <out.txt) of 20000 members"
    seq 1 20000 | sed 's/^/other-/' >others.txt
    expect 1 "$bloom" check s.bloom <others.txt
    present=$(wc -l <out.txt)
    # 20,000 non-members at 2^-8: 78 expected, sigma 8.8; 4 sigma either side.
    ((present > 42 && present < 114)) || fail "$present of 20000 non-members reported present"
    expect 0 "$bloom" info s.bloom
    contains "$out" "kind:            fuse"
    contains "$out" "items:           20000 (distinct)"
    expect 0 "$bloom" build --static --bits 16 --type u64 ids.bloom 1 2 3 3
    expect 0 "$bloom" check ids.bloom 1 2 3
    expect 1 "$bloom" check ids.bloom 4
    expect 0 "$bloom" info ids.bloom
    contains "$out" "16 bits"
    contains "$out" "items:           3 (distinct)"
    # Static filters cannot change: add and merge refuse, and nothing is replaced without --force.
    expect 2 "$bloom" add s.bloom x
    contains "$err" "cannot take new values"
    expect 2 "$bloom" merge m.bloom s.bloom s.bloom
    contains "$err" "cannot be merged"
    [[ ! -e m.bloom ]] || fail "merge wrote a file it refused"
    expect 2 "$bloom" build --static s.bloom x
    contains "$err" "already exists"
    expect 0 "$bloom" build --static --force s.bloom x
    expect 2 "$bloom" build t.bloom x
    contains "$err" "say --static"
    expect 2 "$bloom" build --static --bits 12 t.bloom x
    contains "$err" "--bits must be 8, 16 or 32"
    ;;

guava)
    # tests/data/guava: streams Guava 31's BloomFilter.writeTo wrote, and its mightContain answers.
    guava="$data/guava"
    for case in long:long int:int string_ascii:string long_mitz32:long; do
        name=${case%%:*}
        type=${case##*:}
        expect 0 "$bloom" guava-import --type "$type" "$guava/$name.bin" "$name.bloom"
        contains "$err" "a Guava filter of"
        # Every query value through `check` (strings are stored as hex in the answers file).
        awk '$1 == "query" { print $2 }' "$guava/$name.txt" >hex.txt
        : >values.txt
        while read -r value; do
            if [[ $type == string ]]; then
                printf '%b\n' "$(sed 's/../\\x&/g' <<<"$value")" >>values.txt
            else
                echo "$value" >>values.txt
            fi
        done <hex.txt
        "$bloom" check "$name.bloom" <values.txt >present.txt || true
        paste -d' ' values.txt <(awk '$1 == "query" { print $3 }' "$guava/$name.txt") |
            awk '$NF == 1 { $NF = ""; sub(/ $/, ""); print }' >expected.txt
        cmp -s present.txt expected.txt || fail "$name: bloom check and Guava's mightContain differ"
        [[ $(wc -l <expected.txt) -gt 100 ]] || fail "$name: too few present values to compare"
        # And back to Guava's stream, byte for byte.
        expect 0 "$bloom" guava-export "$name.bloom" "$name.bin"
        cmp -s "$name.bin" "$guava/$name.bin" || fail "$name: guava-export changed the stream"
    done
    expect 0 "$bloom" info long.bloom
    contains "$out" "Guava BloomFilter (MURMUR128_MITZ_64)"
    contains "$out" "Guava's Funnels.longFunnel"
    expect 0 "$bloom" info long_mitz32.bloom
    contains "$out" "MURMUR128_MITZ_32"
    # Errors: the funnel must be named; our own filters do not export; nothing is replaced without --force.
    expect 2 "$bloom" guava-import "$guava/long.bin" x.bloom
    contains "$err" "needs --type"
    expect 2 "$bloom" guava-import --type float "$guava/long.bin" x.bloom
    contains "$err" "--type must be long, int, string or chars"
    expect 2 "$bloom" guava-import --type long "$guava/long.txt" x.bloom
    contains "$err" "not a Guava BloomFilter stream"
    expect 2 "$bloom" guava-import --type long "$guava/int.bin" long.bloom
    contains "$err" "already exists"
    expect 0 "$bloom" guava-import --force --type long "$guava/long_overfilled.bin" long.bloom
    expect 0 "$bloom" create --items 100 --rate 0.01 ours.bloom
    expect 2 "$bloom" guava-export ours.bloom ours.bin
    contains "$err" "which Guava cannot read"
    [[ ! -e ours.bin ]] || fail "guava-export wrote a file it refused"
    expect 2 "$bloom" add long.bloom 5
    contains "$err" "add and merge do not"
    expect 2 "$bloom" check --type u64 long.bloom 5
    contains "$err" "--type does not apply"
    expect 2 "$bloom" check long.bloom not-a-number
    contains "$err" "is not a Java long"
    ;;

parquet)
    # small.parquet: written by DuckDB 1.5, three row groups; 'user-5' is in row group 0 only, id 150 in
    # row group 1 only. The answers below are DuckDB's own (tests/data/parquet/answers.tsv).
    file="$data/parquet/small.parquet"
    expect 1 "$bloom" parquet "$file" --column name user-5 absent-0-ä
    [[ $out == "$file"$'\t0\tuser-5\tmaybe\n'"$file"$'\t1\tuser-5\tabsent\n'"$file"$'\t2\tuser-5\tabsent\n'"$file"$'\t0\tabsent-0-ä\tabsent\n'"$file"$'\t1\tabsent-0-ä\tabsent\n'"$file"$'\t2\tabsent-0-ä\tabsent\nskipped 5 of 6 row-group reads (83.33%); 1 of 2 values absent from every row group' ]] ||
        fail "parquet printed: $out"
    expect 0 "$bloom" parquet "$file" "$file" --column id 150
    contains "$out" $'\t1\t150\tmaybe'
    contains "$out" "skipped 4 of 6 row-group reads"
    # Values from stdin; a column without filters needs every row group read.
    printf 'user-5\nuser-250\n' >values.txt
    expect 0 "$bloom" parquet "$file" --column name <values.txt
    contains "$out" "0 of 2 values absent"
    expect 0 "$bloom" parquet "$file" --column label x
    contains "$out" $'\t0\tx\tmaybe (no filter)'
    expect 0 "$bloom" parquet --list "$file"
    contains "$out" "6000 rows in 3 row groups"
    contains "$out" "id"
    contains "$out" "3 of 3"
    contains "$out" "0 of 3"
    # Errors: exit 2 with the file named.
    expect 2 "$bloom" parquet "$file" --column nope x
    contains "$err" "has no column 'nope' (its columns: name, label, id, small, d, f)"
    expect 2 "$bloom" parquet "$file" --column id abc
    contains "$err" "'abc' is not an integer (column 'id' is INT64)"
    printf 'not parquet at all' >bad.parquet
    expect 2 "$bloom" parquet bad.parquet --column id 1
    contains "$err" "bad.parquet: not a Parquet file"
    head -c 20000 "$file" >cut.parquet
    expect 2 "$bloom" parquet cut.parquet --column id 1
    contains "$err" "cut.parquet: not a Parquet file"
    expect 2 "$bloom" parquet --column id 1
    contains "$err" "FILE... before --column"
    expect 2 "$bloom" parquet "$file"
    contains "$err" "needs --column"
    expect 2 "$bloom" parquet missing.parquet --column id 1
    contains "$err" "missing.parquet: no such file"
    ;;

*)
    fail "unknown scenario"
    ;;
esac
echo "ok: $scenario"
