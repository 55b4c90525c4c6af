import Foundation
import Testing
import GymLogCore

/// The values of a line's first set, parsed as the REPL parses it.
private func values(_ line: String, unit: WeightUnit = .kg) throws -> SetValues {
    guard case .success(.log(_, let specs)) = EntryParser.parse(line), let first = specs.first else {
        throw UserError("'\(line)' does not parse as a logged set")
    }
    return SetResolver.values(of: first, defaultUnit: unit)
}

/// The backquoted lines of a message (`pullup bw+10x5`).
private func quotedLines(_ text: String) -> [String] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
}

@Suite("ExerciseKind: one shape of set per exercise")
struct ExerciseKindTests {
    @Test("a set typed in the README's forms gets the kind it reads as, and fits it", arguments: [
        ("bench 100x5", ExerciseKind.weighted), ("bench 225lb x5 @8", .weighted), ("pullup bw x8", .bodyweight),
        ("dip bw+20x6", .bodyweight), ("pullup bw-20x8", .bodyweight), ("plank 60s", .timed), ("plank bw 1:30", .timed),
        ("plank bw+10 60s", .timed), ("row 2000m 7:41", .distance), ("run 5km", .distance), ("carry 40kg 50m", .carry),
        ("sled 100kg 20m 0:45", .carry),
    ])
    func firstSetSetsTheKind(line: String, kind: ExerciseKind) throws {
        let v = try values(line)
        #expect(v.exerciseKind == kind)
        #expect(kind.fits(v))
        #expect(kind.refusal(of: v, exercise: "X") == nil)
    }

    @Test("reps with no load (an imported bodyweight set) are bodyweight reps")
    func repsAloneAreBodyweight() {
        let v = SetValues(reps: 12)
        #expect(v.exerciseKind == .bodyweight && ExerciseKind.bodyweight.fits(v) && !ExerciseKind.weighted.fits(v))
    }

    @Test("a weighted set on a distance exercise is refused with the kind, an example and another name")
    func weightedOnDistance() throws {
        let text = try #require(ExerciseKind.distance.refusal(of: values("row 70x8"), exercise: "Row"))
        #expect(text == "Row is a distance exercise (distance and time, e.g. `row 2000m 7:41`); "
            + "for a weight-and-reps row use another name, e.g. `barbell row 70x8`")
    }

    @Test("weight x reps on a bodyweight exercise offers added load or plain reps")
    func weightedOnBodyweight() throws {
        let text = try #require(ExerciseKind.bodyweight.refusal(of: values("pullup 10x5"), exercise: "Pullup"))
        #expect(text == "Pullup is a bodyweight exercise: type `pullup bw+10x5` for 10 kg added, or `pullup bw x5` for 5 reps")
        // A load typed in the other unit keeps its unit in the suggestion
        let lb = try #require(ExerciseKind.bodyweight.refusal(of: values("pullup 25lb x5"), exercise: "Pullup"))
        #expect(lb.contains("`pullup bw+25lbx5` for 25 lb added"))
    }

    @Test("reps given to a run (as `edit x9` would) say what a run's set has")
    func repsOnARun() throws {
        var run = try values("run 5km 25:00")
        run.reps = 9
        let text = try #require(ExerciseKind.distance.refusal(of: run, exercise: "Run"))
        #expect(text == "Run is a distance exercise (distance and time, e.g. `run 2000m 7:41`): a set of it has no reps")
    }

    @Test("every refusal is answered by what it suggests: each quoted line parses and fits its kind",
          arguments: [
            (ExerciseKind.weighted, "bench bw x8"), (.weighted, "bench 60s"), (.weighted, "bench 40kg 50m"),
            (.bodyweight, "pullup 10x5"), (.bodyweight, "pullup 2000m 7:41"), (.timed, "plank 20x5"),
            (.timed, "plank bw x8"), (.distance, "row 70x8"), (.distance, "row 40kg 50m"), (.carry, "carry 100x5"),
            (.carry, "carry 2000m 7:41"),
          ])
    func suggestionsAreTypeable(kind: ExerciseKind, line: String) throws {
        // Given a set that is not of the exercise's kind
        let v = try values(line)
        // When it is refused
        let text = try #require(kind.refusal(of: v, exercise: "Lift"))
        // Then the message names the kind, and every line it quotes is a set of the kind it belongs to
        #expect(text.hasPrefix("Lift is \(kind.phrase)"))
        let quoted = quotedLines(text)
        #expect(!quoted.isEmpty)
        for suggestion in quoted {
            let s = try values(suggestion)
            let isOtherName = !suggestion.hasPrefix("lift ")
            #expect(isOtherName ? s.exerciseKind.fits(s) : kind.fits(s), "\(suggestion) in: \(text)")
        }
    }

    @Test("a kind is typed by its name or a plain word; stored names never change")
    func typedNames() {
        #expect(ExerciseKind(typed: "Duration") == .timed)
        #expect(ExerciseKind(typed: "bw") == .bodyweight)
        #expect(ExerciseKind(typed: "sled") == .carry)
        #expect(ExerciseKind(typed: "rowing") == nil)
        #expect(ExerciseKind.allCases.map(\.rawValue) == ["weighted", "bodyweight", "timed", "distance", "carry"])
        #expect(ExerciseKind.typedNames == "weighted, bodyweight, timed, distance or carry")
    }
}

/// A set at 0 load, as `ExerciseKind.converting` makes one (the entry language writes none).
private func zeroLoad(_ reps: Int, _ unit: WeightUnit = .kg, kind: SetKind = .working) -> SetValues {
    SetValues(kind: kind, weight: Weight(Fixed(0), unit), reps: reps)
}

@Suite("ExerciseKind.converting: a set read in another kind, losing nothing")
struct ExerciseKindConversionTests {
    @Test("a load moves between added and external; reps, times and distances stay", arguments: [
        ("dip bw+20x6", ExerciseKind.weighted, "dip 20x6"), ("squat bw+70kg x5 @8", .weighted, "squat 70x5 @8"),
        ("squat bw+155lb x5", .weighted, "squat 155lb x5"), ("squat 70x5 w", .bodyweight, "squat bw+70x5 w"),
        ("dip 20x6 # belt", .bodyweight, "dip bw+20x6 # belt"), ("plank 10kg 60s", .bodyweight, "plank bw+10 60s"),
        ("plank 60s", .bodyweight, "plank bw 60s"), ("plank bw+10 60s", .timed, "plank bw+10 60s"),
        ("squat 70x5", .weighted, "squat 70x5"),
    ])
    func loadsMove(line: String, kind: ExerciseKind, expected: String) throws {
        let converted = try #require(kind.converting(try values(line), unit: .kg))
        #expect(converted == (try values(expected)))
        #expect(kind.fits(converted))
    }

    @Test("no load becomes a set at 0 load in the user's unit, and 0 load on a bodyweight exercise is none")
    func noLoadIsZeroLoad() throws {
        // Given bodyweight reps with no load (`bw x12`, and reps alone as an import reads them)
        let warmup = try values("squat bw x12 w")
        // When read as weight and reps, then each is a set at 0 load in the unit given, warm-up kept
        #expect(ExerciseKind.weighted.converting(warmup, unit: .kg) == zeroLoad(12, kind: .warmup))
        #expect(ExerciseKind.weighted.converting(SetValues(reps: 12), unit: .lb) == zeroLoad(12, .lb))
        // And a set at 0 load read as bodyweight is plain reps, in whatever unit the 0 was
        #expect(ExerciseKind.bodyweight.converting(zeroLoad(12, .lb), unit: .kg) == (try values("squat bw x12")))
        #expect(ExerciseKind.bodyweight.converting(zeroLoad(12, kind: .warmup), unit: .kg) == warmup)
    }

    @Test("a set with no reading in the kind has no conversion", arguments: [
        ("pullup bw-20x8", ExerciseKind.weighted), ("plank bw 60s", .weighted), ("plank 60s", .weighted),
        ("row 2000m 7:41", .weighted), ("row 2000m 7:41", .bodyweight), ("carry 40kg 50m", .bodyweight),
        ("bench 100x5", .timed), ("bench 100x5", .carry), ("pullup bw x8", .timed), ("pullup bw+10x5", .distance),
        ("plank 10kg 60s", .distance), ("carry 40kg 50m", .weighted),
    ])
    func noReading(line: String, kind: ExerciseKind) throws {
        #expect(kind.converting(try values(line), unit: .kg) == nil)
    }

    @Test("weighted to bodyweight and back gives every loaded set back exactly")
    func roundTrip() throws {
        for line in ["squat 70x5", "squat 155.5lb x3 @9", "squat 60x10 w", "squat 100x1 f # grinder"] {
            let v = try values(line)
            let there = try #require(ExerciseKind.bodyweight.converting(v, unit: .kg))
            #expect(there.bodyweight)
            #expect(ExerciseKind.weighted.converting(there, unit: .kg) == v, "\(line)")
        }
    }
}
