import Foundation

/// The outcome of resolving a typed exercise name against the user's exercises and aliases.
public enum ExerciseResolution: Equatable, Sendable {
    case found(Exercise)
    /// Unknown and not close to anything: create it (the caller prints a one-line notice).
    case create(name: String)
    /// A prefix that matches several exercises.
    case ambiguous([Exercise])
    /// Unknown, but one letter or two away from an existing name: point it out rather than
    /// silently creating a look-alike.
    case nearMiss(Exercise)
}

extension ExerciseResolution {
    /// Why a typed name cannot be logged under, as logging and saving a routine both say it:
    /// a near-miss names the exercise meant and how to create the new one anyway, a prefix of
    /// several names lists them; nil for a name that resolves or creates an exercise.
    /// `setCounts` (live sets by exercise) puts the most-trained candidates first and shows
    /// each one's count, so the lifter sees which one they mean.
    public func refusal(typed: String, setCounts: [UUID: Int] = [:]) -> String? {
        switch self {
        case .found, .create: nil
        case .ambiguous(let candidates):
            Self.severalMatches(typed: typed, candidates, setCounts: setCounts)
        case .nearMiss(let e):
            "Unknown exercise '\(typed)'. Did you mean '\(e.name)'? To create it anyway: `gymlog exercises add \"\(typed)\"`."
        }
    }
}

extension ExerciseResolution {
    /// How many candidates a refusal lists before `… and N more`.
    static let listedCandidates = 8

    /// The one wording of "this name stands for several exercises": each candidate with its
    /// set count when known, most-trained first, and what to type next.
    public static func severalMatches(typed: String, _ candidates: [Exercise], setCounts: [UUID: Int] = [:]) -> String {
        let ordered = setCounts.isEmpty ? candidates
            : candidates.sorted { (setCounts[$0.id] ?? 0, $1.name) > (setCounts[$1.id] ?? 0, $0.name) }
        let listed = ordered.prefix(listedCandidates).map { e in
            setCounts.isEmpty ? "'\(e.name)'" : "'\(e.name)' (\(plural(setCounts[e.id] ?? 0, "set")))"
        }
        let more = ordered.count > listedCandidates ? ", … and \(ordered.count - listedCandidates) more" : ""
        return "'\(typed)' matches several exercises: \(listed.joined(separator: ", "))\(more). Type more of the name, in any order."
    }
}

/// A user alias (`bp` -> Bench Press).
public struct Alias: Equatable, Sendable {
    public var alias: String
    public var exerciseID: UUID
    public init(alias: String, exerciseID: UUID) { self.alias = alias; self.exerciseID = exerciseID }
}

/// Resolves names by exact name, alias, folded name (case, accents, punctuation and spaces
/// ignored: `pull-up` is `Pullup`), unambiguous word prefix, the catalog entry (`incline db
/// press` is the history's `Incline Bench Press (Dumbbell)`), then near-miss. Pure.
public struct ExerciseResolver: Sendable {
    public var exercises: [Exercise]
    public var aliases: [Alias]
    /// The stored catalog fields of exercises, by id (none stored: linked from the name).
    public var links: [UUID: ExerciseLinkFields]

    public init(exercises: [Exercise], aliases: [Alias], links: [UUID: ExerciseLinkFields] = [:]) {
        self.exercises = exercises; self.aliases = aliases; self.links = links
    }

    /// Every exercise a name stands for, as a whole: exact name or alias first (what the
    /// store's indexed lookup finds), then folded names and aliases. Empty when none does.
    public func exactMatches(_ typed: String) -> [Exercise] {
        let byID = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let key = nameKey(typed)
        if let e = exercises.first(where: { nameKey($0.name) == key }) { return [e] }
        if let a = aliases.first(where: { nameKey($0.alias) == key }), let e = byID[a.exerciseID] { return [e] }
        let folded = matchKey(typed)
        guard !folded.isEmpty else { return [] }
        var found: [Exercise] = []
        var seen = Set<UUID>()
        for e in exercises where matchKey(e.name) == folded && seen.insert(e.id).inserted { found.append(e) }
        for a in aliases where matchKey(a.alias) == folded {
            if let e = byID[a.exerciseID], seen.insert(e.id).inserted { found.append(e) }
        }
        return found.sorted { $0.name < $1.name }
    }

    public func resolve(_ typed: String) -> ExerciseResolution {
        let exact = exactMatches(typed)
        if exact.count == 1 { return .found(exact[0]) }
        if exact.count > 1 { return .ambiguous(exact) }
        let byID = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

        let typedWords = matchWords(typed)
        var matches: [Exercise] = []
        var seen = Set<UUID>()
        func consider(_ name: String, _ exercise: Exercise) {
            if wordPrefixMatch(typedWords, matchWords(name)), seen.insert(exercise.id).inserted {
                matches.append(exercise)
            }
        }
        for e in exercises { consider(e.name, e) }
        for a in aliases { if let e = byID[a.exerciseID] { consider(a.alias, e) } }
        if matches.count == 1 { return .found(matches[0]) }
        if matches.count > 1 { return .ambiguous(matches.sorted { $0.name < $1.name }) }

        // Every word of a name, typed in another order (`dumbbell glute bridge` is `Glute
        // Bridge (Dumbbell)`). Only whole covers: a word that merely occurs in a name (`row`
        // in `Cable Row`) must still be able to create an exercise of its own.
        let covers = named(typedWords, whole: true)
        if covers.count == 1 { return .found(covers[0]) }
        if covers.count > 1 { return .ambiguous(covers) }
        // The catalog entry the words mean (`incline db press`), when one exercise is it.
        if let same = sameCatalogEntry(typed) { return .found(same) }

        let key = matchKey(typed)
        let threshold = key.count <= 4 ? 1 : 2
        var best: (Exercise, Int)?
        for e in exercises {
            let d = editDistance(key, matchKey(e.name), limit: threshold)
            if d <= threshold, d < (best?.1 ?? .max) { best = (e, d) }
        }
        for a in aliases {
            guard let e = byID[a.exerciseID] else { continue }
            let d = editDistance(key, matchKey(a.alias), limit: threshold)
            if d <= threshold, d < (best?.1 ?? .max) { best = (e, d) }
        }
        if let best { return .nearMiss(best.0) }
        return .create(name: displayName(forNew: typed))
    }
}

extension ExerciseResolver {
    /// The exercises whose name or alias has a word starting with each typed word, in any
    /// order (`glute dumb` finds `Glute Bridge (Dumbbell)`), by name: what a read command
    /// offers for a name that stands for no exercise.
    public func candidates(_ typed: String) -> [Exercise] {
        named(matchWords(typed), whole: false)
    }

    /// Exercises named (by name or alias) by these words in any order; `whole` also wants
    /// every word of the name typed.
    func named(_ typedWords: [Substring], whole: Bool) -> [Exercise] {
        guard !typedWords.isEmpty else { return [] }
        let byID = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [Exercise] = []
        var seen = Set<UUID>()
        func consider(_ name: String, _ exercise: Exercise) {
            let words = matchWords(name)
            if (!whole || words.count == typedWords.count), anyOrderMatch(typedWords, words), seen.insert(exercise.id).inserted {
                found.append(exercise)
            }
        }
        for e in exercises { consider(e.name, e) }
        for a in aliases { if let e = byID[a.exerciseID] { consider(a.alias, e) } }
        return found.sorted { $0.name < $1.name }
    }
}

/// `bridge glute` matches `glute bridge`: each typed word starts a different word of the name.
func anyOrderMatch(_ typed: [Substring], _ name: [Substring]) -> Bool {
    guard !typed.isEmpty, typed.count <= name.count else { return false }
    // A matching of typed words to words of the name, found by augmenting paths (Kuhn): unlike
    // a greedy pick it finds `p` + `press` in `Push Press` whichever order they come in, and
    // unlike trying every assignment it stays polynomial on a long name of repeated words
    // (`very very … long name`, which a fuzzed REPL line made take minutes).
    // Most names of a history miss a typed word outright: answered without allocating, as
    // this runs for every exercise and alias on a logged line that is not a name as stored.
    guard typed.allSatisfy({ word in name.contains { $0.hasPrefix(word) } }) else { return false }
    let fits = typed.map { word in name.indices.filter { name[$0].hasPrefix(word) } }
    var owner = [Int?](repeating: nil, count: name.count)
    func augment(_ i: Int, _ visited: inout [Bool]) -> Bool {
        for j in fits[i] where !visited[j] {
            visited[j] = true
            if let other = owner[j], !augment(other, &visited) { continue }
            owner[j] = i
            return true
        }
        return false
    }
    for i in typed.indices {
        var visited = [Bool](repeating: false, count: name.count)
        if !augment(i, &visited) { return false }
    }
    return true
}

extension ExerciseResolver {
    /// The one exercise whose name (or alias, or link by hand) means the catalog entry that
    /// `typed` means by its own words (`CatalogMatcher.lift`, no word dropped: `paused bench`
    /// is not the bench press here), naming no other equipment; nil for none or several. A
    /// routine's `incline db press` then logs under the history's `Incline Bench Press (Dumbbell)`
    /// instead of a new, empty exercise.
    func sameCatalogEntry(_ typed: String) -> Exercise? {
        guard let wanted = CatalogMatcher.lift(typed) else { return nil }
        func same(_ name: String) -> Bool {
            guard let found = CatalogMatcher.lift(name), found.id == wanted.id else { return false }
            return wanted.equipment == nil || found.equipment == nil || wanted.equipment == found.equipment
        }
        var names: [UUID: [String]] = [:]
        for a in aliases { names[a.exerciseID, default: []].append(a.alias) }
        let found = exercises.filter { e in
            let fields = links[e.id] ?? ExerciseLinkFields()
            // A lifter's own muscles say it is none of the catalog's; a link by hand says which.
            if !fields.primaryMuscles.isEmpty { return false }
            if let id = fields.catalogID { return id == wanted.id }
            return ([e.name] + (names[e.id] ?? [])).contains(where: same)
        }
        return found.count == 1 ? found[0] : nil
    }
}

/// `inc db` matches `incline db press`: each typed word starts the name's word at the same place.
func wordPrefixMatch(_ typed: [Substring], _ name: [Substring]) -> Bool {
    guard !typed.isEmpty, typed.count <= name.count else { return false }
    for (t, n) in zip(typed, name) where !n.hasPrefix(t) { return false }
    return true
}

/// Optimal-string-alignment distance (a transposition counts as one edit), cut off above `limit`.
public func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
    let s = Array(a), t = Array(b)
    if abs(s.count - t.count) > limit { return limit + 1 }
    if s.isEmpty { return t.count }
    if t.isEmpty { return s.count }
    var prev2 = [Int](repeating: 0, count: t.count + 1)
    var prev = Array(0...t.count)
    var cur = [Int](repeating: 0, count: t.count + 1)
    for i in 1...s.count {
        cur[0] = i
        var rowMin = cur[0]
        for j in 1...t.count {
            let cost = s[i - 1] == t[j - 1] ? 0 : 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
            rowMin = min(rowMin, cur[j])
        }
        if rowMin > limit { return limit + 1 }
        (prev2, prev, cur) = (prev, cur, prev2)
    }
    return prev[t.count]
}

/// A new exercise's name as typed, spaces collapsed: `RDL`, `OHP` and `rdl` all stay as
/// they are (title-casing would turn `rdl` into `Rdl` and `db press` into `Db Press`).
public func displayName(forNew typed: String) -> String {
    typed.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
}
