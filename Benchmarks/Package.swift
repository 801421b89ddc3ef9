// swift-tools-version: 6.1
// OpsDash benchmarks: a nested package so that users of the library never build them.
// Run everything with `Benchmarks/run.sh`; CI smoke run: `Benchmarks/run.sh --smoke`.
import Foundation
import PackageDescription

var package = Package(
    name: "OpsDashBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise identified by its folder name, which differs
        // between clones and worktrees.
        .package(name: "OpsDash", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // mallinfo2() (not exported by Swift's Glibc module).
        .target(name: "CMallocStats", path: "Support/CMallocStats"),
        // The workloads, shared by the package-benchmark targets and the side-by-side `Ratios` run.
        .target(
            name: "BenchWorkloads",
            dependencies: [
                .product(name: "OpsKit", package: "OpsDash"),
                .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
                .product(name: "OpsKitMetrics", package: "OpsDash"),
                .product(name: "OpsMetricsServer", package: "OpsDash"),
                .product(name: "OpsDashUI", package: "OpsDash"),
                "CMallocStats",
            ],
            path: "Support/BenchWorkloads"
        ),
        .executableTarget(
            name: "OpsDashBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "OpsKit", package: "OpsDash"),
                .product(name: "OpsMonitor", package: "OpsDash"),
                "BenchWorkloads",
            ],
            path: "Benchmarks/OpsDashBenchmarks",
            // Swift 6 mode makes package-benchmark's sync/throwing initialisers ambiguous.
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "Ratios",
            dependencies: [
                .product(name: "OpsKit", package: "OpsDash"),
                .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsWire", package: "OpsDash"),
                "BenchWorkloads",
            ],
            // Not directly under Benchmarks/: the benchmark plugin runs every executable target whose
            // folder sits in a folder named "Benchmarks" (this package's own folder included).
            path: "Tools/Ratios"
        ),
        .executableTarget(
            name: "RemoteBench",
            dependencies: [
                .product(name: "OpsKit", package: "OpsDash"),
                .product(name: "OpsMonitor", package: "OpsDash"),
                .product(name: "OpsKitPublisher", package: "OpsDash"),
                .product(name: "OpsKitViewer", package: "OpsDash"),
                "BenchWorkloads",
            ],
            path: "Tools/RemoteBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// OPSDASH_BENCH_TOOLS_ONLY=1 (.ci/run): only the tools CI runs (Ratios, RemoteBench, opsdash), without
// package-benchmark, whose plugin tools (ArgumentParser, SystemPackage, the boilerplate generator) are
// otherwise built in release even for one product.
if ProcessInfo.processInfo.environment["OPSDASH_BENCH_TOOLS_ONLY"] == "1" {
    package.dependencies.removeAll { $0.kind.isBenchmarkPackage }
    package.targets.removeAll { $0.name == "OpsDashBenchmarks" }
}

extension PackageDescription.Package.Dependency.Kind {
    /// ordo-one's package-benchmark.
    fileprivate var isBenchmarkPackage: Bool {
        if case .sourceControl(_, let location, _) = self { return location.contains("package-benchmark") }
        return false
    }
}
