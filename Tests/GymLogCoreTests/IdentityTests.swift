import Foundation
import Testing
import GymLogCore

@Suite("Identity: derived ids and name keys")
struct IdentityTests {
    // These ids are shared by every device and every installed version: two phones that
    // create "Bench Press" offline must agree on its id. A change here is a breaking change
    // of the sync format, not a refactor, so the outputs are pinned as literals.
    @Test("derivedID is pinned for known inputs", arguments: [
        ("exercise", "bench press", "9F14C0CD-8146-5BD4-837C-7A511774F6E7"),
        ("exercise", "back squat", "BB2D096C-29DB-5EE9-AB22-8CAF0BF6FF08"),
        ("alias", "bp", "C9C1BE22-214A-5ADD-9C61-C6FE3638CE69"),
        ("exercise", "", "54ECD5EF-41E1-57D1-88C4-099980C95A02"),
    ])
    func derivedIDIsPinned(namespace: String, key: String, expected: String) {
        #expect(derivedID(namespace: namespace, key: key) == UUID(uuidString: expected)!)
    }

    @Test("derivedID separates namespaces and marks the id as version 5, RFC 4122 variant")
    func derivedIDNamespacesAndVersion() {
        // Given the same key in two namespaces
        let exercise = derivedID(namespace: "exercise", key: "bp"), alias = derivedID(namespace: "alias", key: "bp")
        // Then the ids differ, and each carries the version and variant bits
        #expect(exercise != alias)
        for id in [exercise, alias] {
            let text = id.uuidString
            #expect(text[text.index(text.startIndex, offsetBy: 14)] == "5")
            #expect("89AB".contains(text[text.index(text.startIndex, offsetBy: 19)]))
        }
        // And the namespace boundary cannot be forged by moving characters across it
        #expect(derivedID(namespace: "ab", key: "c") != derivedID(namespace: "a", key: "bc"))
    }

    @Test("names that differ only in case and spacing share one key, and so one id")
    func nameKeyNormalises() {
        #expect(nameKey("  Bench \t Press ") == "bench press")
        #expect(derivedID(namespace: "exercise", key: nameKey("Bench  Press"))
            == derivedID(namespace: "exercise", key: nameKey("bench press")))
    }
}
