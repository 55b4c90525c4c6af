import Testing
@testable import GymLogCore

/// Routines in plain text: every line form, the canonical text and its round trip, and
/// refusals that name the line, point at the word and say what to type.
@Suite struct RoutineParserTests {
    /// The line alone in a routine named R, parsed.
    static func line(_ text: String) -> Result<PlannedExercise, RoutineParseError> {
        RoutineParser.parse("# R\n" + text).map { $0.lines[0] }
    }

    static let kg25 = WeightSpec(Fixed(thousandths: 2500))

    @Test("every line form reads as its planned exercise", arguments: [
        ("bench 3x5 @8 linear +2.5",
         PlannedExercise(exerciseName: "bench", sets: 3, reps: .exact(5), rpe: Fixed(8), rule: .linear(increment: kg25))),
        ("incline db press 3x8-12 double +2",
         PlannedExercise(exerciseName: "incline db press", sets: 3, reps: .range(8...12),
                         rule: .double(reps: 8...12, increment: WeightSpec(Fixed(2))))),
        ("dip bw 3x8-12",
         PlannedExercise(exerciseName: "dip", sets: 3, reps: .range(8...12), load: .bodyweight)),
        ("ohp 5/3/1 tm 60", PlannedExercise.fiveThreeOne("ohp", trainingMax: WeightSpec(Fixed(60)))),
        ("squat 3x5 100", PlannedExercise(exerciseName: "squat", sets: 3, reps: .exact(5), load: .weight(Fixed(100), nil))),
        ("squat 3x5 100kg", PlannedExercise(exerciseName: "squat", sets: 3, reps: .exact(5), load: .weight(Fixed(100), .kg))),
        ("squat 3x5 225lb", PlannedExercise(exerciseName: "squat", sets: 3, reps: .exact(5), load: .weight(Fixed(225), .lb))),
        ("squat 3 x 5 225 lbs", PlannedExercise(exerciseName: "squat", sets: 3, reps: .exact(5), load: .weight(Fixed(225), .lb))),
        ("squat 100kg 3x5", PlannedExercise(exerciseName: "squat", sets: 3, reps: .exact(5), load: .weight(Fixed(100), .kg))),
        ("pullup bw+10 4x6", PlannedExercise(exerciseName: "pullup", sets: 4, reps: .exact(6),
                                             load: .bodyweightPlus(Fixed(10), nil))),
        ("pullup bw-20kg 3x8", PlannedExercise(exerciseName: "pullup", sets: 3, reps: .exact(8),
                                               load: .bodyweightPlus(Fixed(-20), .kg))),
        ("curl 3x10 double 8-12 +1kg",
         PlannedExercise(exerciseName: "curl", sets: 3, reps: .exact(10),
                         rule: .double(reps: 8...12, increment: WeightSpec(Fixed(1), .kg)))),
        ("row 3x8-12 double 8-12 +5lb",
         PlannedExercise(exerciseName: "row", sets: 3, reps: .range(8...12),
                         rule: .double(reps: 8...12, increment: WeightSpec(Fixed(5), .lb)))),
        ("deadlift 1x5 140 linear +5 rest 3:00 warmup",
         PlannedExercise(exerciseName: "deadlift", sets: 1, reps: .exact(5), load: .weight(Fixed(140), nil),
                         rule: .linear(increment: WeightSpec(Fixed(5))), restSeconds: 180, warmup: true)),
        ("Deadlift 1x5 WARMUP Linear +5 REST 90s",
         PlannedExercise(exerciseName: "Deadlift", sets: 1, reps: .exact(5),
                         rule: .linear(increment: WeightSpec(Fixed(5))), restSeconds: 90, warmup: true)),
        ("squat 5/3/1 tm 315lb rest 4:00 warmup",
         PlannedExercise.fiveThreeOne("squat", trainingMax: WeightSpec(Fixed(315), .lb), restSeconds: 240, warmup: true)),
        ("face pull 3x15 rest 2min",
         PlannedExercise(exerciseName: "face pull", sets: 3, reps: .exact(15), restSeconds: 120)),
        ("bench 3x5 # heavy day", PlannedExercise(exerciseName: "bench", sets: 3, reps: .exact(5))),
        ("  bench   press\t3x5  ", PlannedExercise(exerciseName: "bench press", sets: 3, reps: .exact(5))),
    ])
    func lineForms(text: String, expected: PlannedExercise) throws {
        // Given one routine line
        // When it is parsed
        let parsed = try Self.line(text).get()
        // Then it is the planned exercise it says
        #expect(parsed == expected)
    }

    static let pushA = """
        # Push A
        bench 3x5 @8 linear +2.5
        incline db press 3x8-12 double +2
        dip bw 3x8-12
        ohp 5/3/1 tm 60

        """

    @Test func theIssuesExampleIsItsOwnCanonicalText() throws {
        // Given the routine of the issue
        // When it is parsed and written back
        let routine = try RoutineParser.parse(Self.pushA).get()
        // Then it has its name and four lines, and the text is the same text
        #expect(routine.name == "Push A")
        #expect(routine.lines.map(\.exerciseName) == ["bench", "incline db press", "dip", "ohp"])
        #expect(routine.text == Self.pushA)
    }

    @Test("text is canonical and reads back to the same routine", arguments: [
        ("# Legs\nsquat 100kg 3x5 linear +5 warmup rest 3:00\n", "# Legs\nsquat 3x5 100kg linear +5 rest 3:00 warmup\n"),
        ("# P\ndip 3x8-12 bw+10 double 8-12 +2.5kg\n", "# P\ndip bw+10 3x8-12 double +2.5kg\n"),
        ("# P\ncurl 3x10 double 8-12 +1\n", "# P\ncurl 3x10 double 8-12 +1\n"),
        ("# P\nbench 5x3 @9.5 rest 0:45\n", "# P\nbench 5x3 @9.5 rest 0:45\n"),
        ("# P\nohp 5/3/1 TM 135LBS rest 1:00:00\n", "# P\nohp 5/3/1 tm 135lb rest 60:00\n"),
        ("\n# Pull   \n# a comment\n\npullup bw-20 3x8 # assisted for now\n\n", "# Pull\npullup bw-20 3x8\n"),
    ])
    func canonicalText(input: String, canonical: String) throws {
        // Given a routine typed loosely
        let routine = try RoutineParser.parse(input).get()
        // When it is written back, then that text is canonical, and reads back to the same routine
        #expect(routine.text == canonical)
        #expect(try RoutineParser.parse(routine.text).get() == routine)
    }

    @Test func everyCombinationOfPartsRoundTrips() throws {
        // Given every combination of the parts a line can have
        let loads: [LoadSpec?] = [nil, .weight(Fixed(100), nil), .weight(Fixed(thousandths: 102_500), .kg),
                                  .weight(Fixed(225), .lb), .bodyweight, .bodyweightPlus(Fixed(10), nil),
                                  .bodyweightPlus(Fixed(-20), .kg)]
        let reps: [RepTarget] = [.exact(5), .range(8...12)]
        let rules: [(RepTarget) -> ProgressionRule] = [
            { _ in .none },
            { _ in .linear(increment: WeightSpec(Fixed(thousandths: 2500))) },
            { .double(reps: $0.range ?? 6...10, increment: WeightSpec(Fixed(5), .lb)) },
            // A typed range only with exact reps: with a rep range the two must agree (the parser refuses otherwise).
            { .double(reps: $0.range ?? 10...15, increment: WeightSpec(Fixed(2))) },
        ]
        var lines: [PlannedExercise] = []
        for name in ["bench", "incline db press"] {
            for load in loads { for r in reps { for rule in rules { for rpe in [nil, Fixed(thousandths: 8500)] {
                for rest in [nil, 45, 180] { for warmup in [false, true] {
                    lines.append(PlannedExercise(exerciseName: name, sets: 3, reps: r, load: load, rpe: rpe,
                                                 rule: rule(r), restSeconds: rest, warmup: warmup))
                } }
            } } } }
            lines.append(.fiveThreeOne(name, trainingMax: WeightSpec(Fixed(thousandths: 62_500), .kg), restSeconds: 240))
        }
        // When each is written as text and read back, in routines of at most a hundred lines
        for start in stride(from: 0, to: lines.count, by: Routine.maxExercises) {
            let routine = Routine(name: "All \(start)", lines: Array(lines[start..<min(start + Routine.maxExercises, lines.count)]))
            let parsed = RoutineParser.parse(routine.text)
            // Then it is the same routine
            #expect(try parsed.get() == routine, "\(routine.text)")
        }
    }

    @Test func aGivenNameWinsOverTheHeaderAndStandsInForIt() throws {
        // Given a text with a header, and one without
        // When each is parsed with a name, and without
        // Then the given name wins; a text with neither is refused at line 1
        #expect(try RoutineParser.parse(Self.pushA, name: "Push B").get().name == "Push B")
        #expect(try RoutineParser.parse("bench 3x5", name: "Quick").get().name == "Quick")
        guard case .failure(let error) = RoutineParser.parse("bench 3x5", name: " ") else {
            Issue.record("a blank name was taken as a name")
            return
        }
        #expect(error.line == 1)
    }

    @Test("refusals name the line, point at the word and say what to type", arguments: [
        ("bench 3x5", 1, Span(0, 0), "a routine needs a name: start the text with a header line, e.g. `# Push A`"),
        ("# Empty\n\n# nothing here\n", 1, Span(7, 7), "routine 'Empty' has no exercises; add one per line"),
        ("# R\nbench 3x5\nincline db press 3x8-12 double", 3, Span(24, 30),
         "double needs an increment, e.g. `double +2.5`"),
        ("# R\nbench 3x5 linear", 2, Span(10, 16), "linear needs an increment, e.g. `linear +2.5`"),
        ("# R\nbench 3x5 linear 2.5", 2, Span(17, 20), "write the increment with a plus, e.g. `linear +2.5`"),
        ("# R\nbench 3x5 double +2", 2, Span(10, 19), "double needs a rep range: plan one (`3x8-12 double +2`) or give it"),
        ("# R\nbench 3x8-12 double 6-10 +2", 2, Span(20, 24), "the reps say 8-12 but double says '6-10'"),
        ("# R\nbench 3x5 linear +2.5 double +2", 2, Span(22, 31), "a line has one progression rule; keep 'linear +2.5' or 'double +2'"),
        ("# R\nbench linear +2.5", 2, Span(6, 12), "the sets x reps go before 'linear', e.g. `bench 3x5 linear +2.5`"),
        ("# R\nbench", 2, Span(0, 5), "expected sets x reps for 'bench', e.g. `bench 3x5`"),
        ("# R\ndip bw", 2, Span(0, 3), "expected sets x reps for 'dip', e.g. `dip bw 3x8`"),
        ("# R\n3x5 linear +2.5", 2, Span(0, 3), "missing exercise name: start the line with one, e.g. `bench 3x5`"),
        ("# R\nbench 3x5 dbl +2", 2, Span(10, 13), "unknown word 'dbl'; after the sets come a weight"),
        ("# R\nbench 3x5 & row 3x8 &", 2, Span(20, 21), "expected an exercise and its sets on each side of '&'"),
        ("# R\nsquat 100x5x3", 2, Span(6, 13), "'100x5x3' is how a set is logged; a routine line plans sets x reps, then the weight"),
        ("# R\nsquat 3x5x100", 2, Span(6, 13), "'3x5x100' is how a set is logged"),
        ("# R\nbench 3x12-8", 2, Span(8, 12), "'12-8': write a rep range low to high, e.g. `8-12`"),
        ("# R\nbench 3x8-8", 2, Span(8, 11), "'8-8' is a single rep count; write `8`"),
        ("# R\nbench 3x5 100 105", 2, Span(14, 17), "a load given twice ('100' and '105'); keep one"),
        ("# R\nbench 3x5 3x8", 2, Span(10, 13), "sets x reps given twice ('3x5' and '3x8'); keep one"),
        ("# R\nbench 3x5 @8 @9", 2, Span(13, 15), "RPE given twice"),
        ("# R\nbench 3x5 rest", 2, Span(10, 14), "rest needs a time, e.g. `rest 3:00`"),
        ("# R\nbench 3x5 rest 3:7", 2, Span(15, 18), "'3:7': write times as m:ss"),
        ("# R\nbench 3x5 3:00", 2, Span(10, 14), "unexpected '3:00'; a target rest is `rest 3:00`"),
        ("# R\nohp 5/3/1", 2, Span(4, 9), "5/3/1 needs a training max, e.g. `ohp 5/3/1 tm 60`"),
        ("# R\nohp 5/3/1 tm", 2, Span(10, 12), "expected the training max after 'tm'"),
        ("# R\nohp 5/3/2 tm 60", 2, Span(4, 9), "'5/3/2': the wave rule is written `5/3/1`"),
        ("# R\nohp 3x5 5/3/1 tm 60", 2, Span(4, 7), "5/3/1 sets its own sets and reps; remove '3x5'"),
        ("# R\nohp 5/3/1 tm 60 50", 2, Span(16, 18), "5/3/1 takes its weights from the training max; remove '50'"),
        ("# R\nohp 5/3/1 tm 60 @8", 2, Span(16, 18), "5/3/1 sets the effort by percentages; remove '@8'"),
        ("# R\nohp 3x5 tm 60", 2, Span(8, 10), "'tm' is the training max of a 5/3/1 line"),
        ("# R\nbench 3x5 100 kgs x", 2, Span(18, 19), "unexpected 'x'"),
        ("# R\nbench 3x5 +2.5", 2, Span(10, 11), "unexpected '+'; an increment follows its rule"),
        ("# R\nbench 3x5,5,4", 2, Span(9, 10), "unexpected ','; plan one rep count or range per line"),
        ("# R\nbench 3x5 102,5", 2, Span(10, 15), "'102,5': use a decimal point: 102.5"),
        ("# R\nbench 3x5 100stone", 2, Span(13, 18), "unknown unit 'stone'; weights are in kg or lb"),
        ("# R\nbench 3x5\u{1B}[A", 2, Span(9, 10), "unexpected control character U+001B"),
        ("# R\nbench 3x5 warmup warmup", 2, Span(17, 23), "'warmup' given twice"),
    ])
    func refusals(text: String, line: Int, span: Span, message: String) {
        // Given a text with one bad line
        // When it is parsed
        let result = RoutineParser.parse(text)
        // Then it is refused at that line and span with a message that says what to type
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(text.debugDescription)")
            return
        }
        #expect(error.line == line, "\(error)")
        #expect(error.span == span, "\(error)")
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test("planned values stay within the limits of logged sets", arguments: [
        ("bench 50x5", true), ("bench 51x5", false), ("bench 0x5", false), ("bench 3.5x5", false),
        ("bench 3x9999", true), ("bench 3x10000", false), ("bench 3x0", false), ("bench 3x8-10000", false),
        ("bench 3x5 2000", true), ("bench 3x5 2000.001", false), ("bench 3x5 0", false), ("bench 3x5 100.0005", false),
        ("bench 3x5 @10", true), ("bench 3x5 @10.5", false), ("bench 3x5 @7.3", false),
        ("pullup bw+2000 3x5", true), ("pullup bw-2001 3x5", false),
        ("bench 3x5 linear +2000", true), ("bench 3x5 linear +2000.5", false), ("bench 3x5 linear +0", false),
        ("ohp 5/3/1 tm 2000", true), ("ohp 5/3/1 tm 0", false),
        ("bench 3x5 rest 60:00", true), ("bench 3x5 rest 60:01", false), ("bench 3x5 rest 0:00", false),
        ("bench 3x5 rest 3600s", true), ("bench 3x5 rest 61min", false),
    ])
    func limits(text: String, accepted: Bool) {
        let ok: Bool
        if case .success = Self.line(text) { ok = true } else { ok = false }
        #expect(ok == accepted, "\(text)")
    }

    @Test func aSupersetLineIsItsExercisesJoinedAndReadsBackTheSame() throws {
        // Given a routine with a superset of three between plain lines
        let text = "# Arms\nbench 3x5 linear +2.5\ncurl 3x10 20 & pushdown 3x12 rest 1:30 & dip bw 2x8 # finisher\nrow 3x8\n"
        let routine = try RoutineParser.parse(text).get()
        // Then each part is a line of its own, all but the first joining the one before
        #expect(routine.lines.map(\.exerciseName) == ["bench", "curl", "pushdown", "dip", "row"])
        #expect(routine.lines.map(\.joinsPrevious) == [false, false, true, true, false])
        #expect(routine.supersetStarts == [0, 1, 1, 1, 4])
        #expect(routine.lines[2].restSeconds == 90 && routine.lines[3].load == .bodyweight)
        // And the canonical text keeps the superset on one line (the comment dropped)
        #expect(routine.text == "# Arms\nbench 3x5 linear +2.5\ncurl 3x10 20 & pushdown 3x12 rest 1:30 & dip bw 2x8\nrow 3x8\n")
        #expect(try RoutineParser.parse(routine.text).get() == routine)
    }

    @Test("a superset part that does not read is pointed at in the line as typed", arguments: [
        ("bench 3x5 &", "on each side of '&'", 10),
        ("& row 3x8", "on each side of '&'", 0),
        ("bench 3x5 & row 3x8 lineer +2", "unknown word 'lineer'", 20),
        ("bench 3x5 & row", "expected sets x reps for 'row'", 12),
    ])
    func supersetRefusals(text: String, message: String, column: Int) {
        guard case .failure(let error) = RoutineParser.parse("# R\n" + text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.line == 2 && error.message.contains(message) && error.span.start == column, "\(error) at \(error.span)")
    }

    @Test func aRoutineHoldsAtMostAHundredExercises() {
        // Given 101 exercise lines
        let text = "# Long\n" + String(repeating: "curl 3x10\n", count: Routine.maxExercises + 1)
        // When parsed, then line 102 (the 101st exercise) is refused; 100 are fine
        guard case .failure(let error) = RoutineParser.parse(text) else {
            Issue.record("a routine of 101 exercises was accepted")
            return
        }
        #expect(error.line == Routine.maxExercises + 2)
        #expect(error.message.contains("at most \(Routine.maxExercises) exercises"))
        #expect((try? RoutineParser.parse("# Long\n" + String(repeating: "curl 3x10\n", count: Routine.maxExercises)).get()) != nil)
        // A superset's exercises count one each
        let supersets = "# Long\n" + String(repeating: "curl 3x10 & dip 3x8\n", count: Routine.maxExercises / 2) + "row 3x8\n"
        guard case .failure(let error) = RoutineParser.parse(supersets) else {
            Issue.record("a routine of 101 exercises in supersets was accepted")
            return
        }
        #expect(error.message.contains("at most \(Routine.maxExercises) exercises"))
    }

    @Test func lineNumbersCountBlankAndCRLFLines() {
        // Given a Windows text with blank and comment lines before the bad line
        let text = "# R\r\n\r\n# warm up first\r\nbench 3x5\r\nrow 3x8 linear\r\n"
        // When parsed, then the error is on line 5 and shows that line alone
        guard case .failure(let error) = RoutineParser.parse(text) else {
            Issue.record("accepted")
            return
        }
        #expect(error.line == 5)
        #expect(error.lineText == "row 3x8 linear")
    }

    @Test func errorsRenderLikeSetLineErrorsWithTheLineNumber() {
        // Given a refused line
        guard case .failure(let error) = RoutineParser.parse("# R\nbench 3x5 dbl +2") else {
            Issue.record("accepted")
            return
        }
        // When it is rendered, then it says the line and draws the caret under the word
        #expect(error.description.hasPrefix("line 2: unknown word 'dbl'"))
        #expect(error.errorDescription == error.description)
        #expect(error.pointing(message: false) == "  bench 3x5 dbl +2\n            ^^^")
    }
}
