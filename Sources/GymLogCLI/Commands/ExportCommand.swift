import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

struct Export: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every live set as CSV, streaming with constant memory.",
        discussion: """
          gymlog export > all.csv
          gymlog export --out bench.csv --exercise bench --since 2026-01-01
          gymlog export --format strong --out strong.csv
              Strong's layout, for tools that read Strong's
          gymlog export --format hevy --out hevy.csv
              Hevy's layout, for Hevy's import

        Sets are listed workout by workout, in the order they were done. The native layout \
        keeps everything gymlog stores: ids, times to the millisecond with their UTC offsets, \
        units, each exercise's aliases and catalog link set by hand (`exercise_link`), supersets \
        (`superset_id`), bodyweight entries (rows \
        of kind `bodyweight_entry` after the sets; none with --exercise) and, when the whole \
        history is exported (no --since, --until or --exercise), the routines (rows of kind \
        `routine` at the end); `gymlog import` reads it back exactly. The strong layout is Strong's own, as Strong writes it: \
        `;`-separated, `Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit; \
        Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration`, \
        each load and distance as typed with its unit (`kg`, `lbs`, `km`, `mi.`, or \
        gymlog's `m` and `yd`), so kg and lb sets never mix; Set Order is W, D, F or the \
        set's number; Workout Duration is Strong's `1h 5m` (`0s` for a workout not \
        finished); it has no supersets or bodyweight log, and `gymlog import` reads it \
        back. The hevy layout has one unit per file: loads in `weight_kg` or `weight_lbs` \
        and distances in `distance_km` or `distance_miles`, following your configured \
        unit, converted to the nearest thousandth; a set's note goes in its row's \
        `exercise_notes`; supersets are numbered per workout in `superset_id`; times are \
        to the minute, with the seconds when an earlier workout of the same title started \
        in that minute (so the two read back as two); bodyweight entries and routines are \
        left out.

        Days are local days, both ends inclusive: YYYY-MM-DD, today, yesterday, or \
        an age like 30d, 12w, 6m or 1y (`--since 12w` is the last twelve weeks). \
        A file given with --out is written to a temporary name and renamed at the \
        end, so a failed export leaves no half-written file.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var out: String?
    @OptionGroup var range: DayRange
    @Option(help: "Only this exercise (name, alias or prefix).", completion: .custom(exerciseCompletions)) var exercise: String?
    @Option(help: "native (everything: ids, time zones, aliases), strong (Strong's own ;-separated layout with unit columns) or hevy (Hevy's CSV layout in your unit).") var format: String = "native"
    @Flag(help: .hidden) var csv = false

    func validate() throws {
        guard ExportFormat(rawValue: format.lowercased()) != nil else {
            throw ValidationError("--format \(format) is not a format; use native, strong or hevy.")
        }
    }

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let now = context.environment.now()
        let (since, until) = try range.bounds(now: now, utcOffsetSeconds: context.environment.utcOffset(now))
        var filter = ExportFilter(since: since, until: until)
        if let exercise { filter.exerciseID = try db.existingExercise(exercise).id }
        let exportFormat = ExportFormat(rawValue: format.lowercased())!

        let sink = try ExportSink(path: out)
        do {
            var writer = exportFormat.makeWriter()
            let unit = context.settings.defaultUnit
            exportFormat.appendHeader(to: &writer, unit: unit)
            var rows = 0
            try db.forEachExportRow(filter) { row in
                exportFormat.append(row, to: &writer, unit: unit)
                rows += 1
                if writer.buffer.count >= 1 << 16 { try sink.write(writer.buffer); writer.buffer.removeAll(keepingCapacity: true) }
            }
            var entries = 0
            if exportFormat.carriesBodyweight {
                try db.forEachExportBodyweight(filter) { entry in
                    exportFormat.append(entry, to: &writer)
                    entries += 1
                }
            }
            // The routines belong to the whole history, not to a range of days or an exercise.
            var routines = 0
            if exportFormat.carriesBodyweight, filter.since == nil, filter.until == nil, filter.exerciseID == nil {
                for routine in try db.exportRoutines() {
                    exportFormat.append(routine, to: &writer)
                    routines += 1
                }
            }
            try sink.write(writer.buffer)
            try sink.commit()
            let bodyweights = entries == 0 ? "" : " and \(entries) bodyweight entr\(entries == 1 ? "y" : "ies")"
            let routinesText = routines == 0 ? "" : " and \(plural(routines, "routine"))"
            if let out { context.printError("Exported \(plural(rows, "set"))\(bodyweights)\(routinesText) to \(out).") }
        } catch {
            sink.abandon()
            throw error
        }
    }
}

/// Standard output, or a file written under a temporary name and renamed on success. A file
/// or a pipe gets the bytes exactly; a terminal gets them through `TerminalText.safe`, so a
/// name or note holding escape sequences is shown, not obeyed.
final class ExportSink {
    private let fd: Int32
    private let path: String?
    private let temporary: String?
    /// Standard output is a terminal: what is written is shown to a person.
    private let toTerminal: Bool

    init(path: String?) throws {
        self.path = path
        toTerminal = path == nil && isatty(STDOUT_FILENO) == 1
        if let path {
            let tmp = path + ".partial-\(getpid())"
            let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw UserError("Cannot write \(path): \(String(cString: strerror(errno))).") }
            self.fd = fd; self.temporary = tmp
        } else {
            self.fd = STDOUT_FILENO; self.temporary = nil
        }
    }

    /// Writes `bytes`, which end at the end of a row (so a terminal's escaping never splits a
    /// character or a CRLF).
    func write(_ bytes: [UInt8]) throws {
        let bytes = toTerminal ? Array(TerminalText.safe(String(decoding: bytes, as: UTF8.self), keepingCRLF: true).utf8) : bytes
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw UserError("Writing the export to \(path ?? "standard output") failed: \(String(cString: strerror(errno))).")
            }
            offset += n
        }
    }

    func commit() throws {
        guard let temporary, let path else { return }
        guard fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else {
            throw UserError("Finishing the export to \(path) failed: \(String(cString: strerror(errno))).")
        }
    }

    func abandon() {
        guard let temporary else { return }
        close(fd); unlink(temporary)
    }
}
