// Temporary: replaced when the scenario and terminal branches merge.
import OpsKit
import Foundation

enum Scenarios { static let defaultName = "mixed" }
struct ResolvedOperation {
    enum Kind { case download, upload, process }
    var id: String; var name: String; var kind: Kind; var plan: TransferPlan?; var duration: Duration?
    var processFailure: String?; var dependencies: [String]
}
struct ResolvedScenario { var name: String; var concurrency: Int; var seed: UInt64; var operations: [ResolvedOperation] }
struct StubError: Error, CustomStringConvertible { var description: String }
enum ScenarioCatalog {
    static func listing() -> String { "mixed\n" }
    static func load(_ name: String, seed: UInt64?) throws -> ResolvedScenario {
        let ops = (1...20).map { i in ResolvedOperation(id: "d\(i)", name: "d\(i)", kind: .download, plan: TransferPlan(totalBytes: 1_000_000, bandwidth: 500_000), duration: nil, processFailure: nil, dependencies: i > 10 ? ["d\(i-10)"] : []) }
        return ResolvedScenario(name: name, concurrency: 4, seed: seed ?? 1, operations: ops)
    }
}
enum DashboardRunner {
    static func run(command: OpsdashCommand, scenario: ResolvedScenario) -> ExitStatus { .usage }
}
