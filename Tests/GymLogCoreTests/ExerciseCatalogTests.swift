import Testing
@testable import GymLogCore

/// The vendored catalog (issue 30, item 1) and its search (item 3).
@Suite struct ExerciseCatalogTests {
    @Test func theWholeCatalogReadsWithTheFieldsKept() throws {
        // free-exercise-db's 873 and gymlog's additions, each line read
        #expect(ExerciseCatalog.entries.count == 873 + catalogAdditionsCount && catalogAdditionsCount == 10)
        #expect(Set(ExerciseCatalog.entries.map(\.id)).count == ExerciseCatalog.entries.count, "ids are unique")
        let squat = try #require(ExerciseCatalog.entry(id: "Barbell_Squat"))
        #expect(squat.name == "Barbell Squat" && squat.equipment == "barbell" && squat.primaryMuscles == ["quadriceps"])
        #expect(squat.secondaryMuscles.contains("glutes") && squat.mechanic == "compound" && squat.category == "strength")
        #expect(ExerciseCatalog.muscles.count == 17 && ExerciseCatalog.muscles.contains("lats"))
        #expect(ExerciseCatalog.equipment.contains("e-z curl bar"))
        // An entry the catalog gives no equipment keeps none, rather than an empty word
        #expect(ExerciseCatalog.entries.contains { $0.equipment == nil } && !ExerciseCatalog.equipment.contains(""))
    }

    @Test func searchMatchesTheStartsOfWordsAndFilters() {
        let squats = ExerciseCatalog.search(["SQUAT"], equipment: "barbell")
        #expect(squats.map(\.name).contains("Barbell Squat"), "\(squats.map(\.name))")
        #expect(!squats.isEmpty && squats.allSatisfy { $0.equipment == "barbell" })
        #expect(ExerciseCatalog.search(["pull"]).map(\.name).contains("Pullups"))
        #expect(ExerciseCatalog.search(["bench", "incline", "dumbbell"]).map(\.name).contains("Incline Dumbbell Press") == false)
        // A muscle filter puts the exercises that train it most first
        let hamstrings = ExerciseCatalog.search([], muscle: "hamstrings")
        let firstSecondary = hamstrings.firstIndex { !$0.primaryMuscles.contains("hamstrings") } ?? hamstrings.count
        #expect(firstSecondary > 0 && hamstrings[firstSecondary...].allSatisfy { !$0.primaryMuscles.contains("hamstrings") })
        #expect(hamstrings.allSatisfy { $0.muscles.contains("hamstrings") })
        #expect(ExerciseCatalog.search(["zzzz"]).isEmpty)
    }

    /// The muscles and equipment are written out (help texts name them at every start); they
    /// must be exactly those the vendored entries use, sorted.
    @Test func theWrittenOutVocabularyIsTheCatalogs() {
        #expect(ExerciseCatalog.muscles == Array(Set(ExerciseCatalog.entries.flatMap(\.muscles))).sorted())
        #expect(ExerciseCatalog.equipment == Array(Set(ExerciseCatalog.entries.compactMap(\.equipment))).sorted())
        #expect(ExerciseCatalog.count == ExerciseCatalog.entries.count)
    }
}
