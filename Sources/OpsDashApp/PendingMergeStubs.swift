// Temporary: replaced when the terminal branch merges.
import OpsScenarios
enum DashboardRunner {
    static func run(command: OpsdashCommand, scenario: ResolvedScenario) -> ExitStatus { .usage }
}
