// swift-tools-version: 6.0
import PackageDescription

// Dependency direction (see DESIGN.md): Core <- Wire <- Store (the outbox stores Wire's fields JSON); Store + Wire <- SyncClient <- CLI;
// Core <- TOML <- CLI, Server; Core + Wire <- ServerCore <- ServerSQLite, ServerPostgres; all three <- Server. GymLogCore imports
// nothing but Foundation; the client never links Hummingbird or PostgresNIO (its HTTP is
// AsyncHTTPClient, so not curl); the server links neither the client's sync engine nor the store.
// ServerCore (the sync rules, the storage protocol, the memory store) links no database driver
// and no HTTP; each SQL store links only its own driver; GymLogServer is the HTTP layer and the commands.
// The third-party products, named once so each target's list reads as a list of names.
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
// GRDB's SQLite module: the server's store calls SQLite's C API where GRDB would cost more per
// field (binding and reading columns) or has no call (WAL checkpoints).
let grdbSQLite: Target.Dependency = .product(name: "GRDBSQLite", package: "GRDB.swift")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore: Target.Dependency = .product(name: "HummingbirdCore", package: "hummingbird")
// swift-nio and swift-nio-extras come with Hummingbird; named for the server's connection
// guard (timeouts, parser errors), a channel handler in Hummingbird's pipeline.
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioHTTP1: Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioHTTPTypes: Target.Dependency = .product(name: "NIOHTTPTypes", package: "swift-nio-extras")
// The HTTP request and response types Hummingbird is written in (its methods, statuses and header names).
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let postgresNIO: Target.Dependency = .product(name: "PostgresNIO", package: "postgres-nio")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let nioConcurrency: Target.Dependency = .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
let nioSSL: Target.Dependency = .product(name: "NIOSSL", package: "swift-nio-ssl")
let hummingbirdTLS: Target.Dependency = .product(name: "HummingbirdTLS", package: "hummingbird")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")
let tomlKit: Target.Dependency = .product(name: "TOMLKit", package: "TOMLKit")

let package = Package(
    name: "gymlog",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "gymlog", targets: ["gymlog"]),
        .executable(name: "gymlog-server", targets: ["gymlog-server"]),
        .executable(name: "gymlog-bench", targets: ["gymlog-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(name: "GymLogCore"),
        // The seeded generator the benchmark's histories and the randomized tests share; no
        // product target depends on it.
        .target(name: "SplitMix"),
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(
            name: "GymLogStore",
            dependencies: ["GymLogCore", "GymLogWire", "CSQLite", grdb]
        ),
        .target(name: "GymLogWire", dependencies: ["GymLogCore", crypto]),
        // The settings files (the client's config and credentials, the server's `--config`),
        // read by TOMLKit for both sides, so GymLogCore stays Foundation only.
        .target(name: "GymLogTOML", dependencies: ["GymLogCore", tomlKit]),
        .target(
            name: "GymLogSyncClient",
            dependencies: ["GymLogCore", "GymLogStore", "GymLogWire", asyncHTTPClient, nioCore, nioConcurrency, nioSSL]
        ),
        .target(
            name: "GymLogCLI",
            dependencies: ["GymLogCore", "GymLogStore", "GymLogWire", "GymLogSyncClient", "GymLogTOML", "CReadline", argumentParser]
        ),
        // The sync rules, the storage protocol over the stores' primitives, the memory store.
        .target(name: "GymLogServerCore", dependencies: ["GymLogCore", "GymLogWire", crypto, logging, serviceLifecycle]),
        .target(name: "GymLogServerSQLite", dependencies: ["GymLogServerCore", "GymLogCore", "GymLogWire", grdb, grdbSQLite, logging]),
        .target(
            name: "GymLogServerPostgres",
            dependencies: ["GymLogServerCore", "GymLogCore", "GymLogWire", postgresNIO, nioConcurrency, logging, serviceLifecycle]
        ),
        // The HTTP layer, the settings and the commands.
        .target(
            name: "GymLogServer",
            dependencies: [
                "GymLogCore", "GymLogWire", "GymLogTOML", "GymLogServerCore", "GymLogServerSQLite", "GymLogServerPostgres",
                argumentParser, hummingbird, hummingbirdCore, hummingbirdTLS, httpTypes, nioCore, nioConcurrency, nioHTTP1, nioHTTPTypes, nioSSL, serviceLifecycle,
                logging, prometheus,
            ]
        ),
        .executableTarget(
            name: "gymlog",
            dependencies: ["GymLogCLI"],
            // A one-shot command starts like a C tool (issue 31, BENCHMARKS.md): linked at a fixed
            // address (no PIE) the loader has no 130,000 relocations to apply, nor their pages to
            // copy, and without exporting its own 38,000 symbols the runtime's start-up `dladdr`
            // has none to scan. The price: the executable's own code is not at a random address.
            // lld, not gold: gold's non-PIE link of a build with the shared Swift runtime (debug,
            // or release without --static-swift-stdlib) makes the loader warn on every run that
            // the runtime's protected functions are referenced directly.
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "gymlog-server",
            dependencies: ["GymLogServer", argumentParser]
        ),
        .executableTarget(
            name: "gymlog-bench",
            dependencies: [
                // GymLogServerCore for the records' stored text (`RecordText`) of the raw-insert baseline.
                "GymLogCore", "GymLogStore", "GymLogWire", "GymLogSyncClient", "GymLogServerCore", "CSQLite", "SplitMix", grdb, argumentParser,
            ],
            path: "Benchmarks/gymlog-bench"
        ),
        // The tests' shared harness (one process runner, server instance, fake clock, client
        // database reader and write-pipeline invariant); a library, so test targets share it.
        .target(
            name: "GymLogTestSupport",
            dependencies: [
                "GymLogCore", "GymLogWire", "GymLogServer", "GymLogServerCore", "GymLogServerSQLite", "GymLogServerPostgres", "SplitMix", grdb,
                hummingbird, hummingbirdTesting,
            ],
            path: "Tests/GymLogTestSupport"
        ),
        .testTarget(name: "GymLogCoreTests", dependencies: ["GymLogCore", "SplitMix"]),
        .testTarget(name: "GymLogStoreTests", dependencies: ["GymLogCore", "GymLogStore", "GymLogWire", "GymLogTestSupport", "SplitMix", "CSQLite"]),
        // The CLI alone, in-process and through the real binary (crashes while logging included).
        .testTarget(
            name: "GymLogCLITests",
            dependencies: ["GymLogCLI", "GymLogCore", "GymLogStore", "GymLogWire", "GymLogSyncClient", "GymLogTOML", "GymLogTestSupport", "SplitMix", grdb]
        ),
        // The server alone: protocol, storage, endpoints, hostile input, the OpenAPI document.
        .testTarget(
            name: "GymLogServerTests",
            dependencies: [
                "GymLogServer", "GymLogServerCore", "GymLogServerSQLite", "GymLogServerPostgres", "GymLogWire", "GymLogCore", "GymLogTestSupport",
                "SplitMix", grdb, hummingbird, hummingbirdTesting, httpTypes, postgresNIO,
            ]
        ),
        // Client and server together: real binaries and in-process engines against the real
        // server (sync, simulation, restores, clock skew, several instances, crashes while syncing).
        .testTarget(
            name: "GymLogIntegrationTests",
            dependencies: [
                "GymLogServer", "GymLogServerCore", "GymLogServerSQLite", "GymLogServerPostgres", "GymLogWire", "GymLogSyncClient", "GymLogCore",
                "GymLogStore", "GymLogTestSupport", "SplitMix", grdb, hummingbird, hummingbirdTesting, nioConcurrency,
            ]
        ),
    ]
)
