import Foundation
import OpsScenarios
import Testing

/// The built-in scenarios: identical to the Demos files, valid, and sized to run 15–75 s.
struct BuiltInTests {
    static let names = ["burst", "downloads", "flaky", "mixed", "pipeline", "uploads"]

    static func demoPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Demos/Scenarios/\(name).json").path
    }

    @Test func registry() throws {
        #expect(Scenarios.builtIn.keys.sorted() == Self.names)
        #expect(Scenarios.sorted.map(\.name) == Self.names)
        #expect(Scenarios.builtIn[Scenarios.defaultName] != nil)
        for scenario in Scenarios.sorted {
            #expect(!scenario.summary.isEmpty && !scenario.summary.contains("\n"))
            #expect(try scenario.resolve().name == scenario.name)
        }
    }

    @Test(arguments: names)
    func fileOnDiskIsTheBuiltIn(name: String) throws {
        let builtIn = try #require(Scenarios.builtIn[name])
        let onDisk = try String(contentsOfFile: Self.demoPath(name), encoding: .utf8)
        #expect(onDisk == builtIn.json, "Demos/Scenarios/\(name).json differs from BuiltInJSON+\(name).swift")
        let fromFile = try ScenarioLoader.load(path: Self.demoPath(name))
        #expect(fromFile == (try builtIn.resolve()))
        #expect(try ScenarioLoader.load(nameOrPath: name) == fromFile)
    }

    @Test(arguments: names.filter { $0 != "burst" })
    func finishesIn15To75Seconds(name: String) throws {
        let scenario = try #require(try Scenarios.builtIn[name]?.resolve())
        let maxJitter = scenario.operations.compactMap { $0.plan?.jitter }.max() ?? 0
        let nominal = MakespanEstimate.makespan(scenario)
        let low = MakespanEstimate.makespan(scenario, scale: 1 - maxJitter)
        let high = MakespanEstimate.makespan(scenario, scale: 1 + maxJitter)
        #expect(low >= 15, "\(name): \(low) s at -jitter")
        #expect(high <= 75, "\(name): \(high) s at +jitter")
        #expect((20...60).contains(nominal), "\(name): \(nominal) s nominal")
    }

    @Test func burstIsTenThousandAndFast() throws {
        let scenario = try #require(try Scenarios.builtIn["burst"]?.resolve())
        #expect(scenario.operations.count == 10_000)
        #expect((16...64).contains(scenario.concurrency))
        #expect(MakespanEstimate.makespan(scenario) < 45)
    }

    @Test(arguments: names)
    func looksAliveWithinASecond(name: String) throws {
        let scenario = try #require(try Scenarios.builtIn[name]?.resolve())
        let first = scenario.operations.filter(\.dependencies.isEmpty).prefix(scenario.concurrency)
        #expect(
            first.contains { op in
                guard let plan = op.plan else { return false }
                return plan.latency < .seconds(1)
            })
    }

    @Test func scenariosHaveTheirCharacter() throws {
        func load(_ name: String) throws -> ResolvedScenario { try #require(try Scenarios.builtIn[name]?.resolve()) }
        let downloads = try load("downloads")
        #expect((35...45).contains(downloads.operations.count))
        let sizes = downloads.operations.compactMap { $0.plan?.totalBytes }
        #expect(sizes.min() ?? 0 < 100_000 && sizes.max() ?? 0 > 10_000_000)

        let uploads = try load("uploads")
        #expect((20...30).contains(uploads.operations.count) && uploads.operations.allSatisfy { $0.kind == .upload })
        let recovering = uploads.operations.compactMap(\.plan).filter {
            guard let attempts = $0.failure?.failingAttempts else { return false }
            return attempts <= $0.maxRetries
        }
        #expect(recovering.count >= 3)

        let pipeline = try load("pipeline")
        #expect(pipeline.operations.first { $0.id == "filter-3" }?.dependencies == ["download-3"])
        #expect(pipeline.operations.first { $0.id == "upload-3" }?.dependencies == ["filter-3"])
        #expect(pipeline.operations.last?.dependencies.count == 8)

        let flaky = try load("flaky")
        let plans = flaky.operations.compactMap(\.plan)
        let exhausted = plans.filter { $0.failure != nil && ($0.failure?.failingAttempts ?? Int.max) > $0.maxRetries }
        let recovered = plans.filter { ($0.failure?.failingAttempts ?? Int.max) <= $0.maxRetries }
        #expect(!exhausted.isEmpty && !recovered.isEmpty)
        #expect(Set(plans.map(\.latency)).count > 10)

        let mixed = try load("mixed")
        let kinds = Set(mixed.operations.map(\.kind))
        #expect(kinds == [.download, .upload])
        #expect(mixed.operations.contains { !$0.dependencies.isEmpty })
        let failing = mixed.operations.filter { $0.plan?.failure != nil }
        #expect((1...2).contains(failing.count))
    }
}
