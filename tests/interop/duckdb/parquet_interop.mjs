// SPDX-License-Identifier: MIT
// DuckDB's side of the Parquet interoperability test of bloom::parquet::file (scripts/check-duckdb.sh runs
// it with npm's @duckdb/node-api): DuckDB writes Parquet files with Bloom filters, then answers
// parquet_bloom_probe(file, column, value) for members and non-members of every column. Each answer is one
// line of OUT_DIR/answers.tsv:
//   FILE  COLUMN  VALUE_HEX  MEMBER  ROW_GROUP  EXCLUDES
// VALUE_HEX is the hex of the value's text as a SQL literal would give it (UTF-8); MEMBER is 1 if the row
// group holds the value; EXCLUDES is 1 if DuckDB's filter says the row group cannot hold it.
// Beside the first file, NAME_rows.csv lists its rows' name and id columns with each row's row group, the
// input of examples/parquet_row_groups.cpp.
//   node parquet_interop.mjs OUT_DIR [--small]     (--small: the few small files committed as fixtures)
import { DuckDBInstance } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, flag] = process.argv.slice(2);
if (!outDir) {
    console.error('usage: node parquet_interop.mjs OUT_DIR [--small]');
    process.exit(2);
}
const small = flag === '--small';
const db = await DuckDBInstance.create(':memory:');
const connection = await db.connect();
const quote = (text) => `'${text.replaceAll("'", "''")}'`;

// name -> [SELECT producing the rows, row group size, columns to probe]
const files = small ? {
    // Each value lives in one row group (rows come in runs), so the other groups' filters answer absent.
    'small.parquet': [`SELECT 'user-' || (i // 10) AS name, ['ü-', '日本-', '😀-'][(i % 3) + 1] || (i // 15) AS label,
        (i // 20)::BIGINT AS id, ((i // 10) % 350 - 100)::INTEGER AS small, (i // 25)::DOUBLE / 4 AS d,
        (i // 30)::FLOAT / 8 AS f FROM range(6000) t(i)`, 2000],
} : {
    'users.parquet': [`SELECT 'user-' || (i % 5000) AS name, (i % 3000)::BIGINT AS id, (i % 2000)::INTEGER AS small,
        (i % 1000)::DOUBLE / 4 AS d, (i % 700)::FLOAT / 8 AS f FROM range(200000) t(i)`, 50000],
    'mixed.parquet': [`SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE ['ünïcødé-', '日本語-', 'emoji-😀-', 'plain-', ''][(i % 5) + 1] || (i % 800)::VARCHAR END AS label,
        (-(i % 2500) * 1000003)::BIGINT AS big, ((i % 900) - 450)::INTEGER AS signed,
        ((i % 600) * 0.1)::DOUBLE AS tenth FROM range(60000) t(i)`, 7000],
    'one_group.parquet': [`SELECT 'k' || (i % 300) AS key, (i % 300)::INTEGER AS n FROM range(5000) t(i)`, 100000],
};

const lines = [];
for (const [name, [select, groupSize]] of Object.entries(files)) {
    const path = join(outDir, name);
    await connection.run(`COPY (${select}) TO ${quote(path)} (FORMAT parquet, ROW_GROUP_SIZE ${groupSize})`);
    // Row group boundaries, so each member's row groups are known.
    const sizes = (await connection.runAndReadAll(
        `SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(${quote(path)}) ORDER BY 1`)).getRows();
    let first = 0n;
    const cases = sizes.map(([group, rows]) => { first += BigInt(rows); return `WHEN file_row_number < ${first} THEN ${group}`; });
    const groupOf = `CASE ${cases.join(' ')} END`;
    if (name === Object.keys(files)[0]) {
        const rows = join(outDir, name.replace('.parquet', '_rows.csv'));
        await connection.run(`COPY (SELECT name, id, ${groupOf} AS row_group FROM read_parquet(${quote(path)}, file_row_number = true)
            ORDER BY file_row_number) TO ${quote(rows)} (HEADER)`);
    }
    const columns = (await connection.runAndReadAll(
        `SELECT DISTINCT path_in_schema, type FROM parquet_metadata(${quote(path)})`)).getRows();
    for (const [column, type] of columns) {
        const text = (v) => (typeof v === 'bigint' || typeof v === 'number') ? String(v) : v;
        const holders = (await connection.runAndReadAll(
            `SELECT "${column}", list(DISTINCT ${groupOf}) FROM read_parquet(${quote(path)}, file_row_number = true)
             WHERE "${column}" IS NOT NULL GROUP BY 1 ORDER BY hash("${column}") LIMIT ${small ? 50 : 1500}`)).getRows();
        const groupsOf = new Map(holders.map((r) => [text(r[0]), new Set(r[1].items.map((g) => String(g)))]));
        const members = [...groupsOf.keys()];
        const present = new Set(members);
        const others = [];
        for (let i = 0; others.length < (small ? 50 : 1500); ++i) {
            const candidate = type === 'BYTE_ARRAY' ? `absent-${i}-ä`
                : type === 'DOUBLE' || type === 'FLOAT' ? String(100000.5 + i * 0.25)
                : String(1000000007 + i * 7919);
            if (!present.has(candidate)) others.push(candidate);
        }
        for (const [values, member] of [[members, 1], [others, 0]]) {
            for (const value of values) {
                const literal = type === 'BYTE_ARRAY' ? quote(value) : value;
                const rows = (await connection.runAndReadAll(
                    `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${quote(path)}, ${quote(column)}, ${literal})`)).getRows();
                const hex = Buffer.from(value, 'utf8').toString('hex') || '-';
                for (const [group, excludes] of rows) {
                    const holds = member === 1 && groupsOf.get(value).has(String(group)) ? 1 : 0;
                    lines.push([name, column, hex, holds, String(group), excludes ? 1 : 0].join('\t'));
                }
            }
        }
    }
}
writeFileSync(join(outDir, 'answers.tsv'), lines.join('\n') + '\n');
const version = (await connection.runAndReadAll('SELECT version()')).getRows()[0][0];
console.log(`DuckDB ${version}: ${Object.keys(files).length} files, ${lines.length} probe answers in ${join(outDir, 'answers.tsv')}`);
