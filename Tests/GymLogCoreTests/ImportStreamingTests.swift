import Foundation
import Testing
@testable import GymLogCore

/// Import reads a file as a stream: the CSV cursor refills a small buffer, so every row,
/// quoted field and line break can straddle two chunks; a tiny `chunkSize` reaches every
/// such boundary. Workouts are handed over as soon as their last row is read.
@Suite struct ImportStreamingTests {
    /// Every row of `text` and the line it starts on, read `chunkSize` bytes at a time.
    static func rows(_ text: String, chunkSize: Int, delimiter: Character? = nil) throws -> [String] {
        var cursor = ImportCSVCursor(Array(text.utf8), delimiter: delimiter, chunkSize: chunkSize)
        var rows: [String] = []
        while let row = try cursor.next() {
            let flag = cursor.unclosedQuote.map { " unclosed@\($0.line)+\($0.swallowedLines)" } ?? ""
            rows.append("\(row.line)-\(cursor.rowEndLine): " + row.fields.joined(separator: "|") + flag)
        }
        return rows
    }

    static let boundaryCases: [(text: String, rows: [String])] = [
        // Quoted delimiters, doubled quotes and line breaks inside quotes; CRLF rows; no final newline
        ("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"x\r\ny\",2\r\n3,\"\"\"\"", [
            "1-1: a|b,c|say \"hi\"", "2-3: x\r\ny|2", "4-4: 3|\"",
        ]),
        // Lone CRs and LFs, blank lines between rows, a byte-order mark
        ("\u{FEFF}h1,h2\r\r1,2\n\n\n3,4\r", ["1-1: h1|h2", "3-3: 1|2", "6-6: 3|4"]),
        // A semicolon header guessed from the first line, a comma inside a field, multi-byte text
        ("Date;Name;Übung\n2024-01-01;Bench, paused;Bankdrücken\n", [
            "1-1: Date|Name|Übung", "2-2: 2024-01-01|Bench, paused|Bankdrücken",
        ]),
        // A stray quote inside an unquoted field is text; an unclosed quote is cut at its line
        ("a,b\"c,d\ne,\"open,f\ng,h\r\ni,j", [
            "1-1: a|b\"c|d", "2-2: e|open,f unclosed@2+2", "3-3: g|h", "4-4: i|j",
        ]),
    ]

    @Test("rows read the same whatever the chunk size, every boundary included", arguments: boundaryCases.indices)
    func everyChunkBoundary(index: Int) throws {
        let (text, expected) = Self.boundaryCases[index]
        for chunkSize in 1...(text.utf8.count + 1) {
            #expect(try Self.rows(text, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
        }
    }

    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "fixtures")

    static let fixtureNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.appending(path: "import").path)) ?? []
        return names.filter { ($0.hasSuffix(".csv") || $0.hasSuffix(".json")) && $0 != "unknown-layout.csv" }.sorted().map { "import/" + $0 }
            + ["export/native-golden.csv", "export/strong-golden.csv", "export/hevy-golden-kg.csv", "export/hevy-golden-lb.csv"]
    }()

    @Test("every fixture imports the same read in chunks of a few bytes", arguments: fixtureNames)
    func fixturesInSmallChunks(name: String) throws {
        // Given a fixture read whole
        let bytes = Array(try Data(contentsOf: Self.fixtures.appending(path: name)))
        let options = ImportOptions(utcOffset: { _ in 3600 })
        let whole = try ImportParser.parse(bytes, options: options)
        #expect(!whole.workouts.isEmpty)
        for chunkSize in [1, 2, 3, 5, 7, 64] {
            // When it is read a few bytes at a time
            let chunked = try ImportParser.parse(bytes, options: options, chunkSize: chunkSize)
            // Then it is the same file: workouts, sets, ids, exercises, left-out and bad rows
            #expect(chunked.workouts == whole.workouts, "\(name), chunk size \(chunkSize)")
            #expect(chunked.exercises == whole.exercises && chunked.badRows == whole.badRows)
            #expect(chunked.ignoredRows == whole.ignoredRows && chunked.cappedDurations == whole.cappedDurations)
            #expect(chunked.bodyweights == whole.bodyweights && chunked.setCount == whole.setCount)
        }
    }

    /// Bytes in memory that count how many have been read.
    final class Counter: @unchecked Sendable { var read = 0 }
    struct CountingBytes: ImportByteSource {
        var bytes: MemoryBytes
        let counter: Counter
        mutating func read(into buffer: inout [UInt8], count: Int) throws -> Int {
            let n = bytes.read(into: &buffer, count: count)
            counter.read += n
            return n
        }
        mutating func seek(to offset: Int) throws { bytes.seek(to: offset) }
    }

    static func strong(_ rows: [(day: Int, exercise: String, weight: Int)]) -> [UInt8] {
        var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
        for r in rows { text += "2024-05-0\(r.day) 10:00:00,Day \(r.day),\(r.exercise),1,\(r.weight),5\n" }
        return Array(text.utf8)
    }

    @Test func aWorkoutIsHandedOverWhenItsLastRowIsRead() throws {
        // Given three workouts, one after the other, newest first as Strong writes them
        let bytes = Self.strong([(3, "Squat", 100), (3, "Squat", 105), (2, "Bench", 80), (2, "Bench", 82), (1, "Row", 60)])
        let scanned = try ImportParser.scan(MemoryBytes(bytes), options: ImportOptions())
        #expect(scanned.setCount == 5 && scanned.workouts.isEmpty)
        // When the second pass reads it 8 bytes at a time
        let counter = Counter()
        var handedOver: [(name: String?, sets: Int, bytesRead: Int)] = []
        try ImportParser.forEachWorkout(CountingBytes(bytes: MemoryBytes(bytes), counter: counter), scanned: scanned,
                                        options: ImportOptions(), chunkSize: 8) {
            handedOver.append(($0.name, $0.sets.count, counter.read))
        }
        // Then each workout comes whole, in file order, before the rows after it are read
        #expect(handedOver.map(\.name) == ["Day 3", "Day 2", "Day 1"])
        #expect(handedOver.map(\.sets) == [2, 2, 1])
        let day2Starts = String(decoding: bytes, as: UTF8.self).range(of: "2024-05-02")!.lowerBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        #expect(handedOver[0].bytesRead < day2Starts + 16, "\(handedOver[0].bytesRead)")
        #expect(handedOver[1].bytesRead < bytes.count)
    }

    @Test func aWorkoutWhoseRowsInterleaveWithAnotherIsStillOneWorkout() throws {
        // Given a file where the rows of two workouts alternate
        let bytes = Self.strong([(1, "Squat", 100), (2, "Bench", 80), (1, "Squat", 105), (2, "Bench", 82), (1, "Row", 60)])
        // When it is read in two passes
        let file = try ImportParser.parse(bytes, options: ImportOptions(), chunkSize: 4)
        // Then each workout has all its sets, in file order, and day 2 (whose last row comes first) is complete too
        #expect(file.workouts.map(\.name) == ["Day 1", "Day 2"])
        #expect(file.workouts.map { $0.sets.map { $0.values.weight?.value } } == [[Fixed(100), Fixed(105), Fixed(60)], [Fixed(80), Fixed(82)]])
        var order: [String?] = []
        try ImportParser.forEachWorkout(MemoryBytes(bytes), scanned: file, options: ImportOptions()) { order.append($0.name) }
        #expect(order == ["Day 2", "Day 1"])
    }

    @Test func aFileThatChangesBetweenThePassesIsRefused() throws {
        // Given a file scanned with two sets, then grown by a row
        let before = Self.strong([(1, "Squat", 100), (1, "Squat", 105)])
        let scanned = try ImportParser.scan(MemoryBytes(before), options: ImportOptions())
        let after = before + Array("2024-05-01 10:00:00,Day 1,Squat,1,110,5\n".utf8)
        // When the second pass reads the grown file
        let error = #expect(throws: UserError.self) {
            try ImportParser.forEachWorkout(MemoryBytes(after), scanned: scanned, options: ImportOptions()) { _ in }
        }
        // Then it says so rather than writing what was not checked
        #expect(error?.message.contains("changed while it was being imported") == true)
    }
}
