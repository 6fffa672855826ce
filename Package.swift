// swift-tools-version:6.2
import PackageDescription

/// How the release `formstore` and its floor are linked, for a fast start in a
/// small file (docs/binary.md): symbols stripped; lld packing the relative
/// relocations (DT_RELR) so the position-independent binary keeps ASLR at a
/// fraction of the loader's work; and, through the linker scripts in
/// `Linking/static`, found before the system's libraries, Debian's static
/// SQLite and C++ runtime linked in, so the loader resolves neither's symbols;
/// no dynamic symbol table of its own (the static Swift runtime's link asks
/// for `-export-dynamic`; nothing looks the binary's names up, and the
/// runtime's `dladdr` at start walked all 5,000 of them).
///
/// The functions a command's start runs are placed together, in the order
/// `Linking/startup-order.txt` lists them (`Scripts/startup-order.sh` makes
/// it), so a start touches a few pages of code instead of pages all over the
/// file. `FORMSTORE_KEEP_SYMBOLS=1` keeps the symbols, for profiling.
let staticRelease: [LinkerSetting] = [
    .unsafeFlags((Context.environment["FORMSTORE_KEEP_SYMBOLS"] == "1" ? [] : ["-Xlinker", "-s"])
                 + ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-L", Context.packageDirectory + "/Linking/static", "-Xlinker", "--no-export-dynamic",
                    "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linking/startup-order.txt",
                    // The list names what one build had; a renamed function is merely placed elsewhere.
                    "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "FormStore",
    products: [
        .library(name: "FormCore", targets: ["FormCore"]),
        .library(name: "FormFoundation", targets: ["FormFoundation"]),
        .library(name: "FormStorage", targets: ["FormStorage"]),
        .library(name: "FormWeb", targets: ["FormWeb"]),
        .library(name: "FormStoragePostgres", targets: ["FormStoragePostgres"]),
        .executable(name: "formstore", targets: ["formstore"]),
        .executable(name: "formstore-bench", targets: ["formstore-bench"]),
        .executable(name: "formstore-floor", targets: ["formstore-floor"]),
    ],
    targets: [
        // No pkgConfig: Debian's sqlite3.pc adds only `-L/usr/lib/x86_64-linux-gnu`
        // (a default path anyway), which would come before `staticRelease`'s folder.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // libmicrohttpd and libpq are not linked: their functions forward to the
        // library opened with dlopen on first use (`serve`, a PostgreSQL URL), so
        // other commands do not load their dependency chains (docs/binary.md).
        // The headers come from libmicrohttpd-dev and libpq-dev.
        .target(name: "CSharedLibrary"),
        .target(name: "CMicroHTTPD", dependencies: ["CSharedLibrary"]),
        .target(name: "CLibPQ", dependencies: ["CSharedLibrary"]),
        // What FoundationEssentials lacks and every layer needs (locks, text
        // helpers, ISO 8601): no Foundation, no ICU (docs/binary.md).
        .target(name: "FormBasics"),
        .target(name: "FormCore", dependencies: ["FormBasics"]),
        // FieldValue ⇄ JSONSerialization's objects (NSNull, NSNumber): full
        // Foundation, which `formstore` does not link (docs/binary.md).
        .target(name: "FormFoundation", dependencies: ["FormCore"]),
        // HTML for a session, and submitted bodies applied to one; no HTTP server (docs/web.md).
        .target(name: "FormWeb", dependencies: ["FormCore", "FormBasics"]),
        .target(
            name: "FormStorage",
            dependencies: ["FormCore", "FormBasics", "CSQLite"],
            resources: []
        ),
        // FormStorage only for FormStore's own migrations (the same files and checksums).
        .target(name: "FormStoragePostgres", dependencies: ["FormCore", "FormBasics", "FormStorage", "CLibPQ"]),
        .target(name: "FormStoreCLI", dependencies: ["FormCore", "FormBasics", "FormStorage", "FormStoragePostgres", "FormWeb", "CMicroHTTPD"]),
        .executableTarget(name: "formstore", dependencies: ["FormStorage", "FormStoreCLI"], linkerSettings: staticRelease),
        // Benchmarks against the raw SQLite C API and the sqlite3 command (docs: README, Performance).
        .executableTarget(name: "formstore-bench",
                          dependencies: ["FormCore", "FormStorage", "FormStoreCLI", "CSQLite",
                                         "FormStoragePostgres", "CLibPQ"]),
        // The floor the bench measures `formstore show` against: SQLite and one row as JSON, nothing else.
        .executableTarget(name: "formstore-floor", dependencies: ["CSQLite"], linkerSettings: staticRelease),
        // Not a product: the crash and concurrent-writer tests run it as a child process.
        .executableTarget(name: "formstore-stress", dependencies: ["FormCore", "FormStorage"]),
        // Not a product: docs/service.md's example; a test builds and runs it.
        .executableTarget(name: "formstore-service-example", dependencies: ["FormCore", "FormStorage"]),
        // What every test target shares: temporary folders, the sqlite3 shell,
        // the built binary's runs, fixtures more than one target builds.
        .target(name: "FormStoreTestSupport", path: "Tests/FormStoreTestSupport"),
        .testTarget(name: "FormCoreTests", dependencies: ["FormCore", "FormFoundation", "FormStoreTestSupport"]),
        .testTarget(name: "FormFoundationTests", dependencies: ["FormFoundation", "FormCore", "FormStoreTestSupport"]),
        .testTarget(name: "FormStorageTests", dependencies: ["FormStorage", "FormCore", "FormStoreTestSupport"]),
        .testTarget(name: "FormStoreCLITests", dependencies: ["FormStoreCLI", "FormStorage", "FormCore", "FormStoreTestSupport"],
                    // Golden screens, read by path (FullScreenEditTests).
                    exclude: ["Golden"]),
        .testTarget(name: "FormWebTests", dependencies: ["FormWeb", "FormCore", "FormStorage", "FormStoreTestSupport"]),
        // One conformance suite, run against SQLite and PostgreSQL.
        .testTarget(name: "FormStoreConformanceTests",
                    dependencies: ["FormStoragePostgres", "FormStorage", "FormCore", "formstore-bench",
                                   "FormStoreTestSupport"]),
        .testTarget(name: "FormStoreBenchTests", dependencies: ["formstore-bench", "FormStoreTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Applied to every Swift target in one place.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        // An import is internal unless written `public import` (a public declaration shows the module's types).
        .enableUpcomingFeature("InternalImportsByDefault"),
        // Release only, for a fast start (docs/binary.md, "Start-up"): each function in a
        // section of its own, so the link can place a start's functions together; and
        // generic types' metadata reached through accessor functions, not by demangling
        // a mangled name at run time (which also searched every protocol conformance).
        .unsafeFlags(["-Xfrontend", "-function-sections",
                      "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                     .when(configuration: .release)),
    ]
}
