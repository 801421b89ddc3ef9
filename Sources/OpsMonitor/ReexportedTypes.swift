import OpsKit

/// OpsKit's `OperationKind`, named here too so code that imports only OpsMonitor (the UI) can
/// spell it: one type, not a copy.
public typealias OperationKind = OpsKit.OperationKind

/// OpsKit's `ProgressUnit`, named here too (see `OperationKind`).
public typealias ProgressUnit = OpsKit.ProgressUnit
