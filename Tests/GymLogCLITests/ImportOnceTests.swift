import Foundation
import GRDB
import GymLogTestSupport
import Testing

/// Issue 44, defect 2: a set is the same set whatever file it came from. Importing the
/// account's own export into another database doubled every set on every device, with no way
/// back. Now a database of an account pulls before it imports, an import adds no set the
/// history holds, and an import is one action: `undo` takes it back whole, a killed one leaves
/// nothing.
@Suite struct ImportOnceTests {
    private func liveSets(_ home: TemporaryHome) throws -> Int {
        try DatabaseQueue(path: home.database).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") ?? -1 }
    }

    private func workouts(_ home: TemporaryHome) throws -> Int {
        try DatabaseQueue(path: home.database).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") ?? -1 }
    }

    @Test(arguments: ["strong", "hevy", "native"])
    func theAccountsOwnExportImportedIntoANewDatabaseDoublesNothing(_ format: String) throws {
        // Given a device of an account with two workouts synced, and its export
        let server = try ServerInstance()
        let token = try server.addUser("own-\(format)")
        let laptop = try TemporaryHome(), desktop = try TemporaryHome()
        defer { for home in [laptop, desktop] { home.remove() } }
        #expect(try laptop.login(server, token: token).status == 0)
        try laptop.turnOffAutoSync()
        for line in ["bench 100x5x3", "squat 140x5 # heavy"] { #expect(try laptop.gymlog(["log", line]).status == 0) }
        #expect(try laptop.gymlog(["finish"]).status == 0)
        #expect(try laptop.gymlog(["log", "deadlift 180x3", "--at", "yesterday 18:00"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let file = laptop.root + "/export.csv"
        #expect(try laptop.gymlog(["export", "--format", format, "--out", file]).status == 0)

        // When a new database logged in to the same account imports it before ever syncing
        #expect(try desktop.login(server, token: token).status == 0)
        try desktop.turnOffAutoSync()
        let imported = try desktop.gymlog(["import", file])

        // Then it pulled the account's history first and added nothing, on either side
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 0 workouts, 0 sets"), "\(imported.stdout)")
        #expect(try liveSets(desktop) == 5 && workouts(desktop) == 2)
        #expect(try desktop.gymlog(["sync"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        #expect(try liveSets(laptop) == 5 && workouts(laptop) == 2)
        // And importing it again where the history is, the same
        let again = try laptop.gymlog(["import", file])
        #expect(again.stdout.contains("Imported 0 workouts, 0 sets"), "\(again.stdout)")
        #expect(try liveSets(laptop) == 5)
    }

    @Test func anAccountDatabaseThatCannotPullImportsNothingAndSaysWhatToRun() throws {
        // Given a database logged in to an account whose server is gone, never synced
        let server = try ServerInstance()
        let token = try server.addUser("gone")
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.login(server, token: token).status == 0)
        try home.turnOffAutoSync()
        server.stop()
        let file = home.root + "/s.csv"
        try "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n2024-01-02 06:00:00,W,Squat,1,100,5,0,0,\n"
            .write(toFile: file, atomically: true, encoding: .utf8)

        // When it imports a file
        let run = try home.gymlog(["import", file])

        // Then nothing is imported, and the error says why and what to run
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stderr.contains("Nothing was imported") && run.stderr.contains("gymlog sync"), "\(run.stderr)")
        #expect(try liveSets(home) == 0)
    }

    @Test func anImportIsOneActionThatUndoTakesBackWholeAndRedoBringsBack() throws {
        // Given a history of one logged set, and a Strong file of two workouts
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.turnOffAutoSync()
        #expect(try home.gymlog(["log", "row 60x10"]).status == 0)
        let file = home.root + "/strong.csv"
        var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
        for (day, weights) in [("2024-01-02", [100, 105, 110]), ("2024-01-04", [102.5, 107.5, 112.5, 115])] {
            for (i, w) in weights.enumerated() { text += "\(day) 06:00:00,W,Squat,\(i + 1),\(w),5,0,0,\n" }
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try home.gymlog(["import", file]).status == 0)
        #expect(try liveSets(home) == 8)

        // When the import is undone
        let undo = try home.gymlog(["undo"])

        // Then none of its sets or workouts is left, the logged set stays, and redo brings them back
        #expect(undo.status == 0 && undo.stdout.contains("import"), "\(undo.stdout)\(undo.stderr)")
        #expect(try liveSets(home) == 1 && workouts(home) == 1)
        let prs = try home.gymlog(["prs", "squat"])
        #expect(!prs.stdout.contains("115"), "the undone import's records remain: \(prs.stdout)")
        let redo = try home.gymlog(["redo"])
        #expect(redo.status == 0, "\(redo.stderr)")
        #expect(try liveSets(home) == 8 && workouts(home) == 3)
        #expect(try home.gymlog(["prs", "squat"]).stdout.contains("115"))
    }

    @Test func anImportKilledHalfWayLeavesTheHistoryAsItWas() throws {
        // Given a Strong file of 12,000 sets
        let home = try TemporaryHome()
        defer { home.remove() }
        try home.turnOffAutoSync()
        #expect(try home.gymlog(["log", "row 60x10"]).status == 0)
        let file = home.root + "/big.csv"
        var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
        for day in 0..<800 {
            let date = ISO8601DateFormatter.string(from: Date(timeIntervalSince1970: 1_500_000_000 + Double(day) * 86_400),
                                                   timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            for set in 1...15 { text += "\(date) 06:00:00,W,\(["Squat", "Bench", "Row"][set % 3]),\(set),\(60 + set),5,0,0,\n" }
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        // When imports are killed while they write: once the write-ahead log (emptied before
        // each) has grown past a mark, at marks spread over the run
        var outcomes: [Int] = [], kills = 0
        for mark in [256 << 10, 4 << 20, 16 << 20, 32 << 20] {
            _ = try DatabaseQueue(path: home.database).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            let process = try home.launch(["import", file])
            process.feed(Data(), close: true)
            let wal = home.database + "-wal"
            let writing = eventually(within: 120) {
                !process.isRunning(after: 0) || ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) > mark
            }
            if writing && process.isRunning(after: 0) {
                process.kill()
                kills += 1
            }
            _ = process.wait(timeout: 120)
            outcomes.append(try liveSets(home))
            if try liveSets(home) > 1 { #expect(try home.gymlog(["undo"]).status == 0) }
        }

        // Then each left either none of the file's sets or all of them, and the file is intact
        #expect(kills > 0, "every import ended before the log reached its mark: \(outcomes)")
        #expect(outcomes.allSatisfy { $0 == 1 || $0 == 12_001 }, "\(outcomes)")
        let check = try DatabaseQueue(path: home.database).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }
}
