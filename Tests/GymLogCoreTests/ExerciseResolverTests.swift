import Foundation
import Testing
import GymLogCore

@Suite("ExerciseResolver: exact, alias, prefix, near miss, create")
struct ExerciseResolverTests {
    static let bench = Exercise(id: UUID(), name: "Bench Press", kind: .weighted)
    static let incline = Exercise(id: UUID(), name: "Incline DB Press", kind: .weighted)
    static let squat = Exercise(id: UUID(), name: "Back Squat", kind: .weighted)
    static let pullUp = Exercise(id: UUID(), name: "Pull Up", kind: .bodyweight)
    static let resolver = ExerciseResolver(exercises: [bench, incline, squat, pullUp],
                                           aliases: [Alias(alias: "bp", exerciseID: bench.id),
                                                     Alias(alias: "chins", exerciseID: UUID())])

    @Test("an exact name matches whatever the case and spacing")
    func exactName() {
        #expect(Self.resolver.resolve("bench   PRESS") == .found(Self.bench))
    }

    @Test("an alias finds its exercise; an alias of a missing exercise finds nothing")
    func alias() {
        #expect(Self.resolver.resolve("BP") == .found(Self.bench))
        #expect(Self.resolver.resolve("chins") == .create(name: "Chins"))
    }

    @Test("word prefixes match when they pick one exercise")
    func uniquePrefix() {
        #expect(Self.resolver.resolve("inc db") == .found(Self.incline))
        #expect(Self.resolver.resolve("back sq") == .found(Self.squat))
    }

    @Test("a prefix of several exercises is ambiguous, listed by name")
    func ambiguousPrefix() {
        // Given "b" starts Bench Press, Back Squat and the alias "bp" (of Bench Press, counted once)
        #expect(Self.resolver.resolve("b") == .ambiguous([Self.squat, Self.bench]))
    }

    @Test("a typo one or two edits away is a near miss, not a new exercise")
    func nearMiss() {
        #expect(Self.resolver.resolve("bnech press") == .nearMiss(Self.bench))
        #expect(Self.resolver.resolve("bakc squat") == .nearMiss(Self.squat))
        #expect(Self.resolver.resolve("pulk up") == .nearMiss(Self.pullUp))
    }

    @Test("an unknown name is created, capitalised when typed in lower case")
    func create() {
        #expect(Self.resolver.resolve("front squat") == .create(name: "Front Squat"))
        #expect(Self.resolver.resolve("RDL  deficit") == .create(name: "RDL deficit"))
    }

    @Test("editDistance counts a transposition as one edit and stops above the limit")
    func editDistances() {
        #expect(editDistance("bench", "bench") == 0)
        #expect(editDistance("bnech", "bench") == 1)
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("a", "abcdef", limit: 2) == 3)
    }
}
