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

    /// The catalog id one name means: the table, then the words, first as written, then
    /// without the words that do not change the muscles (`Paused`, `Single Arm`, `(Each Side)`).
    static func catalogID(_ name: String) -> String? {
        let lift = Lift(strongSpelling(name))
        guard !lift.words.isEmpty, !lift.equipmentConflicts else { return nil }
        if let id = known(lift) ?? sameWords(lift) { return id }
        let plain = lift.withoutModifiers
        guard !plain.words.isEmpty else { return nil }
        return known(plain) ?? sameWords(plain, in: entriesByPlainWords)
    }

    /// The entry a name means by all its words (the table or the word rule, none dropped),
    /// and the equipment it names: what two names of one exercise share (`ExerciseResolver`).
    static func lift(_ name: String) -> (id: String, equipment: String?)? {
        let lift = Lift(strongSpelling(name))
        guard !lift.words.isEmpty, !lift.equipmentConflicts, let id = known(lift) ?? sameWords(lift) else { return nil }
        return (id, lift.equipment)
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

    /// Lower case, spaces collapsed: how `shorthands` is keyed.
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

    /// The lifts apps name whose entry the word rule would not find, each checked by hand:
    /// same movement, same primary muscle, same equipment where the catalog has it (a row
    /// naming equipment the catalog lacks, `hip thrust (dumbbell)`, keeps the muscles; the
    /// equipment the name puts in parentheses still wins, see `Equipment.of`). Read as lifts
    /// (`Lift`): `Tricep Pushdown (Rope)` and `Rope Triceps Pushdowns` are one row.
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
        "shoulder press (machine plates)": "Leverage_Shoulder_Press",
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
        // The names of the other apps (Fitbod, JEFIT, Liftosaur, Lyfta, RepCount, FitNotes)
        // most sets carry unlinked (scripts/catalog-coverage), each checked by hand. A row
        // naming no equipment is also the row of a name whose equipment is its entry's.
        "bench press": "Barbell_Bench_Press_-_Medium_Grip", "squat": "Barbell_Squat", "deadlift": "Barbell_Deadlift",
        "romanian deadlift": "Romanian_Deadlift", "front squat": "Front_Barbell_Squat", "conventional deadlift": "Barbell_Deadlift",
        "trap deadlift": "Trap_Bar_Deadlift", "close grip bench press": "Close-Grip_Barbell_Bench_Press",
        "close grip bench press (dumbbell)": "Close-Grip_Dumbbell_Press",
        "close grip bench press (smith machine)": "Smith_Machine_Close-Grip_Bench_Press",
        "incline bench press": "Barbell_Incline_Bench_Press_-_Medium_Grip", "incline press (barbell)": "Barbell_Incline_Bench_Press_-_Medium_Grip",
        "incline press (dumbbell)": "Incline_Dumbbell_Press", "decline chest press (machine)": "Leverage_Decline_Chest_Press",
        "fly (machine)": "Butterfly", "pec deck": "Butterfly", "crossover fly (cable)": "Cable_Crossover",
        "low cable chest fly": "Low_Cable_Crossover", "high cable fly": "Cable_Crossover", "high to low cable fly": "Cable_Crossover",
        "incline cable chest fly": "Incline_Cable_Flye", "chest fly (cable)": "Cable_Crossover",
        "dip": "Dips_-_Triceps_Version", "dip (machine)": "Dip_Machine", "triceps dip (machine)": "Dip_Machine",
        "tricep push up": "Push-Ups_-_Close_Triceps_Position",
        "row (cable)": "Seated_Cable_Rows", "row (machine)": "Leverage_High_Row", "high row (machine)": "Leverage_High_Row",
        "iso row (machine)": "Leverage_Iso_Row", "row (barbell)": "Bent_Over_Barbell_Row", "bent over row": "Bent_Over_Barbell_Row",
        "seated row": "Seated_Cable_Rows", "rear delt fly (machine)": "Reverse_Machine_Flyes", "rear delt fly": "Reverse_Flyes",
        "rear delt raise (dumbbell)": "Reverse_Flyes", "back fly (dumbbell)": "Reverse_Flyes", "rear delt fly (dumbbell)": "Reverse_Flyes",
        "upright row": "Upright_Barbell_Row", "upright row (dumbbell)": "Standing_Dumbbell_Upright_Row",
        "straight arm pushdown": "Straight-Arm_Pulldown", "straight arm pulldown": "Straight-Arm_Pulldown",
        "stiff legged good morning (barbell)": "Stiff_Leg_Barbell_Good_Morning",
        "lateral raise": "Side_Lateral_Raise", "seated shoulder press (barbell)": "Seated_Barbell_Military_Press",
        "military press": "Standing_Military_Press", "military press (barbell)": "Standing_Military_Press",
        "seated shoulder press (dumbbell)": "Seated_Dumbbell_Press", "seated press (dumbbell)": "Seated_Dumbbell_Press",
        "kickback (dumbbell)": "Tricep_Dumbbell_Kickback", "tricep kickback": "Tricep_Dumbbell_Kickback",
        "pushdown": "Triceps_Pushdown", "triceps pushdown": "Triceps_Pushdown",
        "skullcrusher": "EZ-Bar_Skullcrusher", "lying triceps extension": "Lying_Triceps_Press",
        "curl (cable)": "Standing_Biceps_Cable_Curl", "curl (dumbbell)": "Dumbbell_Bicep_Curl", "curl (barbell)": "Barbell_Curl",
        "incline curl": "Incline_Dumbbell_Curl", "drag curl": "Drag_Curl", "bicep drag curl": "Drag_Curl",
        "seated palms up wrist curl": "Seated_Dumbbell_Palms-Up_Wrist_Curl",
        "seated palms down wrist curl": "Seated_Dumbbell_Palms-Down_Wrist_Curl",
        "seated wrist extension (barbell)": "Seated_Palms-Down_Barbell_Wrist_Curl",
        "calf raise": "Standing_Calf_Raises", "standing calf raise": "Standing_Calf_Raises", "seated calf raise": "Seated_Calf_Raise",
        "calf press on leg press": "Calf_Press_On_The_Leg_Press_Machine", "calf raise (smith machine)": "Smith_Machine_Calf_Raise",
        "lying hamstring curl": "Lying_Leg_Curls", "hip adductor": "Thigh_Adductor", "hip abductor": "Thigh_Abductor",
        "single leg kickback": "Glute_Kickback", "lunge": "Bodyweight_Walking_Lunge", "walking lunge": "Bodyweight_Walking_Lunge",
        "air squat": "Bodyweight_Squat", "jump squat": "Freehand_Jump_Squat", "goblet squat (dumbbell)": "Dumbbell_Squat",
        "sumo squat (dumbbell)": "Plie_Dumbbell_Squat", "hip thrust (dumbbell)": "Barbell_Hip_Thrust",
        "swing (kettlebell)": "One-Arm_Kettlebell_Swings",
        "leg raise": "Flat_Bench_Lying_Leg_Raise", "hanging knee raise": "Hanging_Leg_Raise",
        "knee raise": "Knee_Hip_Raise_On_Parallel_Bars", "leg raise parallel bars": "Knee_Hip_Raise_On_Parallel_Bars",
        "bicycle crunch": "Air_Bike", "cable twist": "Cable_Russian_Twists", "ab wheel": "Ab_Roller", "ab rollout": "Ab_Roller",
        "running": "Trail_Running_Walking", "walking": "Trail_Running_Walking", "hiking": "Trail_Running_Walking",
        "cycling": "Bicycling", "cycling stationary": "Bicycling_Stationary", "elliptical": "Elliptical_Trainer",
        "rowing": "Rowing_Stationary", "rowing (machine)": "Rowing_Stationary", "stair stepper": "Stairmaster",
        "jump rope": "Rope_Jumping", "rope triceps extension (cable)": "Triceps_Overhead_Extension_with_Rope",
        "rope face pull": "Face_Pull", "knee raise (captain's chair)": "Knee_Hip_Raise_On_Parallel_Bars",
        "single leg extension": "Single-Leg_Leg_Extension", "single leg press (machine)": "Leg_Press",
        "incline press (machine)": "Leverage_Incline_Chest_Press", "arnold press": "Arnold_Dumbbell_Press", "sit up": "Sit-Up",
        "decline crunch (weighted)": "Decline_Crunch", "iso lateral row": "Leverage_Iso_Row", "box jump": "Front_Box_Jump",
        "smith calf press": "Smith_Machine_Calf_Raise", "rope triceps pulldown": "Triceps_Pushdown_-_Rope_Attachment",
        "triceps overhead (cable)": "Triceps_Overhead_Extension_with_Rope", "push up on knees": "Pushups",
        "vertical knee raise": "Knee_Hip_Raise_On_Parallel_Bars", "pendulum squat": "Hack_Squat", "high seated row": "Leverage_High_Row",
        "bayesian curl (cable)": "Standing_Biceps_Cable_Curl", "face away bayesian curl (cable)": "Standing_Biceps_Cable_Curl",
        "hammer chin up": "Chin-Up", "shrug (smith machine)": "Leverage_Shrug", "calf extension (machine)": "Calf_Press",
        "chest supported row (dumbbell)": "Dumbbell_Incline_Row", "horizontal chest press (machine)": "Leverage_Chest_Press",
        "horizontal incline chest press (machine)": "Leverage_Incline_Chest_Press", "face cable pull": "Face_Pull",
        "forearm curl (cable)": "Cable_Wrist_Curl", "side plank": "Side_Bridge", "knelt pulldown": "Wide-Grip_Lat_Pulldown",
        // GymBook in Italian: its names of the lifts its lifter logged most.
        "distensioni su panca piana con bilanciere": "Barbell_Bench_Press_-_Medium_Grip",
        "distensioni su panca inclinata con manubri": "Incline_Dumbbell_Press",
        "distensioni su panca inclinata con bilanciere": "Barbell_Incline_Bench_Press_-_Medium_Grip",
        "squat con bilanciere": "Barbell_Squat", "hack squat alla macchina": "Hack_Squat", "curls con bilanciere": "Barbell_Curl",
        "curls a martello": "Hammer_Curls", "curls concentrati": "Concentration_Curls", "affondi con manubri": "Dumbbell_Lunges",
        "estensioni delle gambe": "Leg_Extensions", "flessioni delle gambe da sdraiati": "Lying_Leg_Curls",
        "flessioni delle gambe da seduti": "Seated_Leg_Curl", "rematore al cavo da seduti": "Seated_Cable_Rows",
        "rematore a una mano con manubrio": "One-Arm_Dumbbell_Row", "alzate laterali con manubri da seduti": "Seated_Side_Lateral_Raise",
        "lento frontale con asta": "Standing_Military_Press", "dips alle parallele": "Parallel_Bar_Dip",
        "split squat bulgaro con manubri": "Split_Squat_with_Dumbbells", "flies alla macchina": "Butterfly",
        "lat pull-downs al cavo alto a presa larga": "Wide-Grip_Lat_Pulldown", "treadmill": "Walking_Treadmill", "running (treadmill)": "Running_Treadmill",
        // The names that carried the most sets still unlinked in both corpora after those, each
        // checked by hand (issue 46, item 5). A bare name means the lift's common form, and
        // never a barbell one unless it is the barbell lift: plates follow the link.
        "triceps extension": "Standing_Dumbbell_Triceps_Extension", "overhead triceps extension": "Standing_Dumbbell_Triceps_Extension",
        "overhead triceps extension (ez bar)": "Standing_Overhead_Barbell_Triceps_Extension",
        "overhead dumbbell extension": "Standing_Dumbbell_Triceps_Extension", "rope overhead extension": "Triceps_Overhead_Extension_with_Rope",
        "chest fly": "Dumbbell_Flyes", "chest fly (band)": "Cross_Over_-_With_Bands", "leg curl": "Lying_Leg_Curls",
        "shoulder press": "Dumbbell_Shoulder_Press", "hip thrust": "Barbell_Hip_Thrust", "bench": "Barbell_Bench_Press_-_Medium_Grip",
        "chest press": "Leverage_Chest_Press", "chest press (loaded)": "Leverage_Chest_Press", "incline chest press": "Leverage_Incline_Chest_Press",
        "incline chest press (each side)": "Leverage_Incline_Chest_Press",
        "larsen press": "Barbell_Bench_Press_-_Medium_Grip", "close grip larsen press": "Close-Grip_Barbell_Bench_Press",
        "squeeze press (dumbbell)": "Dumbbell_Bench_Press", "incline squeeze press (dumbbell)": "Incline_Dumbbell_Press",
        "alternating dumbbell bench press": "Dumbbell_Bench_Press", "low incline dumbbell press": "Incline_Dumbbell_Press",
        "incline smith press": "Smith_Machine_Incline_Bench_Press", "smith cgbp": "Smith_Machine_Close-Grip_Bench_Press",
        "pec deck fly": "Butterfly", "low incline dumbbell fly": "Incline_Dumbbell_Flyes",
        "diamond push up": "Push-Ups_-_Close_Triceps_Position",
        // The catalog files these under stretching, which the word rule leaves out; as the apps
        // log them they are sets for the back and the abs.
        "superman": "Superman", "superman hold": "Superman", "superman with scaption": "Superman",
        "scissor kick": "Scissor_Kick", "scissor crossover kick": "Scissor_Kick", "toe touchers": "Toe_Touchers",
        "lunge jump": "Scissors_Jump", "tuck jump": "Knee_Tuck_Jump", "clam": "Clamshell",
        "mini loop band lateral walk": "Monster_Walk", "toes to bar": "Hanging_Leg_Raise", "leg raise (elbows)": "Knee_Hip_Raise_On_Parallel_Bars",
        "ab-wheel rollouts on knees": "Ab_Roller", "stability ball hyperextension": "Weighted_Ball_Hyperextension",
        "lever back extension": "Hyperextensions_Back_Extensions", "elevated hip bridge": "Butt_Lift_Bridge",
        "glute bridge (dumbbell)": "Barbell_Glute_Bridge", "low bar good morning": "Good_Morning",
        "straight leg deadlift": "Stiff-Legged_Barbell_Deadlift", "pulse back squat": "Barbell_Squat",
        "feet forward smith squat": "Smith_Machine_Squat", "hack squat (smith machine)": "Hack_Squat",
        "split squat": "Split_Squat_with_Dumbbells", "bulgarian split squat (barbell)": "Split_Squat_with_Dumbbells",
        "seated stack leg press": "Leg_Press", "sled 45 degrees narrow stance leg press": "Leg_Press", "sled 45 leg press": "Leg_Press",
        "sled calf press on leg press": "Calf_Press_On_The_Leg_Press_Machine", "calf press in hack": "Calf_Press", "hack calf raise": "Calf_Press",
        "stationary bike": "Bicycling_Stationary", "eliptical trainer": "Elliptical_Trainer",
        "hang power clean": "Hang_Clean", "hang power snatch": "Hang_Snatch",
        // Pulls and rows.
        "mixed grip pull up": "Mixed_Grip_Chin", "assisted pull up (machine)": "Band_Assisted_Pull-Up",
        "pull-ups with wide overhand grip bodyweight": "Pullups", "lat pulldowns with wide overhand grip cable": "Wide-Grip_Lat_Pulldown",
        "neutral grip pulldown": "V-Bar_Pulldown", "lat pulldown tryon hammer grip": "V-Bar_Pulldown",
        "reverse grip pulldown (cable)": "Underhand_Cable_Pulldowns", "lat pulldown supinated": "Underhand_Cable_Pulldowns",
        "single arm pulldown": "One_Arm_Lat_Pulldown", "pullovers with rope cable": "Rope_Straight-Arm_Pulldown",
        "straight back seated row": "Seated_Cable_Rows", "row tryon hammer grip (cable)": "Seated_Cable_Rows",
        "landmine row": "T-Bar_Row_with_Handle", "row (kettlebell)": "One-Arm_Kettlebell_Row", "gorilla row": "Alternating_Kettlebell_Row",
        "deficit bb row (1 plate)": "Bent_Over_Barbell_Row", "bb row to chest": "Bent_Over_Barbell_Row",
        "row supinated (ez bar)": "Reverse_Grip_Bent-Over_Rows", "shoulder shrug (machine)": "Leverage_Shrug",
        // Shoulders and arms.
        "single arm overhead press": "Dumbbell_One-Arm_Shoulder_Press", "front raise (barbell)": "Standing_Front_Barbell_Raise_Over_Head",
        "upright row (kettlebell)": "Upright_Barbell_Row", "paused lateral db raise (rpmike)": "Side_Lateral_Raise",
        "partial single db lateral raises": "Side_Lateral_Raise",
        "dumbbell spider curl": "Spider_Curl", "double bicep curl (cable)": "Overhead_Cable_Curl", "bayesian curl": "Standing_Biceps_Cable_Curl",
        "reverse ez-bar curl": "Reverse_Barbell_Curl", "cg ez-bar curl": "Close-Grip_EZ_Bar_Curl",
        "pushdown (ez bar)": "Triceps_Pushdown", "french press (ez bar)": "EZ-Bar_Skullcrusher",
        "palms-up dumbbell wrist curl": "Palms-Up_Dumbbell_Wrist_Curl_Over_A_Bench",
        "one arm wrist curl": "Seated_One-Arm_Dumbbell_Palms-Up_Wrist_Curl",
        "one arm revers wrist curl": "Seated_One-Arm_Dumbbell_Palms-Down_Wrist_Curl",
        // Fitbod's resistance-band lifts, where the catalog has the lift with a band: a band curl
        // linked to a barbell entry would be offered plates (the link's equipment wins over a
        // name's that is not in parentheses, `Equipment.of`).
        "handle band lateral raise": "Lateral_Raise_-_With_Bands", "handle band shoulder press": "Shoulder_Press_-_With_Bands",
        "handle band upright row": "Upright_Row_-_With_Bands", "handle band pec fly": "Cross_Over_-_With_Bands",
        "handle band tricep extension": "Speed_Band_Overhead_Triceps",
        "hip abductors \"bad girls\"": "Thigh_Abductor",
        // Hevy in Spanish.
        "abdominal crunch maquina": "Ab_Crunch_Machine", "super french press maquina": "Machine_Triceps_Extension",
        "press banca (maquina)": "Leverage_Chest_Press", "patada gluteo maquina": "Glute_Kickback_Machine",
        // RepCount in Swedish.
        "laga cable crossovers": "Low_Cable_Crossover", "hantelcurl varannan arm": "Dumbbell_Alternate_Bicep_Curl",
        "hammercurl varannan arm": "Alternate_Hammer_Curl", "pushdowns med en arm": "Cable_One_Arm_Tricep_Extension",
        "hangande benlyft": "Hanging_Leg_Raise", "staende vadpress pa ett ben": "Standing_Calf_Raises",
        "enarms maskinrodd": "Leverage_Iso_Row", "t-bar rodd utan plattform": "T-Bar_Row_with_Handle",
        "pausad overhead press": "Standing_Military_Press", "enarms cable curl": "Standing_One-Arm_Cable_Curl",
        // GymBook in Italian, after the first rows above.
        "tricipiti al cavo": "Triceps_Pushdown", "tricipiti al cavo a presa inversa": "Reverse_Grip_Triceps_Pushdown",
        "curls al cavo basso": "Standing_Biceps_Cable_Curl", "curls con barra ez": "EZ-Bar_Curl", "curls con barra ez a presa larga": "EZ-Bar_Curl",
        "curls con manubri": "Dumbbell_Bicep_Curl", "curls alternati con manubri": "Dumbbell_Alternate_Bicep_Curl",
        "alzate polpacci alla macchina da seduti": "Seated_Calf_Raise", "polpacci leg press": "Calf_Press_On_The_Leg_Press_Machine",
        "walking su tapis roulant": "Walking_Treadmill", "piegamenti": "Pushups",
        "distensioni sopra la testa alla macchina": "Machine_Shoulder_Military_Press",
        "distensioni sopra la testa con manubri": "Dumbbell_Shoulder_Press", "distensioni sopra la testa con manubri in piedi": "Dumbbell_Shoulder_Press",
        "lento dietro la nuca con asta": "Standing_Barbell_Press_Behind_Neck",
        "distensioni delle gambe": "Leg_Press", "distensioni delle gambe da seduti": "Leg_Press",
        "flessioni delle gambe in piedi": "Standing_Leg_Curl", "flessioni delle gambe a una gamba da sdraiati": "Lying_Leg_Curls",
        "affondi con bilanciere": "Barbell_Lunge",
        "distensioni su panca piana con bilanciere a presa stretta": "Close-Grip_Barbell_Bench_Press",
        "distensioni su panca inclinata alla smith machine": "Smith_Machine_Incline_Bench_Press",
        "pulley seduto cable machine": "Seated_Cable_Rows", "pulley alto cable machine": "Wide-Grip_Lat_Pulldown",
        "rematore alla macchina da seduti": "Leverage_High_Row",
        "lat pull-downs al cavo alto a presa inversa": "Underhand_Cable_Pulldowns",
        "lat pull-downs al cavo alto a presa stretta": "Close-Grip_Front_Lat_Pulldown",
        "lat pull-downs posteriori al cavo alto a presa larga": "Wide-Grip_Pulldown_Behind_The_Neck",
        "trazioni alla sbarra": "Pullups", "trazioni alla sbarra a presa stretta": "Pullups",
        "trazioni al volto al cavo": "Face_Pull", "trazioni al volto al cavo da seduti": "Face_Pull",
        "trazioni al mento al cavo": "Upright_Cable_Row", "shrugs con bilanciere": "Barbell_Shrug", "shrugs con manubri": "Dumbbell_Shrug",
        "flies al cavo alto": "Cable_Crossover", "flies al cavo basso": "Low_Cable_Crossover",
        "flies su panca inclinata con manubri": "Incline_Dumbbell_Flyes", "croci ai cavi su panca piana": "Flat_Bench_Cable_Flyes",
        "flies inversi alla macchina": "Reverse_Machine_Flyes", "pull-over con manubrio": "Straight-Arm_Dumbbell_Pullover",
        "alzate laterali alla macchina": "Machine_Lateral_Raise", "alzate laterali con manubri da sdraiati": "Lying_One-Arm_Lateral_Raise",
        "alzate laterali a una mano al cavo basso": "Standing_Low-Pulley_Deltoid_Raise",
        "alzate frontali con manubri": "Front_Dumbbell_Raise", "alzate frontali panca inclinata con manubri": "Front_Incline_Dumbbell_Raise",
        "french presses con un manubrio da seduti": "Seated_Triceps_Press",
        "french presses a una mano con manubrio da seduti": "Dumbbell_One-Arm_Triceps_Extension",
        "french presses al cavo basso in piedi": "Cable_Rope_Overhead_Triceps_Extension",
        "french presses con barra ez da sdraiati": "EZ-Bar_Skullcrusher", "french presses con manubri da sdraiati": "Lying_Dumbbell_Tricep_Extension",
    ]

    /// Whole words of a catalog name that add nothing (`Barbell Bench Press - Medium Grip` is
    /// the plain bench press), dropped before comparing.
    static let plainSuffix = " - Medium Grip"

    /// `appNames` read as lifts: one entry per words and equipment named (nil: none named).
    static let knownLifts: [Lift: String] = {
        var table: [Lift: String] = [:]
        // A row is read as written and in Strong's spelling: `squat` is the lift named with no
        // equipment, and `Squat (Barbell)`.
        for (name, id) in appNames { table[Lift(ExerciseSpellings.canonical(name))] = id }
        for (name, id) in appNames where table[Lift(name)] == nil { table[Lift(name)] = id }
        return table
    }()

    /// The table's entry for a lift: its words with the same equipment, else with none named
    /// when that entry is done with the equipment the name names (`Close-Grip Bench Press
    /// (Barbell)` finds the row `close grip bench press`, `(Dumbbell)` does not).
    static func known(_ lift: Lift) -> String? {
        if let id = knownLifts[lift] { return id }
        guard let equipment = lift.equipment, let id = knownLifts[Lift(words: lift.words, equipment: nil)],
              let entry = ExerciseCatalog.entry(id: id), fits(equipment, entry.equipment) else { return nil }
        return id
    }

    /// Whether a name naming `named` may mean an entry done with `catalog`: the same, an EZ bar
    /// for the catalog's barbell EZ lifts, the body for an entry that names no equipment.
    static func fits(_ named: String, _ catalog: String?) -> Bool {
        named == catalog || (named == "e-z curl bar" && catalog == "barbell")
            || (named == "body only" && (catalog == nil || catalog == "other"))
    }

    /// A strength entry as the word rule compares it: the equipment its name names and the one it is done with.
    typealias IndexedEntry = (id: String, named: String?, equipment: String?)

    /// Each strength entry as a lift, indexed by its words.
    static let entriesByWords = index { $0 }

    /// Each strength entry indexed by its words without modifiers (`Seated Cable Rows` under
    /// `row`): what a name is compared with when its own words found nothing.
    static let entriesByPlainWords = index(\.withoutModifiers)

    static func index(_ words: (Lift) -> Lift) -> [Set<String>: [IndexedEntry]] {
        var index: [Set<String>: [IndexedEntry]] = [:]
        for entry in ExerciseCatalog.entries where entry.category != "stretching" {
            let name = entry.name.hasSuffix(plainSuffix) ? String(entry.name.dropLast(plainSuffix.count)) : entry.name
            let lift = words(Lift(name))
            guard !lift.equipmentConflicts, !lift.words.isEmpty else { continue }
            index[lift.words, default: []].append((entry.id, lift.equipment, entry.equipment))
        }
        return index
    }

    /// The one entry with the same words and equipment as `lift`; nil for none or several. A
    /// name naming no equipment matches only an entry whose name names none either.
    static func sameWords(_ lift: Lift, in index: [Set<String>: [IndexedEntry]] = entriesByWords) -> String? {
        let found = (index[lift.words] ?? []).filter { entry in
            guard let equipment = lift.equipment else { return entry.named == nil }
            return fits(equipment, entry.equipment) && (entry.named == nil || entry.named == equipment)
        }
        return found.count == 1 ? found[0].id : nil
    }
}

/// A name read for matching: its words folded, singular, spelt one way (`db` is `dumbbell`,
/// `tricep` is `triceps`, `Pull Up` is `pullup`), in any order, without the equipment, which
/// is kept apart in the catalog's spelling. `Incline Bench Press (Dumbbell)`, `Dumbbell Incline
/// Bench Press` and `Incline DB Bench Press` are one lift.
struct Lift: Hashable {
    var words: Set<String>
    /// The catalog's equipment the name names; nil for none.
    var equipment: String?
    /// Whether the name names two kinds of equipment that are not one (`Dumbbell Barbell Curl`).
    var equipmentConflicts = false

    init(words: Set<String>, equipment: String?) { self.words = words; self.equipment = equipment }

    init(_ name: String) {
        var list: [String] = []
        for raw in matchWords(name) {
            let word = Self.spellings[String(raw)] ?? singular(String(raw))
            if let last = list.last, let joined = Self.compounds[last]?[word] { list[list.count - 1] = joined } else { list.append(word) }
        }
        var named = Set<String>()
        var kept = Set<String>()
        for word in list where !Self.fillers.contains(word) && !word.allSatisfy(\.isNumber) {
            if let equipment = Self.equipmentWords[word] { named.insert(equipment) }
            if Self.equipmentWords[word] == nil || Self.namingWords.contains(word) { kept.insert(word) }
        }
        // A cable machine is a cable; a barbell of the EZ kind is an EZ bar.
        if named.count == 2, named.contains("cable"), named.contains("machine") { named = ["cable"] }
        if named.count == 2, named.contains("e-z curl bar"), named.contains("barbell") { named = ["e-z curl bar"] }
        words = kept
        equipment = named.count == 1 ? named.first : nil
        equipmentConflicts = named.count > 1
    }

    /// The lift without the words that say how, not what (`Paused`, `Single Arm`, `Seated`,
    /// `(Each Side)`, an incline's angle): the muscles are the same.
    var withoutModifiers: Lift {
        var plain = self
        plain.words = words.filter { !Self.modifiers.contains($0) }
        return plain
    }

    /// One spelling for words apps and lifters write several ways (after folding).
    static let spellings: [String: String] = [
        "db": "dumbbell", "dbs": "dumbbell", "dumbell": "dumbbell", "dumbells": "dumbbell", "bb": "barbell", "barbel": "barbell",
        "kb": "kettlebell", "ezbar": "ez", "triceps": "tricep", "biceps": "bicep", "flye": "fly", "flyes": "fly", "flies": "fly",
        "flys": "fly", "calves": "calf", "crushers": "crusher", "skullcrushers": "skullcrusher",
        "skullecrusher": "skullcrusher", "pressdown": "pushdown", "pulldowns": "pulldown", "pullups": "pullup", "pushups": "pushup",
        "chinups": "chinup", "situps": "situp", "abductors": "abductor", "adductors": "adductor",
        "hamstrings": "hamstring", "glutes": "glute", "lats": "lat", "delts": "delt", "hammercurls": "hammercurl",
        "extensions": "extension", "raises": "raise", "rows": "row", "dips": "dip", "lunges": "lunge", "squats": "squat",
        "curls": "curl", "presses": "press", "crunches": "crunch", "deadlifts": "deadlift", "kickbacks": "kickback", "legged": "leg",
    ]

    /// Adjacent words one name writes apart and another together (`Pull Up`, `Pullups`).
    static let compounds: [String: [String: String]] = [
        "pull": ["up": "pullup", "down": "pulldown", "over": "pullover"], "chin": ["up": "chinup"],
        "push": ["up": "pushup", "down": "pushdown"], "sit": ["up": "situp"], "step": ["up": "stepup"],
        "skull": ["crusher": "skullcrusher"], "kick": ["back": "kickback"], "ez": ["bar": "ez"], "e": ["z": "ez"],
        "smith": ["machine": "smith"], "hammer": ["strength": "hammerstrength", "curl": "hammercurl"], "t": ["bar": "tbar"],
        "trap": ["bar": "trapbar"], "hex": ["bar": "trapbar"], "plate": ["loaded": "plateloaded"], "face": ["pull": "facepull"],
        "back": ["extension": "backextension"], "leg": ["press": "legpress"], "pec": ["deck": "pecdeck"],
        "single": ["arm": "singlearm", "leg": "singleleg"], "one": ["arm": "singlearm", "leg": "singleleg"],
        "1": ["arm": "singlearm", "leg": "singleleg"], "each": ["side": "eachside"],
    ]

    /// Words naming equipment (after `spellings` and `compounds`), and the catalog's spelling.
    static let equipmentWords: [String: String] = [
        "barbell": "barbell", "dumbbell": "dumbbell", "cable": "cable", "machine": "machine", "kettlebell": "kettlebells",
        "band": "bands", "bodyweight": "body only", "ez": "e-z curl bar", "smith": "machine", "hammerstrength": "machine",
        "leverage": "machine", "lever": "machine", "plateloaded": "machine", "technogym": "machine", "rope": "cable",
        "hoist": "machine", "cybex": "machine", "maquina": "machine",
    ]

    /// Equipment words that also say which lift (`Smith Machine Squat` is not any machine's
    /// squat; a rope pushdown is a cable pushdown with a rope).
    static let namingWords: Set<String> = ["smith", "rope"]

    /// Words that name nothing: `with`, a lone `s` (`Farmer's`), `the`, `on`, `a`, the lifter's
    /// sex Lyfta writes after its names (`Seated Face Pull (with rope) (male) (Cable)`).
    static let fillers: Set<String> = ["with", "s", "the", "on", "in", "a", "an", "of", "attachment", "male", "female"]

    /// Words that say how a lift is done without changing what it trains (see `withoutModifiers`).
    static let modifiers: Set<String> = [
        "pause", "paused", "pausad", "ct", "2ct", "3ct", "tempo", "eccentric", "partial", "eachside", "weighted", "rope", "single", "singlearm", "singleleg", "alternating", "alternate", "seated",
        "sitting", "standing", "strict", "heavy", "grip", "wide", "neutral", "narrow", "close", "low", "high",
        "incline", "decline", "flat", "bent", "over", "lying", "kneeling", "assisted", "bar",
    ]
}

/// `curls` -> `curl`, `presses` -> `press`, `flies` -> `fly`; `press` stays.
func singular(_ word: String) -> String {
    let irregular = ["flye": "fly", "flyes": "fly", "calves": "calf", "calve": "calf"]
    if let w = irregular[word] { return w }
    if word.count > 4, word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
    if ["sses", "shes", "ches", "xes"].contains(where: word.hasSuffix) { return String(word.dropLast(2)) }
    if word.count > 2, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us") { return String(word.dropLast()) }
    return word
}
