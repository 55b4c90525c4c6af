import Foundation

/// The sets of one exercise in one earlier workout, as the progression rules read them.
public struct PastSession: Equatable, Sendable {
    /// When the workout started, milliseconds since 1970 (UTC); sessions are taken in this order.
    public var startedAt: Int64
    /// When it was entered as a workout of its routine (its start unless back-dated or synced
    /// late): a line's typed start counts the sessions entered since it was saved.
    public var enteredAt: Int64
    /// The exercise's sets in that workout, in the order logged. Pass them all: warm-ups and
    /// drop sets are left out here, and so are sets without reps; working and failure sets count.
    public var sets: [SetValues]

    /// A session from its start and the exercise's sets in it, entered when it started unless said.
    public init(startedAt: Int64, enteredAt: Int64? = nil, sets: [SetValues]) {
        self.startedAt = startedAt; self.enteredAt = enteredAt ?? startedAt; self.sets = sets
    }
}

/// One set suggested for today: the load (exactly as it would be logged) and the reps to aim for.
public struct SuggestedSet: Equatable, Sendable {
    /// The external load, or the added (negative: assisting) load of a bodyweight set; nil with
    /// `bodyweight` false when nothing says what to lift (`needsLoad`).
    public var weight: Weight?
    /// A bodyweight set (`bw`, `bw+10kg`).
    public var bodyweight: Bool
    /// The reps to aim for, the number `ok` logs (0 for a set of a time or distance).
    public var reps: Int
    /// The time to hold or go for, in seconds (`plank 3x60s`), instead of reps.
    public var durationSeconds: Int?
    /// The distance to cover (`row 2000m`, `carry 3x40m 32kg`), instead of reps.
    public var distance: Distance?
    /// The planned rep range the target sits in (`8-12`), when the line plans one.
    public var repRange: ClosedRange<Int>?
    /// As many reps as possible, from `reps` up (5/3/1's last set, shown `5+`).
    public var amrap: Bool
    /// The routine's planned effort (`@8`): a target to show, never logged as felt.
    public var targetRPE: Fixed?

    /// A suggested set from its load and target.
    public init(weight: Weight?, bodyweight: Bool = false, reps: Int, repRange: ClosedRange<Int>? = nil,
                amrap: Bool = false, targetRPE: Fixed? = nil, durationSeconds: Int? = nil, distance: Distance? = nil) {
        self.weight = weight; self.bodyweight = bodyweight; self.reps = reps; self.repRange = repRange
        self.amrap = amrap; self.targetRPE = targetRPE; self.durationSeconds = durationSeconds; self.distance = distance
    }

    /// Whether the set is a time or a distance rather than reps.
    public var isMeasured: Bool { durationSeconds != nil || distance != nil }

    /// No history and no load in the routine: the user picks the weight. A timed or distance
    /// set needs none (a plank, a row); one with a weight (a carry) says it in the routine.
    public var needsLoad: Bool { weight == nil && !bodyweight && !isMeasured }

    /// The load as typed in a set line (`102.5kg`, `bw`, `bw+10kg`); nil when `needsLoad`.
    public var load: LoadSpec? {
        switch (bodyweight, weight) {
        case (true, nil): .bodyweight
        case (true, let w?): .bodyweightPlus(w.value, w.unit)
        case (false, let w?): .weight(w.value, w.unit)
        case (false, nil): nil
        }
    }

    /// The set as it would be logged when done as suggested (`ok`); meaningless when `needsLoad`.
    public var values: SetValues {
        SetValues(kind: .working, weight: weight, bodyweight: bodyweight, reps: isMeasured ? nil : reps,
                  durationSeconds: durationSeconds, distance: distance)
    }

    /// The set `ok` logs: this one with `patch`'s changes (`ok x4`, `ok 135`, `ok @9`). A
    /// number without a unit is in the unit the set is shown in, else in `unit` (the line's
    /// `planUnit`, for a set with no load to suggest), so `ok 135` is what the lifter read.
    /// The planned RPE counts as done unless an RPE or an RIR is typed.
    public func logged(with patch: SetPatch, unit: WeightUnit) -> SetValues {
        var values = SetResolver.values(repeating: values, with: patch, defaultUnit: unit)
        values.rpe = patch.rpe ?? (patch.rir == nil ? targetRPE : nil)
        return values
    }

    /// `100kg x 5`, `85kg x 5+`, `bw+10kg x 9 (8-12)`, `? x 5 @8`; `60s`, `32kg 40m`.
    public var summary: String {
        if isMeasured {
            let measure = [distance?.description, durationSeconds.map { "\($0)s" }].compactMap { $0 }.joined(separator: " ")
            let load = weight == nil && !bodyweight ? "" : loadDescription(weight: weight, bodyweight: bodyweight) + " "
            return load + measure + (targetRPE.map { " @\($0)" } ?? "")
        }
        var text = (needsLoad ? "?" : loadDescription(weight: weight, bodyweight: bodyweight)) + " x \(reps)" + (amrap ? "+" : "")
        if let repRange { text += " (\(repRange.lowerBound)-\(repRange.upperBound))" }
        if let targetRPE { text += " @\(targetRPE)" }
        return text
    }
}

/// Where a 5/3/1 line stands: which cycle and week today is and the training max it uses.
public struct WavePosition: Equatable, Sendable {
    /// 1 for the first cycle from the routine's training max.
    public var cycle: Int
    /// 1 to 3 for the working weeks, 4 for the deload.
    public var week: Int
    /// This cycle's training max (the routine's, plus one increase per finished cycle).
    public var trainingMax: Weight
}

/// What to do today for one planned exercise, and why, in one line.
public struct Suggestion: Equatable, Sendable {
    /// The sets in order.
    public var sets: [SuggestedSet]
    /// `last time 100kg x 5,5,5: all reps done, +2.5kg`.
    public var reason: String
    /// The 5/3/1 position, for a 5/3/1 line.
    public var wave: WavePosition?

    /// A suggestion from its sets and reason.
    public init(sets: [SuggestedSet], reason: String, wave: WavePosition? = nil) {
        self.sets = sets; self.reason = reason; self.wave = wave
    }
}

/// Today's sets for a planned exercise from that exercise's history, offline and pure.
///
/// Every rule reads the last sessions' top sets: the working sets at the heaviest load of the
/// session (ramp-up sets logged as working sets do not hide the real work). Loads are
/// suggested in the line's unit (`PlannedExercise.planUnit`), the one the lifter types `ok 135`
/// in: a session lifted in the other unit (a kg import for a lifter in lb) is converted to the
/// nearest makeable load in it. An increment without a unit is in the line's unit. Suggested
/// loads are rounded by `rounding` and kept within `SetLimits.maxLoad`.
public enum Progression {
    /// The suggestion for `planned`.
    ///
    /// - Parameters:
    ///   - history: the sessions of this exercise, oldest first (sorted by `startedAt` here anyway).
    ///   - unit: the unit of the routine's numbers typed without one (the routine's, else the
    ///     user's), and of the plan unless the line names another (`PlannedExercise.planUnit`).
    ///   - rounding: the loads the user can make.
    ///   - trainingMax: for a line at a share of the training max (`50%`) without one of its
    ///     own, the training max of this cycle of its lift's 5/3/1 line (its own exercise's, or `shareOf`'s).
    ///
    /// `history` is the line's own (`LineHistory.basis`): a 5/3/1 wave counts every session
    /// in it, so the week moves on sessions of this line only, and never skips the deload.
    public static func suggest(for planned: PlannedExercise, history: [PastSession], unit: WeightUnit,
                               rounding: any LoadRounding = StepRounding.standard, trainingMax: Weight? = nil) -> Suggestion {
        if let percent = planned.percentOfTrainingMax {
            return share(planned, percent, of: planned.ownTrainingMax.map { $0.resolved(unit) } ?? trainingMax, rounding)
        }
        let planUnit = planned.planUnit(unit)
        if planned.reps.isMeasure {
            return measured(planned, history.sorted { $0.startedAt < $1.startedAt }, unit, in: planUnit, rounding)
        }
        let sessions = history.sorted { $0.startedAt < $1.startedAt }.compactMap { SessionTop($0, planUnit) }
        switch planned.rule {
        case .none:
            return lastTime(planned, sessions, unit, in: planUnit, rounding)
        case .linear(let increment):
            return linear(planned, increment, sessions, unit, in: planUnit, rounding)
        case .double(let range, let increment):
            return double(planned, range, increment, sessions, unit, in: planUnit, rounding)
        case .fiveThreeOne(let trainingMax):
            return fiveThreeOne(planned, trainingMax, sessionsDone: sessions.count, unit, rounding)
        }
    }

    // MARK: Rules

    /// No rule: last time's top load, as many sets as planned, at the planned reps (within a
    /// planned range, last time's reps kept in it): the plan says the reps, history the weight.
    static func lastTime(_ planned: PlannedExercise, _ sessions: [SessionTop], _ unit: WeightUnit,
                         in planUnit: WeightUnit, _ rounding: any LoadRounding) -> Suggestion {
        guard let last = sessions.last else { return firstTime(planned, reps: planned.reps.lowest, unit) }
        let load = converted(last.load, to: planUnit, rounding)
        let sets = (0..<planned.sets).map { i in
            let done = last.reps[min(i, last.reps.count - 1)]
            let reps = planned.reps.range.map { min(max(done, $0.lowerBound), $0.upperBound) } ?? planned.reps.lowest
            return suggested(load, reps: reps, planned)
        }
        return Suggestion(sets: sets, reason: lastTimeText(last, load))
    }

    /// `squat 5x10 50%`: that share of this cycle's training max (of the line's own, `70% tm
    /// 100`, or of a named lift's, `30% of squat`), the planned reps, every set.
    static func share(_ planned: PlannedExercise, _ percent: Int, of trainingMax: Weight?, _ rounding: any LoadRounding) -> Suggestion {
        let reps = planned.reps.lowest
        guard let tm = trainingMax else {
            let set = SuggestedSet(weight: nil, reps: reps, repRange: planned.reps.range, targetRPE: planned.rpe)
            return Suggestion(sets: Array(repeating: set, count: planned.sets),
                              reason: "\(percent)% of a training max, but no 5/3/1 line of \(planned.shareOf ?? "this exercise") gives one: pick a weight")
        }
        let load = Load(value: rounded(tm.value.doubleValue * Double(percent) / 100, tm.unit, .nearest, rounding), unit: tm.unit, bodyweight: false)
        return Suggestion(sets: Array(repeating: suggested(load, reps: reps, planned), count: planned.sets),
                          reason: "\(percent)% of TM \(tm)" + (planned.ownTrainingMax != nil ? ""
                              : ", the training max of \(planned.shareOf.map { "the \($0) 5/3/1 line" } ?? "this exercise's 5/3/1 line")"))
    }

    /// A time or a distance (`plank 3x60s`, `carry 3x40m 32kg`): as planned, at last time's
    /// load (its last working set's) or the routine's; no rule moves them.
    static func measured(_ planned: PlannedExercise, _ history: [PastSession], _ unit: WeightUnit,
                         in planUnit: WeightUnit, _ rounding: any LoadRounding) -> Suggestion {
        let lastSet = history.last?.sets.last { $0.kind == .working || $0.kind == .failure }
        let lastLoad = lastSet.flatMap { $0.weight != nil || $0.bodyweight ? Load($0, planUnit) : nil }
        let load = lastLoad.map { converted($0, to: planUnit, rounding) } ?? planned.load.map { Load($0, unit) }
        var set = SuggestedSet(weight: load?.weight, bodyweight: load?.bodyweight ?? false, reps: 0, targetRPE: planned.rpe)
        switch planned.reps {
        case .time(let seconds): set.durationSeconds = seconds
        case .distance(let distance): set.distance = distance
        case .exact, .range: break
        }
        let reason = switch (lastLoad, load) {
        case (let last?, _): "as planned, at last time's \(last)" + (load.map { $0.unit == last.unit ? "" : " (\($0))" } ?? "")
        case (nil, let typed?): "as planned, at the routine's \(typed)"
        case (nil, nil): "as planned"
        }
        return Suggestion(sets: Array(repeating: set, count: planned.sets), reason: reason)
    }

    /// `linear +INC`: all planned reps done last time adds INC; a miss repeats the weight; every
    /// third miss in a row takes 10 % off (rounded down), so a deload gets three tries of its own.
    static func linear(_ planned: PlannedExercise, _ increment: WeightSpec, _ sessions: [SessionTop],
                       _ unit: WeightUnit, in planUnit: WeightUnit, _ rounding: any LoadRounding) -> Suggestion {
        // A rep range's bottom is the planned reps: reaching it is doing the set.
        let target = planned.reps.lowest
        guard let last = sessions.last else { return firstTime(planned, reps: target, unit) }
        let misses = sessions.reversed().prefix { !$0.done(sets: planned.sets, reps: target) }.count
        let load = converted(last.load, to: planUnit, rounding)
        let next: Load
        let reason: String
        if misses == 0 {
            let step = increment.resolved(planUnit)
            next = increased(load, by: step, rounding)
            reason = "\(lastTimeText(last, load)): all reps done, +\(step)"
        } else if misses % 3 == 0 {
            next = deloaded(load, rounding)
            reason = next == load
                ? "missed \(misses) sessions in a row (\(lastTimeText(last, load))); no load to take 10% off, same again"
                : "missed \(misses) sessions in a row (\(lastTimeText(last, load))): -10%"
        } else {
            next = load
            reason = "\(lastTimeText(last, load)): missed reps (\(misses) in a row), same weight"
        }
        let sets = Array(repeating: suggested(next, reps: target, planned), count: planned.sets)
        return Suggestion(sets: sets, reason: reason)
    }

    /// `double LO-HI +INC`: at one load, each set one more rep than it did last time, up to HI
    /// (a set not done last time counts from the last set done); once every planned set was
    /// done at HI, add INC and start again at LO.
    static func double(_ planned: PlannedExercise, _ range: ClosedRange<Int>, _ increment: WeightSpec,
                       _ sessions: [SessionTop], _ unit: WeightUnit, in planUnit: WeightUnit,
                       _ rounding: any LoadRounding) -> Suggestion {
        guard let last = sessions.last else { return firstTime(planned, reps: range.lowerBound, unit, range: range) }
        let load = converted(last.load, to: planUnit, rounding)
        if last.done(sets: planned.sets, reps: range.upperBound) {
            let step = increment.resolved(planUnit)
            let next = increased(load, by: step, rounding)
            let sets = Array(repeating: suggested(next, reps: range.lowerBound, planned, range: range), count: planned.sets)
            return Suggestion(sets: sets, reason: "\(lastTimeText(last, load)): every set reached \(range.upperBound), "
                + "+\(step) and back to \(range.lowerBound) reps")
        }
        // A set not done last time follows the last one that was: what the lifter showed she
        // can do at this load, not the bottom of the range (`60kg x 9` plans 10 for every set).
        let sets = (0..<planned.sets).map { i in
            let done = last.reps[min(i, last.reps.count - 1)]
            return suggested(load, reps: min(max(done + 1, range.lowerBound), range.upperBound), planned, range: range)
        }
        var reason = "\(lastTimeText(last, load)): same weight, one more rep per set up to \(range.upperBound)"
        if last.reps.count < planned.sets {
            reason += "; \(plural(planned.sets - last.reps.count, "set")) not done last time from its last set"
        }
        return Suggestion(sets: sets, reason: reason)
    }

    /// `5/3/1 tm TM`: the week is the number of sessions done since the training max was set,
    /// modulo four; each finished cycle raises the training max once.
    static func fiveThreeOne(_ planned: PlannedExercise, _ trainingMax: WeightSpec, sessionsDone: Int,
                             _ unit: WeightUnit, _ rounding: any LoadRounding) -> Suggestion {
        let cyclesDone = sessionsDone / FiveThreeOne.weeksPerCycle
        let week = sessionsDone % FiveThreeOne.weeksPerCycle + 1
        let tmUnit = trainingMax.unit ?? unit
        let region = LiftRegion.of(exerciseName: planned.exerciseName)
        let rise = FiveThreeOne.trainingMaxIncrease(for: region, in: tmUnit)
        let tmValue = min(Fixed(thousandths: trainingMax.value.thousandths + rise.thousandths * Int64(cyclesDone)),
                          SetLimits.maxLoad)
        let tm = Weight(tmValue, tmUnit)
        let plan = FiveThreeOne.weeks[week - 1]
        let sets = plan.map { set in
            let load = Load(value: rounded(tm.value.doubleValue * Double(set.percent) / 100, tmUnit, .nearest, rounding),
                            unit: tmUnit, bodyweight: false)
            return SuggestedSet(weight: load.weight, reps: set.reps, amrap: set.amrap)
        }
        let percents = plan.map { "\($0.percent)" }.joined(separator: "/")
        var reason = "5/3/1 cycle \(cyclesDone + 1) week \(week)"
        reason += week == FiveThreeOne.weeksPerCycle ? " (deload): \(percents)% of TM \(tm)"
                                                     : ": \(percents)% of TM \(tm), last set as many reps as you can"
        if cyclesDone > 0 {
            reason += " (\(trainingMax.resolved(tmUnit)) + \(Weight(rise, tmUnit)) per cycle, \(region) body)"
        }
        return Suggestion(sets: sets, reason: reason, wave: WavePosition(cycle: cyclesDone + 1, week: week, trainingMax: tm))
    }

    /// No history: the routine's load, or none for the user to pick.
    static func firstTime(_ planned: PlannedExercise, reps: Int, _ unit: WeightUnit,
                          range: ClosedRange<Int>? = nil) -> Suggestion {
        let range = range ?? planned.reps.range
        guard let load = planned.load.map({ Load($0, unit) }) else {
            let set = SuggestedSet(weight: nil, reps: reps, repRange: range, targetRPE: planned.rpe)
            return Suggestion(sets: Array(repeating: set, count: planned.sets),
                              reason: "no session of this line yet and no weight in the routine: pick a weight")
        }
        return Suggestion(sets: Array(repeating: suggested(load, reps: reps, planned, range: range), count: planned.sets),
                          reason: "no session of this line yet: the routine's \(load)")
    }

    // MARK: Loads

    /// `load` plus `step` (converted to the load's unit), rounded to the nearest makeable load,
    /// or the next one up when the step is smaller than the plates allow.
    static func increased(_ load: Load, by step: Weight, _ rounding: any LoadRounding) -> Load {
        let stepInUnit = step.unit == load.unit ? step.value.doubleValue : load.unit.fromKilograms(step.kilograms)
        let target = load.value.doubleValue + stepInUnit
        var value = rounded(target, load.unit, .nearest, rounding)
        if value <= load.value { value = rounded(target, load.unit, .up, rounding) }
        return Load(value: value, unit: load.unit, bodyweight: load.bodyweight)
    }

    /// 10 % off a positive load, rounded down (never to nothing); bodyweight alone and
    /// assistance have nothing to take off and stay.
    static func deloaded(_ load: Load, _ rounding: any LoadRounding) -> Load {
        guard load.value > Fixed(0) else { return load }
        var value = rounded(load.value.doubleValue * 0.9, load.unit, .down, rounding)
        if value <= Fixed(0) && !load.bodyweight { value = rounded(load.value.doubleValue * 0.9, load.unit, .up, rounding) }
        return Load(value: value, unit: load.unit, bodyweight: load.bodyweight)
    }

    /// `load` in the plan's `unit`: as lifted when it is in it, else converted and rounded to
    /// the nearest makeable load there (an imported 100 kg is 220 lb), never to nothing.
    static func converted(_ load: Load, to unit: WeightUnit, _ rounding: any LoadRounding) -> Load {
        guard load.unit != unit else { return load }
        guard !load.value.isZero else { return Load(value: load.value, unit: unit, bodyweight: load.bodyweight) }
        let target = Weight(load.value, load.unit).converted(to: unit).value.doubleValue
        var value = rounded(target, unit, .nearest, rounding)
        // A light dumbbell (1 kg) is still a load in pounds, not none: the next one up.
        if value.isZero { value = rounded(target, unit, target < 0 ? .down : .up, rounding) }
        return Load(value: value, unit: unit, bodyweight: load.bodyweight)
    }

    /// `last time 100kg x 12,12,12`, with the load in the plan's unit when it was lifted in
    /// the other (`(220lb)`), so the suggestion after it adds up on screen.
    static func lastTimeText(_ last: SessionTop, _ load: Load) -> String {
        "last time \(last)" + (last.load.unit == load.unit ? "" : " (\(load))")
    }

    /// A makeable load within the limits a logged set has.
    static func rounded(_ target: Double, _ unit: WeightUnit, _ direction: RoundingDirection,
                        _ rounding: any LoadRounding) -> Fixed {
        let value = rounding.makeable(target, in: unit, direction)
        return min(max(value, -SetLimits.maxLoad), SetLimits.maxLoad)
    }

    static func suggested(_ load: Load, reps: Int, _ planned: PlannedExercise,
                          range: ClosedRange<Int>? = nil) -> SuggestedSet {
        SuggestedSet(weight: load.weight, bodyweight: load.bodyweight, reps: reps, repRange: range ?? planned.reps.range,
                     targetRPE: planned.rpe)
    }
}

/// A load the engine computes with: a number in one unit, on top of bodyweight or not
/// (0 with `bodyweight` is bodyweight alone).
struct Load: Equatable, CustomStringConvertible {
    var value: Fixed
    var unit: WeightUnit
    var bodyweight: Bool

    /// A planned load; a missing unit is `unit`.
    init(_ spec: LoadSpec, _ unit: WeightUnit) {
        switch spec {
        case .weight(let value, let typed): self.init(value: value, unit: typed ?? unit, bodyweight: false)
        case .bodyweight: self.init(value: Fixed(0), unit: unit, bodyweight: true)
        case .bodyweightPlus(let value, let typed): self.init(value: value, unit: typed ?? unit, bodyweight: true)
        }
    }

    init(value: Fixed, unit: WeightUnit, bodyweight: Bool) { self.value = value; self.unit = unit; self.bodyweight = bodyweight }

    /// A logged set's load; a set with no load at all is bodyweight, counted in `unit`.
    init(_ set: SetValues, _ unit: WeightUnit) {
        self.init(value: set.weight?.value ?? Fixed(0), unit: set.weight?.unit ?? unit,
                  bodyweight: set.bodyweight || set.weight == nil)
    }

    var kilograms: Double { unit.kilograms(value) }
    /// The weight field of a set of this load: nil for bodyweight alone.
    var weight: Weight? { bodyweight && value.isZero ? nil : Weight(value, unit) }
    var description: String { loadDescription(weight: weight, bodyweight: bodyweight) }
}

/// One session as the rules read it: its heaviest working load and the reps of the sets at it.
struct SessionTop: CustomStringConvertible {
    var load: Load
    /// Reps of the working sets at `load`, in the order logged.
    var reps: [Int]

    /// Nil for a session with no working set with reps (only warm-ups, say): it says nothing.
    /// `unit` is the unit of a bodyweight-alone load (it has none of its own).
    init?(_ session: PastSession, _ unit: WeightUnit) {
        let working = session.sets.compactMap { set -> (Load, Int)? in
            guard set.kind == .working || set.kind == .failure, let reps = set.reps else { return nil }
            return (Load(set, unit), reps)
        }
        guard let top = working.max(by: { $0.0.kilograms < $1.0.kilograms })?.0 else { return nil }
        load = top
        reps = working.filter { $0.0.kilograms == top.kilograms }.map(\.1)
    }

    /// Whether at least `sets` sets at the top load reached `reps`.
    func done(sets: Int, reps target: Int) -> Bool { reps.filter { $0 >= target }.count >= sets }

    /// `100kg x 5,5,4`.
    var description: String { "\(load) x " + reps.map(String.init).joined(separator: ",") }
}

/// `100kg`, `bw`, `bw+10kg`, `bw-20kg`.
func loadDescription(weight: Weight?, bodyweight: Bool) -> String {
    guard bodyweight else { return weight?.description ?? "" }
    guard let weight else { return "bw" }
    return "bw" + (weight.value.thousandths < 0 ? "" : "+") + weight.description
}
