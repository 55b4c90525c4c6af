import Foundation

/// The catalog entry an exercise's name means, found without asking: at most one, and none
/// when nothing matches well. A wrong link would count a lifter's sets against the wrong
/// muscles, so the matcher prefers leaving an exercise unlinked to guessing:
///
/// 1. The name is brought to Strong's spelling first, as the importer brings every app's names
///    (`ExerciseSpellings`: `Barbell Bench Press` and `Bench Press, Barbell` become `Bench Press
///    (Barbell)`), after the shorthands lifters type (`bench`, `ohp`, `rdl`) and the equipment
///    abbreviations (`db press`) are written out.
/// 2. `appNames`, the lifts Strong and Hevy name, chosen by hand: that spelling -> the entry.
/// 3. Otherwise the words must be the same as one entry's, plurals and the equipment aside,
///    with the same equipment: `Hammer Curl (Dumbbell)` is `Hammer Curls` (dumbbell), `Shrug
///    (Cable)` is `Cable Shrugs`. A name naming no equipment matches only an entry whose name
///    names none either (`Face Pull`, `Leg Press`). Two entries that fit equally: none.
public enum CatalogMatcher {
    /// The entry `name` means, else the one entry its `aliases` agree on; nil when none does.
    public static func entry(name: String, aliases: [String] = []) -> CatalogEntry? {
        if let id = catalogID(name) { return ExerciseCatalog.entry(id: id) }
        let found = Set(aliases.compactMap(catalogID))
        return found.count == 1 ? found.first.flatMap(ExerciseCatalog.entry(id:)) : nil
    }

    /// The catalog id one name means.
    static func catalogID(_ name: String) -> String? {
        let spelled = strongSpelling(name)
        if let id = appNames[tableKey(spelled)] { return id }
        return sameWords(spelled)
    }

    /// `name` in Strong's spelling: shorthands and abbreviations written out, then
    /// `ExerciseSpellings.canonical` (`Barbell Row` -> `Row (Barbell)`).
    static func strongSpelling(_ name: String) -> String {
        let key = tableKey(name)
        if let long = shorthands[key] { return long }
        var words = key.split(separator: " ").map(String.init)
        if let first = words.first, let long = abbreviations[first] { words[0] = long }
        return ExerciseSpellings.canonical(words.joined(separator: " "))
    }

    /// Lower case, spaces collapsed: how `appNames` and `shorthands` are keyed.
    static func tableKey(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// Names lifters type for the big lifts, as Strong spells them.
    static let shorthands: [String: String] = [
        "bench": "Bench Press (Barbell)", "bp": "Bench Press (Barbell)", "flat bench": "Bench Press (Barbell)",
        "incline bench": "Incline Bench Press (Barbell)", "ohp": "Overhead Press (Barbell)",
        "rdl": "Romanian Deadlift (Barbell)", "dl": "Deadlift (Barbell)", "sldl": "Stiff Leg Deadlift (Barbell)",
        "chin": "Chin Up", "chins": "Chin Up",
    ]

    /// Equipment abbreviations that start a typed name (`db press`).
    static let abbreviations = ["db": "dumbbell", "bb": "barbell", "kb": "kettlebell"]

    /// The lifts Strong and Hevy name (in Strong's spelling, lower case) whose entry the word
    /// rule would not find, each checked by hand: same movement, same primary muscle, same
    /// equipment where the catalog has it.
    static let appNames: [String: String] = [
        "bench press (barbell)": "Barbell_Bench_Press_-_Medium_Grip",
        "incline bench press (barbell)": "Barbell_Incline_Bench_Press_-_Medium_Grip",
        "decline bench press (barbell)": "Decline_Barbell_Bench_Press",
        "bench press - close grip (barbell)": "Close-Grip_Barbell_Bench_Press",
        "close grip bench press (barbell)": "Close-Grip_Barbell_Bench_Press",
        "bench press - wide grip (barbell)": "Wide-Grip_Barbell_Bench_Press",
        "incline bench press (dumbbell)": "Incline_Dumbbell_Press",
        "decline bench press (dumbbell)": "Decline_Dumbbell_Bench_Press",
        "bench press (smith machine)": "Smith_Machine_Bench_Press",
        "incline bench press (smith machine)": "Smith_Machine_Incline_Bench_Press",
        "chest press (machine)": "Leverage_Chest_Press",
        "iso-lateral chest press (machine)": "Leverage_Chest_Press",
        "incline chest press (machine)": "Leverage_Incline_Chest_Press",
        "chest fly (dumbbell)": "Dumbbell_Flyes",
        "incline chest fly (dumbbell)": "Incline_Dumbbell_Flyes",
        "chest fly (machine)": "Butterfly", "butterfly (pec deck)": "Butterfly", "pec deck (machine)": "Butterfly",
        "fly crossovers (cable)": "Cable_Crossover", "seated machine fly": "Butterfly",
        "low cable fly crossovers": "Low_Cable_Crossover",
        "chest dip": "Dips_-_Chest_Version", "chest dip (weighted)": "Dips_-_Chest_Version",
        "triceps dip": "Dips_-_Triceps_Version", "triceps dip (weighted)": "Dips_-_Triceps_Version",
        "bench dip": "Bench_Dips", "push up": "Pushups", "flat barbell bench press": "Barbell_Bench_Press_-_Medium_Grip",
        "incline dumbbell bench press": "Incline_Dumbbell_Press", "pullover (dumbbell)": "Straight-Arm_Dumbbell_Pullover",
        "squat (barbell)": "Barbell_Squat", "front squat (barbell)": "Front_Barbell_Squat",
        "deadlift (barbell)": "Barbell_Deadlift", "sumo deadlift (barbell)": "Sumo_Deadlift", "sumo deadlift": "Sumo_Deadlift",
        "deadlift (trap bar)": "Trap_Bar_Deadlift",
        "romanian deadlift (barbell)": "Romanian_Deadlift", "romanian deadlift (dumbbell)": "Stiff-Legged_Dumbbell_Deadlift",
        "stiff leg deadlift (barbell)": "Stiff-Legged_Barbell_Deadlift",
        "overhead press (barbell)": "Standing_Military_Press",
        "seated overhead press (barbell)": "Seated_Barbell_Military_Press",
        "overhead press (dumbbell)": "Dumbbell_Shoulder_Press", "shoulder press (dumbbell)": "Dumbbell_Shoulder_Press",
        "seated overhead press (dumbbell)": "Seated_Dumbbell_Press",
        "shoulder press (machine)": "Machine_Shoulder_Military_Press",
        "seated shoulder press (machine)": "Machine_Shoulder_Military_Press",
        "overhead press (smith machine)": "Smith_Machine_Overhead_Shoulder_Press",
        "arnold press (dumbbell)": "Arnold_Dumbbell_Press",
        "shoulder press (machine plates)": "Leverage_Shoulder_Press", "shoulder press (plate loaded)": "Leverage_Shoulder_Press",
        "lateral dumbbell raise": "Side_Lateral_Raise", "seated lateral raise (dumbbell)": "Seated_Side_Lateral_Raise",
        "single arm lateral raise (cable)": "Standing_Low-Pulley_Deltoid_Raise", "rear delt machine fly": "Reverse_Machine_Flyes",
        "lateral raise (dumbbell)": "Side_Lateral_Raise", "lateral raise (cable)": "Cable_Seated_Lateral_Raise",
        "front raise (dumbbell)": "Front_Dumbbell_Raise", "front raise (cable)": "Front_Cable_Raise",
        "rear delt reverse fly (dumbbell)": "Reverse_Flyes", "rear delt reverse fly (machine)": "Reverse_Machine_Flyes",
        "rear delt reverse fly (cable)": "Cable_Rear_Delt_Fly", "reverse fly (cable)": "Cable_Rear_Delt_Fly",
        "face pull (cable)": "Face_Pull",
        "upright row (barbell)": "Upright_Barbell_Row", "upright row (cable)": "Upright_Cable_Row",
        "bent over row (barbell)": "Bent_Over_Barbell_Row", "pendlay row (barbell)": "Bent_Over_Barbell_Row",
        "bent over row (dumbbell)": "Bent_Over_Two-Dumbbell_Row",
        "bent over one arm row (dumbbell)": "One-Arm_Dumbbell_Row", "row (dumbbell)": "One-Arm_Dumbbell_Row",
        "t bar row": "T-Bar_Row_with_Handle",
        "seated row (cable)": "Seated_Cable_Rows", "seated cable row - v grip (cable)": "Seated_Cable_Rows",
        "seated cable row - bar grip": "Seated_Cable_Rows", "seated cable row - bar wide grip": "Seated_Cable_Rows",
        "seated wide-grip row (cable)": "Seated_Cable_Rows", "single arm cable row": "Seated_One-arm_Cable_Pulley_Rows",
        "chest supported incline row (dumbbell)": "Dumbbell_Incline_Row", "shrug (machine)": "Leverage_Shrug",
        "seated row (machine)": "Leverage_High_Row", "iso-lateral row (machine)": "Leverage_Iso_Row",
        "lat pulldown (cable)": "Wide-Grip_Lat_Pulldown", "lat pulldown (machine)": "Wide-Grip_Lat_Pulldown",
        "lat pulldown": "Wide-Grip_Lat_Pulldown", "lat pulldown - close grip (cable)": "Close-Grip_Front_Lat_Pulldown",
        "straight arm lat pulldown (cable)": "Straight-Arm_Pulldown", "single arm lat pulldown": "One_Arm_Lat_Pulldown",
        "lat pulldown - underhand (cable)": "Underhand_Cable_Pulldowns",
        "pull up": "Pullups", "pull up (weighted)": "Weighted_Pull_Ups", "pull up (assisted)": "Band_Assisted_Pull-Up",
        "chin up": "Chin-Up", "chin up (assisted)": "Chin-Up",
        "bicep curl (barbell)": "Barbell_Curl", "bicep curl (dumbbell)": "Dumbbell_Bicep_Curl",
        "bicep curl (cable)": "Standing_Biceps_Cable_Curl", "bicep curl (machine)": "Machine_Bicep_Curl",
        "biceps curl (ez bar)": "EZ-Bar_Curl", "bicep curl (ez bar)": "EZ-Bar_Curl", "curl (ez bar)": "EZ-Bar_Curl",
        "hammer curl (cable)": "Cable_Hammer_Curls_-_Rope_Attachment",
        "preacher curl (barbell)": "Preacher_Curl", "preacher curl (dumbbell)": "One_Arm_Dumbbell_Preacher_Curl",
        "preacher curl (machine)": "Machine_Preacher_Curls",
        "incline curl (dumbbell)": "Incline_Dumbbell_Curl", "seated incline curl (dumbbell)": "Incline_Dumbbell_Curl",
        "reverse curl (barbell)": "Reverse_Barbell_Curl", "reverse curl (cable)": "Reverse_Cable_Curl",
        "triceps pushdown (cable - straight bar)": "Triceps_Pushdown",
        "triceps rope pushdown": "Triceps_Pushdown_-_Rope_Attachment", "rope push down": "Triceps_Pushdown_-_Rope_Attachment",
        "v-bar push down": "Triceps_Pushdown_-_V-Bar_Attachment",
        "single arm triceps pushdown (cable)": "Cable_One_Arm_Tricep_Extension",
        "overhead triceps extension (cable)": "Triceps_Overhead_Extension_with_Rope",
        "triceps extension (cable)": "Triceps_Overhead_Extension_with_Rope",
        "triceps extension (dumbbell)": "Standing_Dumbbell_Triceps_Extension",
        "triceps extension (barbell)": "Standing_Overhead_Barbell_Triceps_Extension",
        "triceps extension (machine)": "Machine_Triceps_Extension",
        "skullcrusher (dumbbell)": "Lying_Dumbbell_Tricep_Extension",
        "skullcrusher (barbell)": "Lying_Close-Grip_Barbell_Triceps_Extension_Behind_The_Head",
        "leg press (machine)": "Leg_Press", "leg press horizontal (machine)": "Leg_Press", "leg extension (machine)": "Leg_Extensions",
        "seated leg curl (machine)": "Seated_Leg_Curl", "lying leg curl (machine)": "Lying_Leg_Curls",
        "standing calf raise (machine)": "Standing_Calf_Raises", "standing calf raise (dumbbell)": "Standing_Dumbbell_Calf_Raise",
        "standing calf raise (barbell)": "Standing_Barbell_Calf_Raise",
        "seated calf raise (machine)": "Seated_Calf_Raise", "seated calf raise (plate loaded)": "Seated_Calf_Raise",
        "hip thrust (barbell)": "Barbell_Hip_Thrust",
        "hip abduction (machine)": "Thigh_Abductor", "hip adduction (machine)": "Thigh_Adductor",
        "lunge (dumbbell)": "Dumbbell_Lunges", "lunge (barbell)": "Barbell_Lunge",
        "bulgarian split squat": "Split_Squat_with_Dumbbells", "split squat (dumbbell)": "Split_Squat_with_Dumbbells",
        "back extension": "Hyperextensions_Back_Extensions", "back extension (hyperextension)": "Hyperextensions_Back_Extensions",
        "back extension (weighted hyperextension)": "Hyperextensions_Back_Extensions",
        "crunch (machine)": "Ab_Crunch_Machine", "lying leg raise": "Flat_Bench_Lying_Leg_Raise",
    ]

    /// Whole words of a catalog name that add nothing (`Barbell Bench Press - Medium Grip` is
    /// the plain bench press), dropped before comparing.
    static let plainSuffix = " - Medium Grip"

    /// Words naming equipment, and the catalog's spelling of it.
    static let equipmentWords: [String: String] = [
        "barbell": "barbell", "dumbbell": "dumbbell", "cable": "cable", "machine": "machine",
        "kettlebell": "kettlebells", "band": "bands", "bodyweight": "body only",
    ]

    /// Adjacent words one name writes apart and another together (`Pull Up`, `Pullups`).
    static let compounds: [String: [String: String]] = [
        "pull": ["up": "pullup", "down": "pulldown", "over": "pullover"], "chin": ["up": "chinup"],
        "push": ["up": "pushup", "down": "pushdown"], "sit": ["up": "situp"], "step": ["up": "stepup"],
        "skull": ["crusher": "skullcrusher"],
    ]

    /// A name's words for comparing: folded, singular, compounds joined, `with` and a lone
    /// `s` (`Farmer's`) dropped; and the equipment its words name (nil for none, "" for two).
    static func comparable(_ name: String) -> (words: Set<String>, equipment: String?) {
        var words: [String] = []
        for word in matchWords(name).map({ singular(String($0)) }) where word != "with" && word != "s" {
            if let last = words.last, let joined = compounds[last]?[word] { words[words.count - 1] = joined } else { words.append(word) }
        }
        let named = Set(words.compactMap { equipmentWords[$0] })
        return (Set(words.filter { equipmentWords[$0] == nil }), named.count > 1 ? "" : named.first)
    }

    /// `curls` -> `curl`, `presses` -> `press`, `flies` -> `fly`; `press` stays.
    static func singular(_ word: String) -> String {
        let irregular = ["flye": "fly", "flyes": "fly", "calves": "calf", "calve": "calf"]
        if let w = irregular[word] { return w }
        if word.count > 4, word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if ["sses", "shes", "ches", "xes"].contains(where: word.hasSuffix) { return String(word.dropLast(2)) }
        if word.count > 2, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us") { return String(word.dropLast()) }
        return word
    }

    /// Each strength entry's comparable words, equipment named in its name, and equipment.
    static let comparableEntries: [(id: String, words: Set<String>, named: String?, equipment: String?)] =
        ExerciseCatalog.entries.filter { $0.category != "stretching" }.map { entry in
            let name = entry.name.hasSuffix(plainSuffix) ? String(entry.name.dropLast(plainSuffix.count)) : entry.name
            let c = comparable(name)
            return (entry.id, c.words, c.equipment, entry.equipment)
        }

    /// The one entry with the same words and equipment as `name`; nil for none or several.
    static func sameWords(_ name: String) -> String? {
        let typed = comparable(name)
        guard !typed.words.isEmpty, typed.equipment != "" else { return nil }
        let found = comparableEntries.filter { entry in
            guard entry.words == typed.words else { return false }
            guard let equipment = typed.equipment else { return entry.named == nil }
            return entry.equipment == equipment && (entry.named == nil || entry.named == equipment)
        }
        return found.count == 1 ? found[0].id : nil
    }
}
