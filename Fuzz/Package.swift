// swift-tools-version: 6.1
// OpsDash fuzz targets: a nested package so that users of the library never build them.
// One libFuzzer target per parser of untrusted input; build and run them all with `Fuzz/run.sh`.
// The targets need the sanitizer flags and libFuzzer's driver that run.sh passes (see run.sh).
import PackageDescription

let package = Package(
    name: "OpsDashFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise identified by its folder name, which differs
        // between clones and worktrees.
        .package(name: "OpsDash", path: ".."),
        // ByteBuffer, in what PublisherCore hands out (resolved to the project's own version).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // LLVMFuzzerRunDriver's declaration; run.sh links libclang_rt.fuzzer_no_main, which provides
        // it and needs the C++ runtime.
        .target(name: "CFuzzDriver", path: "Support/CFuzzDriver", linkerSettings: [.linkedLibrary("stdc++")]),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver", .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
            ],
            path: "Support/FuzzSupport"
        ),
        .executableTarget(
            name: "FuzzScenario",
            dependencies: ["FuzzSupport", .product(name: "OpsScenarios", package: "OpsDash")],
            path: "Targets/FuzzScenario"
        ),
        .executableTarget(
            name: "FuzzRecording",
            dependencies: [
                "FuzzSupport", .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
            ],
            path: "Targets/FuzzRecording"
        ),
        .executableTarget(
            name: "FuzzEventLine",
            dependencies: [
                "FuzzSupport", .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
            ],
            path: "Targets/FuzzEventLine"
        ),
        .executableTarget(
            name: "FuzzViewer",
            dependencies: [
                "FuzzSupport",
                .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
                .product(name: "OpsKitViewer", package: "OpsDash"),
            ],
            path: "Targets/FuzzViewer"
        ),
        .executableTarget(
            name: "FuzzPublisher",
            dependencies: [
                "FuzzSupport",
                .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
                .product(name: "OpsKitPublisher", package: "OpsDash"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Targets/FuzzPublisher"
        ),
        .executableTarget(
            name: "FuzzRelayList",
            dependencies: ["FuzzSupport", .product(name: "OpsKitViewer", package: "OpsDash")],
            path: "Targets/FuzzRelayList"
        ),
        .executableTarget(
            name: "FuzzUntil",
            dependencies: ["FuzzSupport", .product(name: "OpsMonitor", package: "OpsDash")],
            path: "Targets/FuzzUntil"
        ),
    ],
    swiftLanguageModes: [.v6]
)
