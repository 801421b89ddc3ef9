// swift-tools-version: 6.0
import PackageDescription

var package = Package(
    name: "OpsDash",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpsKit", targets: ["OpsKit"]),
        .library(name: "OpsKitTesting", targets: ["OpsKitTesting"]),
        .library(name: "OpsMonitor", targets: ["OpsMonitor"]),
        .library(name: "OpsWire", targets: ["OpsWire"]),
        .library(name: "OpsScenarios", targets: ["OpsScenarios"]),
        .library(name: "OpsDashUI", targets: ["OpsDashUI"]),
        .library(name: "OpsKitPublisher", targets: ["OpsKitPublisher"]),
        .library(name: "OpsKitViewer", targets: ["OpsKitViewer"]),
        .library(name: "OpsKitRemote", targets: ["OpsKitRemote"]),
        .library(name: "OpsKitMetrics", targets: ["OpsKitMetrics"]),
        .library(name: "OpsMetricsServer", targets: ["OpsMetricsServer"]),
        .library(name: "OpsKitTracing", targets: ["OpsKitTracing"]),
        .executable(name: "opsdash", targets: ["opsdash"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(name: "OpsKit", dependencies: ["CReaderSlots"]),
        // Per-thread reader slots and the membarrier fence behind KVO deliveries on Linux.
        .target(name: "CReaderSlots"),
        .target(name: "OpsKitTesting", dependencies: ["OpsKit"]),
        .target(
            name: "OpsMonitor",
            dependencies: ["OpsKit", .product(name: "DequeModule", package: "swift-collections")]
        ),
        // The opsdash/1 stream: events and their JSON Lines codec, keyframes, recordings, the
        // protocol's constants and the shared-memory ring's layout. No sockets, no threads.
        .target(
            name: "OpsWire",
            dependencies: ["OpsKit", "OpsMonitor", .product(name: "Atomics", package: "swift-atomics")]
        ),
        .target(name: "OpsScenarios", dependencies: ["OpsKit"]),
        .target(
            name: "OpsKitMetrics",
            dependencies: ["OpsKit", "OpsMonitor", .product(name: "CoreMetrics", package: "swift-metrics")]
        ),
        // Opt-in distributed tracing: one span per operation of an `ObservableOperationQueue`.
        .target(
            name: "OpsKitTracing",
            dependencies: ["OpsKit", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        // The Prometheus backend and the /metrics HTTP endpoint, for apps (opsdash, AppExample).
        .target(
            name: "OpsMetricsServer",
            dependencies: [
                "OpsKit",
                "OpsKitMetrics",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "OpsDashUI", dependencies: ["OpsKit", "OpsMonitor"]),
        // What publisher and viewer both use: the runtime directory, Unix sockets, sidecar files,
        // token files, `RemoteError`. Both re-export it.
        .target(name: "OpsRemoteSupport", dependencies: ["OpsMonitor", "OpsWire"]),
        // What an app links to publish its queue (SwiftNIO): `QueuePublisher`.
        .target(
            name: "OpsKitPublisher",
            dependencies: [
                "OpsRemoteSupport", "OpsKit", "OpsMonitor", "OpsWire", "CSharedMemory",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What `opsdash attach` and tools use to watch a published queue: `RemoteViewer`, the fleet.
        .target(
            name: "OpsKitViewer",
            dependencies: [
                "OpsRemoteSupport", "OpsKit", "OpsMonitor", "OpsWire",
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The compatibility umbrella: re-exports OpsKitPublisher and OpsKitViewer.
        .target(name: "OpsKitRemote", dependencies: ["OpsKitPublisher", "OpsKitViewer"]),
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "CTerminalRestore"),
        .target(name: "CSharedMemory"),
        .target(name: "OpsDashTerminal", dependencies: ["CNcurses", "CTerminalRestore", "OpsDashUI"]),
        // The frame loop: input, signals and ticks in, frames out, over any `TerminalScreen`.
        .target(name: "OpsDashLoop", dependencies: ["OpsKit", "OpsDashUI", "OpsMonitor"]),
        .target(
            name: "OpsDashApp",
            dependencies: [
                "OpsKit", "OpsMonitor", "OpsWire", "OpsScenarios", "OpsDashUI", "OpsDashTerminal", "OpsDashLoop",
                "OpsKitViewer", "OpsMetricsServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "opsdash", dependencies: ["OpsDashApp"]),
        // The dashboard loop in situ (docs/BENCHMARKS.md): an executable nothing depends on, in the
        // main package because the loop is `package` API.
        .executableTarget(
            name: "DashboardLoopBench", dependencies: ["OpsKit", "OpsMonitor", "OpsDashUI", "OpsDashLoop"],
            path: "Benchmarks/InSitu/DashboardLoop"),
        // A replay's frames in situ (docs/BENCHMARKS.md): `ReplaySource` is package API of OpsDashApp.
        .executableTarget(
            name: "ReplayFrameBench",
            dependencies: ["OpsKit", "OpsMonitor", "OpsWire", "OpsDashUI", "OpsDashApp"],
            path: "Benchmarks/InSitu/ReplayFrames"),
        // Opening and seeking a large recording in situ (docs/BENCHMARKS.md): `ReplaySource` and
        // `RecordingReader`'s openings are package API.
        .executableTarget(
            name: "ReplayOpenBench", dependencies: ["OpsMonitor", "OpsWire", "OpsDashApp"],
            path: "Benchmarks/InSitu/ReplayOpen"),
        // What monitoring costs per operation, in instructions (Benchmarks/monitor-instructions.sh).
        .executableTarget(
            name: "MonitorCostBench", dependencies: ["OpsKit", "OpsMonitor"], path: "Benchmarks/InSitu/MonitorCost"),
        // The memory of watching many queued operations, with and without a monitor (docs/BENCHMARKS.md).
        .executableTarget(
            name: "QueueMemoryBench", dependencies: ["OpsKit", "OpsMonitor"], path: "Benchmarks/InSitu/QueueMemory"),
        // The demos' shared command-line bits: a usage error, its one line and exit 2, `say`.
        .target(name: "DemoSupport", path: "Demos/Support"),
        .executableTarget(
            name: "AppExample",
            dependencies: [
                "DemoSupport", "OpsKit", "OpsMonitor", "OpsKitPublisher", "OpsKitMetrics", "OpsMetricsServer",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Demos/AppExample"
        ),
        // README "Embedding OpsKit in your app": an OperationQueue app with OpsDash added.
        .executableTarget(
            name: "EmbeddingExample",
            dependencies: [
                "OpsKit", "OpsMonitor", "OpsKitPublisher",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Demos/Embedding"
        ),
        // README "Real transfers": downloads and uploads through URLSession against a local
        // HTTP server (SwiftNIO), each an operation whose Foundation `Progress` the dashboard reads.
        .executableTarget(
            name: "NetworkExample",
            dependencies: [
                "DemoSupport", "OpsKit", "OpsMonitor", "OpsKitPublisher",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Demos/Network"
        ),
        // docs/EMBEDDING.md "Task groups": a Swift task group's children as rows, with a width.
        .executableTarget(
            name: "TaskGroupExample",
            dependencies: [
                "OpsKit", "OpsMonitor", "OpsKitPublisher",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Demos/TaskGroup"
        ),
        .testTarget(name: "OpsKitTests", dependencies: ["OpsKit", "OpsKitTesting"]),
        .testTarget(name: "OpsMonitorTests", dependencies: ["OpsMonitor", "OpsWire", "OpsKit", "OpsKitTesting"]),
        .testTarget(name: "OpsWireTests", dependencies: ["OpsWire", "OpsMonitor", "OpsKit", "OpsKitTesting"]),
        .testTarget(
            name: "OpsKitMetricsTests",
            dependencies: [
                "OpsKitMetrics", "OpsMetricsServer", "OpsMonitor", "OpsKit", "OpsKitTesting",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OpsKitTracingTests",
            dependencies: [
                "OpsKitTracing", "OpsKit", "OpsKitTesting",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(name: "OpsScenariosTests", dependencies: ["OpsScenarios", "OpsKit"]),
        .testTarget(name: "OpsDashUITests", dependencies: ["OpsDashUI", "OpsMonitor"], exclude: ["Snapshots"]),
        .testTarget(name: "OpsDashTerminalTests", dependencies: ["OpsDashTerminal", "OpsDashLoop", "OpsDashUI"]),
        .testTarget(
            name: "OpsDashLoopTests", dependencies: ["OpsDashLoop", "OpsDashUI", "OpsMonitor", "OpsKitTesting"]),
        .testTarget(
            name: "OpsDashAppTests",
            dependencies: [
                "OpsDashApp", "AppExample", "OpsKitTesting", "OpsKit", "OpsMonitor", "OpsWire", "OpsDashUI",
                "OpsKitPublisher", "OpsKitViewer",
            ]),
        // Test doubles both remote test targets use: a raw line client, a published queue.
        .target(
            name: "RemoteTestSupport",
            dependencies: [
                "OpsKitPublisher", "OpsKitViewer", "OpsMonitor", "OpsKit", "OpsKitTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/RemoteTestSupport"
        ),
        // The publisher's tests; those that need a viewer on the other end use the real one.
        .testTarget(
            name: "OpsKitPublisherTests",
            dependencies: [
                "OpsKitPublisher", "OpsKitViewer", "RemoteTestSupport", "OpsMonitor", "OpsWire", "OpsKit",
                "OpsKitTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The viewer's tests; those that need a publisher on the other end use the real one. (And
        // that the OpsKitRemote umbrella still names both sides.)
        .testTarget(
            name: "OpsKitViewerTests",
            dependencies: [
                "OpsKitViewer", "OpsKitPublisher", "OpsKitRemote", "RemoteTestSupport", "OpsMonitor", "OpsWire",
                "OpsKit", "OpsKitTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "opsdash", "AppExample", "EmbeddingExample", "NetworkExample", "TaskGroupExample", "OpsKitTesting",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The ThreadSanitizer run in .ci/run sets OPSDASH_TSAN_TESTS to the test targets its filter selects;
// the package then holds only those and what they depend on, so that run does not build the app,
// the demos and every other test target under TSan. (Unset, as everywhere else, nothing changes.)
if let only = Context.environment["OPSDASH_TSAN_TESTS"] {
    func localDependencies(of target: Target) -> [String] {
        target.dependencies.compactMap { dependency in
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): return name
            default: return nil
            }
        }
    }
    var kept = Set(only.split(separator: ",").map(String.init))
    var pending = Array(kept)
    while let name = pending.popLast() {
        let target = package.targets.first { $0.name == name }
        for dependency in target.map(localDependencies) ?? [] where kept.insert(dependency).inserted {
            pending.append(dependency)
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in
        guard let library = product as? Product.Library else { return true }
        return !library.targets.allSatisfy(kept.contains)
    }
}
