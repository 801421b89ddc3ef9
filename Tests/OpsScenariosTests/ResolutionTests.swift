import Foundation
import OpsKit
import OpsScenarios
import Testing

/// Defaults, range draws, repeat expansion and dependency order.
struct ResolutionTests {
    static let ranged = Fixture.scenario(
        #"""
        {"id": "img-{i}", "name": "image {i}", "kind": "download", "repeat": 5,
         "size": {"min": 1000, "max": 30000000}, "bandwidth": {"min": 100000, "max": 900000},
         "latency": {"min": 0, "max": 2}, "jitter": {"min": 0.1, "max": 0.4}},
        {"id": "proc-{i}", "kind": "process", "repeat": 5, "duration": {"min": 1, "max": 3},
         "after": ["img-{i}"]}
        """#)

    @Test func defaultsAndMapping() throws {
        let text = Fixture.scenario(
            #"""
            {"id": "a", "kind": "upload", "size": 5000, "bandwidth": 1000,
             "failure": {"at": 0.25, "message": "boom", "attempts": 2}, "retries": 3, "backoff": 0.5},
            {"id": "b", "kind": "download", "size": 10, "bandwidth": 1}
            """#)
        let scenario = try Fixture.decode(text)
        let a = scenario.operations[0]
        #expect(a.name == "a")
        #expect(a.kind == .upload)
        #expect(
            a.plan
                == TransferPlan(
                    totalBytes: 5000, bandwidth: 1000, latency: .zero, jitter: 0,
                    failure: FailurePlan(atFraction: 0.25, message: "boom", failingAttempts: 2),
                    maxRetries: 3, retryBackoff: .milliseconds(500)))
        #expect(a.duration == nil && a.processFailure == nil)
        let b = scenario.operations[1]
        #expect(b.plan?.failure == nil && b.plan?.maxRetries == 0 && b.plan?.retryBackoff == .seconds(1))
        #expect(scenario.concurrency == 2 && scenario.seed == 7 && scenario.name == "t")
    }

    @Test func sameSeedSameValuesDifferentSeedDifferent() throws {
        let first = try Fixture.decode(Self.ranged)
        let second = try Fixture.decode(Self.ranged)
        #expect(first == second)
        let other = try Fixture.decode(Self.ranged, seed: 8)
        #expect(other.seed == 8)
        #expect(first.operations.map(\.plan) != other.operations.map(\.plan))
        #expect(first.operations.map(\.duration) != other.operations.map(\.duration))
        let sizes = first.operations.compactMap { $0.plan?.totalBytes }
        #expect(Set(sizes).count == 5)
        #expect(sizes.allSatisfy { (1000...30_000_000).contains($0) })
        let latencies = first.operations.compactMap { $0.plan?.latency }
        #expect(latencies.allSatisfy { $0 >= .zero && $0 <= .seconds(2) })
    }

    @Test func seedOverrideMatchesFileWithThatSeed() throws {
        let overridden = try Fixture.decode(Self.ranged, seed: 99)
        let inFile = try Fixture.decode(Self.ranged.replacingOccurrences(of: "\"seed\": 7", with: "\"seed\": 99"))
        #expect(overridden == inFile)
        let loaded = try Fixture.withFile(Self.ranged, name: "ok.json") { path in
            try ScenarioLoader.load(path: path, seedOverride: 99)
        }
        #expect(loaded == overridden)
        #expect(try Scenarios.builtIn["mixed"]?.resolve(seedOverride: 3) != Scenarios.builtIn["mixed"]?.resolve())
    }

    @Test func drawsDependOnIdNotOrder() throws {
        let forward = try Fixture.decode(
            Fixture.scenario(
                #"""
                {"id": "x", "kind": "download", "size": {"min": 1, "max": 1000000}, "bandwidth": 5},
                {"id": "y", "kind": "download", "size": {"min": 1, "max": 1000000}, "bandwidth": 5}
                """#))
        let backward = try Fixture.decode(
            Fixture.scenario(
                #"""
                {"id": "y", "kind": "download", "size": {"min": 1, "max": 1000000}, "bandwidth": 5},
                {"id": "x", "kind": "download", "size": {"min": 1, "max": 1000000}, "bandwidth": 5}
                """#))
        #expect(forward.operations.map(\.id) == ["x", "y"])
        #expect(forward.operations[0] == backward.operations[1])
        #expect(forward.operations[1] == backward.operations[0])
    }

    @Test func repeatExpandsInPlaceWithSubstitution() throws {
        let scenario = try Fixture.decode(Self.ranged)
        #expect(scenario.operations.map(\.id) == (1...5).map { "img-\($0)" } + (1...5).map { "proc-\($0)" })
        #expect(scenario.operations[2].name == "image 3")
        #expect(scenario.operations[7].name == "proc-3")
        #expect(scenario.operations[7].kind == .process)
        #expect(scenario.operations[7].dependencies == ["img-3"])
        #expect(scenario.operations[7].plan == nil)
        let duration = try #require(scenario.operations[7].duration)
        #expect(duration >= .seconds(1) && duration <= .seconds(3))
    }

    @Test func dependencyOrderIsDeclaredOrder() throws {
        let scenario = try Fixture.decode(
            Fixture.scenario(
                #"""
                {"id": "c", "kind": "process", "duration": 1},
                {"id": "a", "kind": "process", "duration": 1},
                {"id": "b", "kind": "process", "duration": 1},
                {"id": "z", "kind": "process", "duration": 1, "after": ["b", "c", "a"]}
                """#))
        #expect(scenario.operations.map(\.id) == ["c", "a", "b", "z"])
        #expect(scenario.operations[3].dependencies == ["b", "c", "a"])
    }

    @Test func failureChanceIsSeededAndPartial() throws {
        let text = Fixture.scenario(
            #"""
            {"id": "t-{i}", "kind": "download", "repeat": 200, "size": 10, "bandwidth": 10,
             "failureChance": 0.25, "failure": {"at": {"min": 0.2, "max": 0.8}, "message": "lost"}},
            {"id": "p-{i}", "kind": "process", "repeat": 200, "duration": 1, "failureChance": 0.5}
            """#)
        let scenario = try Fixture.decode(text)
        let failing = scenario.operations.compactMap { $0.plan?.failure }
        #expect((20...80).contains(failing.count))
        #expect(
            failing.allSatisfy {
                $0.message == "lost" && (0.2...0.8).contains($0.atFraction) && $0.failingAttempts == nil
            })
        let processFailures = scenario.operations.compactMap(\.processFailure)
        #expect((60...140).contains(processFailures.count))
        #expect(processFailures.allSatisfy { $0 == "simulated processing error" })
        #expect(try Fixture.decode(text) == scenario)
    }

    @Test func processFailureUsesMessage() throws {
        let scenario = try Fixture.decode(
            Fixture.scenario(
                #"{"id": "p", "kind": "process", "duration": 2.5, "failure": {"message": "filter crashed"}}"#))
        #expect(scenario.operations[0].processFailure == "filter crashed")
        #expect(scenario.operations[0].duration == .milliseconds(2500))
    }

    @Test func largeRepeatIsFast() throws {
        let scenario = try Fixture.decode(
            Fixture.scenario(
                #"{"id": "n-{i}", "kind": "download", "repeat": 50000, "size": {"min": 1, "max": 9}, "bandwidth": 1}"#))
        #expect(scenario.operations.count == 50000)
        #expect(scenario.operations.last?.id == "n-50000")
    }
}
