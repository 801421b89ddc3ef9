import OpsKit

extension OperationKind {
    /// The kinds a scenario file may use (`other` describes operations the scenario runner
    /// never makes).
    static let scenarioKinds: [OperationKind] = [.download, .upload, .process]
}
