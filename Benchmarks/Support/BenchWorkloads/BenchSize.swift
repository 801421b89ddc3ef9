// The workloads behind every OpsDash benchmark, shared by the package-benchmark target
// (absolute numbers, malloc counters) and the `Ratios` executable (side-by-side ratios), one
// file per benchmark family.

import Foundation
import OpsKit
import OpsMonitor

/// How big the runs are: `smoke` for CI (tiny, fast), `full` adds the slow plain-queue sizes.
public enum BenchSize: Sendable {
    case smoke, standard, full

    /// From the environment: OPSDASH_BENCH_SMOKE=1 → smoke, OPSDASH_BENCH_FULL=1 → full.
    public static var fromEnvironment: BenchSize {
        let env = ProcessInfo.processInfo.environment
        if env["OPSDASH_BENCH_SMOKE"] == "1" { return .smoke }
        if env["OPSDASH_BENCH_FULL"] == "1" { return .full }
        return .standard
    }

    public var isSmoke: Bool { self == .smoke }
    /// Operations in the monitoring-overhead workload (item 2).
    public var queueOperations: Int { isSmoke ? 5_000 : 100_000 }
    /// Tracked-operation counts of the frame benchmark (item 3).
    public var frameSizes: [Int] { isSmoke ? [100, 10_000] : [100, 10_000, 100_000] }
    /// Operations whose monitor footprint is measured (item 4).
    public var memoryOperations: Int { isSmoke ? 10_000 : 100_000 }
    /// Operations pushed through a bounded store (item 4).
    public var boundedRunOperations: Int { isSmoke ? 50_000 : 1_000_000 }
    /// Chain lengths on a plain OperationQueue (item 5); measured once each, they are slow.
    public var plainChains: [Int] {
        switch self {
        case .smoke: [500]
        case .standard: [2_000, 5_000, 10_000]
        case .full: [2_000, 5_000, 10_000, 20_000]
        }
    }
    /// Chain lengths on an ObservableOperationQueue (item 5).
    public var observableChains: [Int] { isSmoke ? [500, 2_000] : [2_000, 10_000, 20_000] }
    /// Width of the fan-in (item 5).
    public var fanIn: Int { isSmoke ? 5_000 : 100_000 }
    /// Events per JSON Lines batch (item 7).
    public var jsonEvents: Int { isSmoke ? 20_000 : 200_000 }
    /// Operations in the keyframe encoded by item 7c.
    public var keyframeOperations: Int { isSmoke ? 10_000 : 100_000 }
}
