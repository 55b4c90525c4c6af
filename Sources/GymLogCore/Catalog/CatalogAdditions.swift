// Written by hand, in `catalogText`'s columns: id, name, equipment, primaryMuscles,
// secondaryMuscles, force, mechanic, category, level.

/// Lifts free-exercise-db lacks that imported histories log often (`scripts/catalog-coverage`
/// on both corpora), described as its own entries are: the bodyweight staples (burpees, jumping
/// jacks, step-ups, pike push-ups, clamshells) and the machine or bar a common lift is done with
/// where the catalog has only another (a machine lateral raise is not a dumbbell one). Kept apart
/// from `CatalogData.swift`, which `scripts/vendor-catalog` rewrites; an id the vendored catalog
/// takes one day fails `ExerciseCatalogTests` (ids are unique) and the addition goes.
let catalogAdditionsText = #"""
Burpee	Burpee	body only	quadriceps	chest,glutes,hamstrings,shoulders,triceps	push	compound	plyometrics	beginner
Clamshell	Clamshell	body only	abductors	glutes	push	isolation	strength	beginner
Glute_Kickback_Machine	Glute Kickback Machine	machine	glutes	hamstrings	push	isolation	strength	beginner
Jumping_Jacks	Jumping Jacks	body only	quadriceps	calves,shoulders	push	compound	cardio	beginner
Machine_Hip_Thrust	Machine Hip Thrust	machine	glutes	hamstrings	push	compound	strength	beginner
Machine_Lateral_Raise	Machine Lateral Raise	machine	shoulders		push	isolation	strength	beginner
Pike_Push-Up	Pike Push-Up	body only	shoulders	chest,triceps	push	compound	strength	beginner
Safety_Bar_Squat	Safety Bar Squat	barbell	quadriceps	glutes,hamstrings,lower back	push	compound	strength	intermediate
Seal_Row	Seal Row	barbell	middle back	biceps,lats,shoulders	pull	compound	strength	intermediate
Step-Up	Step-Up	body only	quadriceps	glutes,hamstrings	push	compound	strength	beginner
"""#

/// How many lines `catalogAdditionsText` holds (see `catalogEntryCount`).
let catalogAdditionsCount = 10
