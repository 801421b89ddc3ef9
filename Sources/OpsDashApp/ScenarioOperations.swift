import Foundation
import OpsKit
import OpsScenarios

/// A scenario's operations, made batch by batch in file order, so that the first ones can run
/// while the rest of a large scenario is still being made (a million take seconds).
///
/// Each operation of a batch comes with its dependencies wired, after them: a dependency later
/// in the file is made and handed out first, in the batch of its first dependent (its own
/// dependencies before it), so the queue and the monitor always know an operation's
/// dependencies when it is added (its `added` event lists them all).
struct ScenarioOperations {
    private let scenario: ResolvedScenario
    private let clock: any SimulationClock
    private let root: SeededGenerator
    /// Where each id is in the file.
    private let position: [String: Int]
    /// The operations made so far, by position.
    private var made: [SimulatedWorkOperation?]
    /// How many of `made` are made.
    private(set) var madeCount = 0
    /// Which positions were handed out by `batch` already.
    private var handedOut: [Bool]

    init(_ scenario: ResolvedScenario, clock: any SimulationClock) {
        self.scenario = scenario
        self.clock = clock
        root = SeededGenerator(seed: scenario.seed)
        var position: [String: Int] = [:]
        position.reserveCapacity(scenario.operations.count)
        for (index, spec) in scenario.operations.enumerated() { position[spec.id] = index }
        self.position = position
        made = Array(repeating: nil, count: scenario.operations.count)
        handedOut = Array(repeating: false, count: scenario.operations.count)
    }

    /// How many operations the scenario has.
    var count: Int { made.count }

    /// The operations at `range` (positions in the file) not handed out yet, each after any of
    /// its dependencies not handed out yet (those from later in the file), dependencies wired,
    /// ready to add.
    mutating func batch(_ range: Range<Int>) -> [Operation] {
        var result: [Operation] = []
        result.reserveCapacity(range.count)
        for index in range { handOut(index, into: &result) }
        return result
    }

    /// Appends the operation at `index` to `result` after its dependencies not handed out yet,
    /// depth first without recursion (a chain pointing forward can be a million long; the
    /// loader refuses cycles).
    private mutating func handOut(_ index: Int, into result: inout [Operation]) {
        guard !handedOut[index] else { return }
        // Positions whose dependencies are being handed out, with the next dependency to look at.
        var stack: [(index: Int, next: Int)] = [(index, 0)]
        handedOut[index] = true
        while let top = stack.last {
            let dependencies = scenario.operations[top.index].dependencies
            if top.next < dependencies.count {
                stack[stack.count - 1].next += 1
                if let target = position[dependencies[top.next]], !handedOut[target] {
                    handedOut[target] = true
                    stack.append((target, 0))
                }
                continue
            }
            stack.removeLast()
            let op = operation(at: top.index)
            for dependency in dependencies {
                if let target = position[dependency] { op.addDependency(operation(at: target)) }
            }
            result.append(op)
        }
    }

    /// Every operation, dependencies wired.
    mutating func all() -> [Operation] {
        batch(0..<count)
    }

    private mutating func operation(at index: Int) -> SimulatedWorkOperation {
        if let op = made[index] { return op }
        let op = Self.make(scenario.operations[index], clock: clock, random: root.derived(UInt64(index)))
        made[index] = op
        madeCount += 1
        return op
    }

    private static func make(
        _ spec: ResolvedOperation, clock: any SimulationClock, random: SeededGenerator
    ) -> SimulatedWorkOperation {
        let op: SimulatedWorkOperation
        switch spec.kind {
        case .download:
            op = DownloadOperation(name: spec.name, plan: spec.plan ?? fallbackPlan, clock: clock, random: random)
        case .upload:
            op = UploadOperation(name: spec.name, plan: spec.plan ?? fallbackPlan, clock: clock, random: random)
        case .process, .other:  // a scenario never holds `.other` (the loader rejects it)
            op = ProcessOperation(
                name: spec.name, duration: spec.duration ?? .seconds(1),
                // A process step fails at its end (docs/SCENARIOS.md).
                failure: spec.processFailure.map { FailurePlan(atFraction: 1, message: $0) },
                clock: clock, random: random)
        }
        op.dependencyPolicy = spec.dependencyPolicy
        return op
    }

    private static let fallbackPlan = TransferPlan(totalBytes: 1, bandwidth: 1)
}
