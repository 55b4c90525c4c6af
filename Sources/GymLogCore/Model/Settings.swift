/// The user's preferences (`$XDG_CONFIG_HOME/gymlog/config.toml`).
public struct Settings: Equatable, Sendable {
    /// The unit of a weight typed without one.
    public var defaultUnit: WeightUnit = .kg
    public var e1rmFormula: E1RMFormula = .epley
    /// A set logged this long after the previous one starts a new workout.
    public var idleGapMinutes: Int = 120
    /// The sync server, saved by `gymlog login`.
    public var server: String?
    public var token: String?
    /// The account's user name on the server, saved by `gymlog login` (every sealed value is
    /// bound to it).
    public var account: String?
    /// The recovery phrase of the account key when the account's history is encrypted end
    /// to end, saved by `gymlog login` in the credentials file, never in the config.
    public var accountKey: String?
    /// The PEM certificates trusted besides the system's, for a sync server whose TLS
    /// certificate is of its own making: saved by `gymlog login --ca-file` in the credentials
    /// file (`ca_certificate`), the certificate itself, so deleting or moving the file after
    /// login changes nothing.
    public var caCertificate: String?
    /// The path a credentials file of gymlog 0.11.0 holds instead (`ca_file`): read into
    /// `caCertificate` when loaded, and replaced by it at the next login.
    public var caFile: String?
    /// The bar and plates loads in kilograms are made from (`[plates] kg_bar`, `kg`).
    public var kilogramPlates: PlateInventory = .kilograms
    /// The bar and plates loads in pounds are made from (`[plates] lb_bar`, `lb`).
    public var poundPlates: PlateInventory = .pounds
    /// The step planned loads in kilograms round to (`[plates] kg_round`, e.g. 2.5), apart from
    /// what the plates make (microplates make 101.25, a program says 100); nil: the plates.
    public var kilogramRoundTo: Fixed?
    /// The same for pounds (`[plates] lb_round`, e.g. 5).
    public var poundRoundTo: Fixed?
    /// The EZ curl bar's and the trap bar's own weights, by unit (`[plates] kg_ez_bar`,
    /// `lb_ez_bar`, `kg_trap_bar`, `lb_trap_bar`): common bars, until the lifter weighs theirs.
    public var ezBar = PerUnit(kg: Fixed(10), lb: Fixed(25))
    public var trapBar = PerUnit(kg: Fixed(25), lb: Fixed(55))
    /// The step between the dumbbells loads in kilograms go up by (`[plates] kg_dumbbell_step`):
    /// dumbbell warm-ups round to it.
    public var kilogramDumbbellStep = Fixed(thousandths: 2500)
    /// The same for pounds (`[plates] lb_dumbbell_step`).
    public var poundDumbbellStep = Fixed(5)
    /// The warm-up ramp's steps (`[warmup] ramp`).
    public var warmupSteps: [WarmupStep] = WarmupRamp.defaultSteps
    /// Whether planned sets show the plates that make them (`show_plates`).
    public var showPlates: Bool = false
    /// The rest the REPL counts down to between sets (`rest_seconds`), if any.
    public var restSeconds: Int?
    /// Whether a write starts a sync by itself once logged in (`sync.auto`).
    public var autoSync = true
    /// How often other devices' changes are pulled, and the longest a failed sync waits
    /// before it is tried again, in seconds (`sync.interval`).
    public var syncIntervalSeconds = 300
    /// What one working set counts for a secondary muscle in `stats --by muscle`
    /// (`stats.secondary_weight`); a primary muscle's counts 1. Half, the common convention.
    public var secondaryMuscleWeight = Fixed(thousandths: 500)
    /// The weekly sets per muscle `stats --by muscle` marks below (`stats.muscle_sets_low`)
    /// and above (`stats.muscle_sets_high`): 10 to 20, the usual range for growth.
    public var muscleSetsLow = 10
    public var muscleSetsHigh = 20

    public init(defaultUnit: WeightUnit = .kg, e1rmFormula: E1RMFormula = .epley, idleGapMinutes: Int = 120,
                server: String? = nil, token: String? = nil) {
        self.defaultUnit = defaultUnit; self.e1rmFormula = e1rmFormula; self.idleGapMinutes = idleGapMinutes
        self.server = server; self.token = token
    }

    /// The step planned loads in `unit` round to, nil to round to what the plates make.
    public func roundTo(_ unit: WeightUnit) -> Fixed? {
        switch unit {
        case .kg: kilogramRoundTo
        case .lb: poundRoundTo
        }
    }

    /// The step between dumbbells in `unit`.
    public func dumbbellStep(_ unit: WeightUnit) -> Fixed {
        switch unit {
        case .kg: kilogramDumbbellStep
        case .lb: poundDumbbellStep
        }
    }

    /// The bar and plates for loads in `unit`.
    public func plates(_ unit: WeightUnit) -> PlateInventory {
        switch unit {
        case .kg: kilogramPlates
        case .lb: poundPlates
        }
    }

    /// The bar and plates for loads in `unit` of an exercise done with `equipment`: the EZ or
    /// trap bar's own weight with the plates, else the barbell's (nil equipment: a barbell).
    public func plates(_ unit: WeightUnit, for equipment: Equipment?) -> PlateInventory {
        var inventory = plates(unit)
        switch equipment {
        case .ezBar?: inventory.bar = ezBar[unit]
        case .trapBar?: inventory.bar = trapBar[unit]
        default: break
        }
        return inventory
    }
}
