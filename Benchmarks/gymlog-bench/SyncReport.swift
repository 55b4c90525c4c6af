import Foundation

/// The sync section of BENCHMARKS.md: everything between its own begin and end markers is
/// rewritten by `gymlog-bench sync`; the rest of the file (the header, and the part below
/// `Report.marker` that `gymlog-bench run` rewrites) is left alone.
struct SyncSection: MarkedSection {
    var report: Report
    var plan: SyncBenchPlan

    static let begin = "<!-- Begin of the sync section: rewritten by `gymlog-bench sync` up to the end marker; edit SyncReport.swift, not this text. -->"
    static let end = "<!-- End of the sync section (`gymlog-bench sync`). -->"

    func markdown() -> String {
        let r = report
        var out = "## Sync (issue 3)\n\n"
        out += """
            The sync targets, measured by `gymlog-bench sync` against the real release `gymlog-server`
            on loopback with its SQLite store, each against a baseline taken in the same run.

            ```sh
            swift build -c release
            .build/release/gymlog-bench sync            # push 20,000 events, pull 100,000 changes; about a minute
            .build/release/gymlog-bench sync --quick    # push 5,000, pull 25,000, 20 rounds
            ```

            `sync` rewrites only this section (between its markers); `run` leaves it alone. Working
            files go to a fresh directory under `$TMPDIR` (or `/tmp`), removed unless `--keep` is given.

            - **s1 Push** — set-create events (the 15 columns of a `sets` row, each with its HLC clock,
              built with `PushEvent(…changes:)` and encoded with `PushRequest.jsonBody()` as `HTTPSyncTransport`
              sends them) POSTed to `/v1/push` in batches of 1,000 over one keep-alive connection, timed
              from the first byte sent to the last byte of the answer. Baseline: the same records (one
              row per event, its stored text made before the clock starts) INSERTed through the raw C
              API into a file holding the server's own schema (made by `gymlog-server user add`, i.e.
              the server's migrations), with the server's PRAGMAs, one `BEGIN IMMEDIATE` … `COMMIT` per
              1,000 events, interleaved batch by batch with the pushes.
            - **s2 Pull** — a new device pulls the pusher's changes from `cursor=0` with `limit=5000`.
              A *change* is one field row of the answer (one `{"v","c"}` entry under `changes[].fields`).
              Baseline: the same records INSERTed as in s1, one transaction per page, interleaved page by
              page. `s2'` adds the raw C-API `SELECT` of the same records (the pull's own query) for scale.
              `s2b` pulls the same events again through protocol v2's `/v2/pull`, whose `limit` counts
              records (one set event is one record), with pages holding the same events as s2's; its
              baseline is s2's rate counted in records, so the ratio is v2 against v1 on equal pages.
            - **s3 No-op sync** — `SyncEngine.run()` with `GymLogDatabase` as the replica and `HTTPSyncTransport`
              when there is nothing to pull or push: round trips from `SyncReport.roundTrips`, and the
              median wall time of 20 runs.
            - **s4 One set, A to B** — `GymLogDatabase.logSets` on device A, a sync on A (push first,
              its pull skipped when nothing else reached the server),
              a sync on B (pull): the whole round, median and p99 of 50 rounds after 3 warm-up rounds.
              Two commits on the way wait for an fsync (the logged set on A, the push on the server);
              the pulled pages and the acknowledgement are committed without one (DESIGN.md, "Sync
              client": the server gives them back if a power cut loses them).
            - **s5 Server memory** — `VmHWM` from `/proc/PID/status` of the server after s1–s4, s6, s7.
            - **s6, s7 End-to-end encryption** (issue 29) — 2,000 sets (500 with `--quick`) logged on a
              new device are pushed by `SyncEngine.run()` over `HTTPSyncTransport` (s6), then pulled
              whole by a second new device (s7), for an encrypted account (every value sealed as it
              is sent and opened as it is pulled) against a plain one; three rounds each, plain and
              encrypted alternating, medians. Target: at most 1.3× the plain time. Logging a set is
              unchanged by encryption (nothing is sealed until the outbox is sent), so row c covers it.


            """
        out += resultsMarkdown(r, title: "Sync", quickRun: "(`--quick`: \(plan.pushEvents) events pushed, \(plan.pullChanges) changes pulled)")
        return out
    }
}
