// SPDX-License-Identifier: MIT
//
// sqlite_support.hpp: the thin SQLite layer the SQLite examples (username_checker, negative_cache) share:
// RAII wrappers for a connection and a prepared statement that turn every SQLite error into a
// std::runtime_error, and the database file a run creates and removes again. Not part of the library;
// header-only, in namespace example_support. Link with -lsqlite3.

#ifndef BLOOM_EXAMPLES_SUPPORT_SQLITE_SUPPORT_HPP
#define BLOOM_EXAMPLES_SUPPORT_SQLITE_SUPPORT_HPP

#include "example_support.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace example_support {

/// Throws std::runtime_error("SQLite: `what`: <the connection's last error message>").
[[noreturn]] inline void sqlite_failure(sqlite3* db, const char* what) {
    throw std::runtime_error(std::string("SQLite: ") + what + ": " + sqlite3_errmsg(db));
}

/// An open database connection, closed at the end of its scope.
class database {
  public:
    /// Opens `path` for reading and writing, creating the file if it does not exist.
    explicit database(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &m_handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
            SQLITE_OK) {
            const std::string message = m_handle != nullptr ? sqlite3_errmsg(m_handle) : "out of memory";
            sqlite3_close(m_handle);
            throw std::runtime_error("SQLite: cannot open " + path + ": " + message);
        }
    }
    database(const database&) = delete;
    database& operator=(const database&) = delete;
    ~database() { sqlite3_close(m_handle); }

    /// The connection, for the SQLite calls the wrapper does not cover.
    sqlite3* handle() const noexcept { return m_handle; }

    /// Runs `sql`, one or more statements that return no rows the caller needs.
    void execute(const char* sql) {
        if (sqlite3_exec(m_handle, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
            sqlite_failure(m_handle, sql);
        }
    }

  private:
    sqlite3* m_handle = nullptr;
};

/// A prepared statement, finalized at the end of its scope.
class statement {
  public:
    /// Prepares `sql` (one statement) on `db`.
    statement(database& db, const char* sql) : m_db(db.handle()) {
        if (sqlite3_prepare_v2(m_db, sql, -1, &m_handle, nullptr) != SQLITE_OK) {
            sqlite_failure(m_db, sql);
        }
    }
    statement(const statement&) = delete;
    statement& operator=(const statement&) = delete;
    ~statement() { sqlite3_finalize(m_handle); }

    /// The statement, for the SQLite calls the wrapper does not cover.
    sqlite3_stmt* handle() const noexcept { return m_handle; }

    /// Binds `text` to parameter `index` (1-based); `text` must outlive the next step().
    void bind(int index, std::string_view text) {
        if (sqlite3_bind_text(m_handle, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC) !=
            SQLITE_OK) {
            sqlite_failure(m_db, "bind");
        }
    }
    /// Runs one step: true if it produced a row, false when done.
    bool step() {
        const int status = sqlite3_step(m_handle);
        if (status == SQLITE_ROW) {
            return true;
        }
        if (status != SQLITE_DONE) {
            sqlite_failure(m_db, "step");
        }
        return false;
    }
    /// Makes the statement ready to run again (its bindings stay).
    void reset() { sqlite3_reset(m_handle); }
    /// Column `column` (0-based) of the current row as text; valid until the next step() or reset().
    std::string_view column_text(int column) const {
        const unsigned char* const text = sqlite3_column_text(m_handle, column);
        return {reinterpret_cast<const char*>(text),
                static_cast<std::size_t>(sqlite3_column_bytes(m_handle, column))};
    }

  private:
    sqlite3* m_db;
    sqlite3_stmt* m_handle = nullptr;
};

/// Runs `sql`, a query for one number (SELECT COUNT(*) ...), and returns the first column of its first row.
inline std::uint64_t query_count(database& db, const char* sql) {
    statement query(db, sql);
    query.step();
    return static_cast<std::uint64_t>(sqlite3_column_int64(query.handle(), 0));
}

/// The file a run's database lives in: the path the user named, which must not exist yet, or else a new
/// file in the temp directory. At the end of its scope it removes the file and SQLite's companion files
/// (rollback journal, write-ahead log) unless told to keep them; declare it before the connection, so that
/// the connection is closed first.
class database_file {
  public:
    /// `requested`: the user's path, or "" for a new file "`temp_prefix`<random hex>.db" in the temp
    /// directory. Throws std::runtime_error if `requested` names a file that exists.
    database_file(const std::string& requested, const char* temp_prefix, bool keep)
        : m_path(requested.empty() ? unique_temp_path(temp_prefix) : std::filesystem::path(requested)),
          m_temporary(requested.empty()), m_keep(keep) {
        if (!m_temporary && std::filesystem::exists(m_path)) {
            throw std::runtime_error(m_path.string() + " already exists; give --db a new file name");
        }
    }
    database_file(const database_file&) = delete;
    database_file& operator=(const database_file&) = delete;
    ~database_file() {
        if (!m_keep) {
            std::error_code ignored;
            std::filesystem::remove(m_path, ignored);
            for (const char* suffix : {"-wal", "-shm", "-journal"}) {
                std::filesystem::remove(m_path.string() + suffix, ignored);
            }
        }
    }

    /// Where the database is.
    const std::filesystem::path& path() const noexcept { return m_path; }
    /// The path for a report: in full only when it matters, for a file that stays or one the user named.
    std::string shown_path() const {
        return m_temporary && !m_keep ? m_path.filename().string() + " in the temp directory"
                                      : m_path.string();
    }
    /// Whether the file stays at exit.
    bool kept() const noexcept { return m_keep; }

  private:
    /// A path in the temp directory that does not exist yet: `prefix`, 16 random hex digits, ".db".
    static std::filesystem::path unique_temp_path(const char* prefix) {
        std::random_device device;
        const auto now =
            static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
        for (std::uint64_t attempt = 0;; ++attempt) {
            char name[96];
            std::snprintf(name, sizeof name, "%s%016llx.db", prefix,
                          static_cast<unsigned long long>(splitmix64_hash(now ^ device() ^ (attempt << 32))));
            const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
            if (!std::filesystem::exists(path)) {
                return path;
            }
        }
    }

    std::filesystem::path m_path;
    bool m_temporary;
    bool m_keep;
};

} // namespace example_support

#endif // BLOOM_EXAMPLES_SUPPORT_SQLITE_SUPPORT_HPP
