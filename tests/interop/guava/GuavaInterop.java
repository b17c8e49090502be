// SPDX-License-Identifier: MIT
// Guava's side of the interoperability test of bloom::guava (scripts/check-guava.sh runs it against
// Debian's guava.jar). A case is a pair of files: NAME.bin, a BloomFilter's writeTo stream, and NAME.txt:
//   TYPE STRATEGY EXPECTED_INSERTIONS FPP      (TYPE long|int|string|chars, STRATEGY mitz64|mitz32)
//   put VALUE RESULT                           (each put in order, RESULT 1 if put returned true)
//   query VALUE ANSWER                         (mightContain after the puts, 1 or 0)
// VALUE is decimal for long and int, the hex of the UTF-8 bytes for string, the hex of the UTF-16 code
// units (4 digits each) for chars.
//   write DIR   writes the cases guava_*.{bin,txt}, built by Guava
//   write-fixtures DIR   writes the small cases of tests/data/guava, which the unit tests read
//   check DIR   checks the cases ours_*.{bin,txt}, built by bloom: readFrom must answer every query as the
//               file says, and a filter Guava builds from the same arguments and puts must return the
//               same put results and write the same bytes. Exit status 1 on any difference.
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;

public final class GuavaInterop {
    private static Funnel<?> funnel(String type) {
        switch (type) {
            case "long": return Funnels.longFunnel();
            case "int": return Funnels.integerFunnel();
            case "string": return Funnels.stringFunnel(StandardCharsets.UTF_8);
            case "chars": return Funnels.unencodedCharsFunnel();
            default: throw new IllegalArgumentException("unknown type " + type);
        }
    }

    private static String encode(String type, Object value) {
        if (type.equals("long") || type.equals("int")) {
            return value.toString();
        }
        StringBuilder hex = new StringBuilder();
        if (type.equals("string")) {
            for (byte b : ((String) value).getBytes(StandardCharsets.UTF_8)) {
                hex.append(String.format("%02x", b & 0xff));
            }
        } else {
            for (char c : ((String) value).toCharArray()) {
                hex.append(String.format("%04x", (int) c));
            }
        }
        return hex.length() == 0 ? "-" : hex.toString();
    }

    private static Object decode(String type, String text) {
        switch (type) {
            case "long": return Long.parseLong(text);
            case "int": return Integer.parseInt(text);
            case "string": {
                if (text.equals("-")) return "";
                byte[] bytes = new byte[text.length() / 2];
                for (int i = 0; i < bytes.length; ++i) {
                    bytes[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
            default: {
                if (text.equals("-")) return "";
                char[] chars = new char[text.length() / 4];
                for (int i = 0; i < chars.length; ++i) {
                    chars[i] = (char) Integer.parseInt(text.substring(4 * i, 4 * i + 4), 16);
                }
                return new String(chars);
            }
        }
    }

    /// BloomFilter.create with MITZ_64, or a MITZ_32 filter of the same size made through readFrom (the
    /// public API creates only MITZ_64 filters; readFrom takes the legacy strategy's ordinal, 0).
    @SuppressWarnings("unchecked")
    private static BloomFilter<Object> create(String type, String strategy, long n, double fpp) throws IOException {
        BloomFilter<Object> filter = BloomFilter.create((Funnel<Object>) funnel(type), n, fpp);
        if (strategy.equals("mitz64")) {
            return filter;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        filter.writeTo(bytes);
        byte[] stream = bytes.toByteArray();
        stream[0] = 0;
        return BloomFilter.readFrom(new ByteArrayInputStream(stream), (Funnel<Object>) funnel(type));
    }

    private static String randomString(SplittableRandom random, boolean unicode, boolean unpaired) {
        int length = random.nextInt(24);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; ++i) {
            int pick = random.nextInt(unicode ? 6 : 1);
            switch (pick) {
                case 0: text.append((char) ('a' + random.nextInt(26))); break;
                case 1: text.append((char) (0xe0 + random.nextInt(0x20))); break;       // Latin-1 letters
                case 2: text.append((char) (0x4e00 + random.nextInt(0x5000))); break;   // CJK
                case 3: text.appendCodePoint(0x1f600 + random.nextInt(0x40)); break;     // emoji, a surrogate pair
                case 4: text.append((char) (0x400 + random.nextInt(0x100))); break;     // Cyrillic
                default:
                    if (unpaired) {
                        text.append((char) (0xd800 + random.nextInt(0x800)));           // a lone surrogate
                    } else {
                        text.append((char) ('0' + random.nextInt(10)));
                    }
            }
        }
        return text.toString();
    }

    private static Object randomValue(String type, SplittableRandom random, int index, String flavour) {
        switch (type) {
            case "long":
                if (index < 3) return new long[] {0L, Long.MIN_VALUE, Long.MAX_VALUE}[index];
                return random.nextLong();
            case "int":
                if (index < 3) return new int[] {0, Integer.MIN_VALUE, Integer.MAX_VALUE}[index];
                return random.nextInt();
            case "string":
                if (flavour.equals("ascii")) return "user-" + random.nextInt(1 << 30);
                return randomString(random, true, false);
            default:
                return randomString(random, true, true);
        }
    }

    private static void writeCase(File dir, String name, String type, String strategy, long n, double fpp,
                                  int puts, int nonMembers, String flavour, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        BloomFilter<Object> filter = create(type, strategy, n, fpp);
        List<Object> members = new ArrayList<>();
        HashSet<Object> seen = new HashSet<>();
        try (PrintWriter text = new PrintWriter(new File(dir, name + ".txt"), "UTF-8")) {
            text.println(type + " " + strategy + " " + n + " " + fpp);
            for (int i = 0; i < puts; ++i) {
                Object value = randomValue(type, random, i, flavour);
                members.add(value);
                seen.add(value);
                text.println("put " + encode(type, value) + " " + (filter.put(value) ? 1 : 0));
            }
            List<Object> queries = new ArrayList<>(members);
            for (int i = 0; queries.size() < members.size() + nonMembers; ++i) {
                Object value = randomValue(type, random, 3 + i, flavour);
                if (!seen.contains(value)) {
                    queries.add(value);
                }
            }
            for (Object value : queries) {
                text.println("query " + encode(type, value) + " " + (filter.mightContain(value) ? 1 : 0));
            }
        }
        try (FileOutputStream out = new FileOutputStream(new File(dir, name + ".bin"))) {
            filter.writeTo(out);
        }
    }

    /// The small cases committed under tests/data/guava, which the unit tests read without Java.
    private static void writeFixtures(File dir) throws IOException {
        writeCase(dir, "long", "long", "mitz64", 300, 0.01, 300, 500, "", 11);
        writeCase(dir, "long_overfilled", "long", "mitz64", 50, 0.01, 300, 300, "", 12);
        writeCase(dir, "int", "int", "mitz64", 300, 0.03, 300, 500, "", 13);
        writeCase(dir, "string_ascii", "string", "mitz64", 300, 0.001, 300, 500, "ascii", 14);
        writeCase(dir, "string_unicode", "string", "mitz64", 200, 0.01, 200, 300, "unicode", 15);
        writeCase(dir, "chars", "chars", "mitz64", 200, 0.02, 200, 300, "", 16);
        writeCase(dir, "long_mitz32", "long", "mitz32", 300, 0.01, 400, 500, "", 17);
        writeCase(dir, "string_mitz32", "string", "mitz32", 200, 0.05, 250, 300, "unicode", 18);
    }

    private static void write(File dir) throws IOException {
        writeCase(dir, "guava_long", "long", "mitz64", 5000, 0.01, 5000, 20000, "", 1);
        writeCase(dir, "guava_long_overfilled", "long", "mitz64", 500, 0.01, 3000, 5000, "", 2);
        writeCase(dir, "guava_int", "int", "mitz64", 3000, 0.03, 3000, 20000, "", 3);
        writeCase(dir, "guava_string_ascii", "string", "mitz64", 4000, 0.001, 4000, 20000, "ascii", 4);
        writeCase(dir, "guava_string_unicode", "string", "mitz64", 2000, 0.01, 2000, 10000, "unicode", 5);
        writeCase(dir, "guava_chars", "chars", "mitz64", 2000, 0.02, 2000, 10000, "", 6);
        writeCase(dir, "guava_long_mitz32", "long", "mitz32", 3000, 0.01, 4000, 10000, "", 7);
        writeCase(dir, "guava_string_mitz32", "string", "mitz32", 2000, 0.05, 2500, 10000, "unicode", 8);
        writeCase(dir, "guava_int_tiny", "int", "mitz64", 1, 0.3, 5, 1000, "", 9);
        writeCase(dir, "guava_long_large", "long", "mitz64", 2000000, 0.01, 200000, 200000, "", 10);
    }

    @SuppressWarnings("unchecked")
    private static int check(File dir) throws IOException {
        File[] cases = dir.listFiles((d, name) -> name.startsWith("ours_") && name.endsWith(".txt"));
        if (cases == null || cases.length == 0) {
            System.err.println("check: no ours_*.txt cases in " + dir);
            return 1;
        }
        Arrays.sort(cases);
        int failures = 0;
        for (File textFile : cases) {
            String name = textFile.getName().replaceAll("\\.txt$", "");
            List<String> lines = Files.readAllLines(textFile.toPath(), StandardCharsets.UTF_8);
            String[] head = lines.get(0).split(" ");
            String type = head[0];
            Funnel<Object> funnel = (Funnel<Object>) funnel(type);
            BloomFilter<Object> read;
            try (InputStream in = new FileInputStream(new File(dir, name + ".bin"))) {
                read = BloomFilter.readFrom(in, funnel);
            }
            BloomFilter<Object> rebuilt = create(type, head[1], Long.parseLong(head[2]), Double.parseDouble(head[3]));
            long puts = 0, queries = 0, wrong = 0;
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.split(" ");
                Object value = decode(type, fields[1]);
                boolean expected = fields[2].equals("1");
                if (fields[0].equals("put")) {
                    ++puts;
                    if (rebuilt.put(value) != expected) ++wrong;
                } else {
                    ++queries;
                    if (read.mightContain(value) != expected) ++wrong;
                }
            }
            ByteArrayOutputStream rebuiltBytes = new ByteArrayOutputStream();
            rebuilt.writeTo(rebuiltBytes);
            boolean sameBytes = Arrays.equals(rebuiltBytes.toByteArray(), Files.readAllBytes(new File(dir, name + ".bin").toPath()));
            boolean ok = wrong == 0 && sameBytes && read.equals(rebuilt);
            System.out.println((ok ? "ok   " : "FAIL ") + name + ": " + puts + " puts, " + queries
                    + " queries, " + wrong + " different answers, Guava's rebuild "
                    + (sameBytes ? "writes the same bytes" : "writes DIFFERENT bytes"));
            if (!ok) ++failures;
        }
        return failures == 0 ? 0 : 1;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !Arrays.asList("write", "write-fixtures", "check").contains(args[0])) {
            System.err.println("usage: GuavaInterop write|write-fixtures|check DIR");
            System.exit(2);
        }
        File dir = new File(args[1]);
        if (args[0].startsWith("write")) {
            if (args[0].equals("write")) {
                write(dir);
            } else {
                writeFixtures(dir);
            }
            System.exit(0);
        }
        System.exit(check(dir));
    }
}
