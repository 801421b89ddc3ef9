import Foundation

/// An operation whose work reports through a Foundation `Progress` it hands out: how a class the
/// app can't make a `ProgressReporting` (a library's operation, one wrapping a `URLSessionTask`)
/// shows completed/total, rate and ETA. Adopt it in an extension:
///
/// ```swift
/// extension VendorDownload: FoundationProgressProviding {
///     public var foundationProgress: Progress? { task?.progress }
/// }
/// ```
///
/// A monitor reads the `Progress` while the operation runs (see `OperationProgress(_:)` for
/// what it reads). An operation that adopts Foundation's `ProgressReporting` needs nothing more.
/// On Linux a `URLSessionTask`'s own `progress` stays at 0 of -1: there, hand out a `Progress`
/// that the session's delegate moves (`Demos/Network/TransferDelegate.swift` does).
public protocol FoundationProgressProviding: AnyObject {
    /// The `Progress` the operation's work updates; nil while there is none yet.
    var foundationProgress: Progress? { get }
}

#if !canImport(ObjectiveC)
extension Progress.FileOperationKind {
    /// Data sent to a remote place: Darwin's `.uploading` (same raw value), which
    /// swift-corelibs-foundation does not declare.
    public static let uploading = Progress.FileOperationKind(rawValue: "NSProgressFileOperationKindUploading")
}
#endif

extension OperationProgress {
    /// The counts of a Foundation `Progress`: `completedUnitCount` of `totalUnitCount` (a
    /// negative total, Foundation's "indeterminate", as unknown), in bytes when its `kind` is
    /// `.file`, items otherwise.
    public init(_ progress: Progress) {
        let total = progress.totalUnitCount
        self.init(
            completed: max(0, progress.completedUnitCount), total: max(0, total),
            unit: progress.kind == .file ? .bytes : .items)
    }
}

extension OperationKind {
    /// What a Foundation `Progress` describes: a download or an upload when its `kind` is
    /// `.file` and its `userInfo[.fileOperationKindKey]` says `.downloading` or `.receiving`
    /// (download) or `.uploading` (upload); local work otherwise.
    public init(_ progress: Progress) {
        guard progress.kind == .file else {
            self = .process
            return
        }
        switch progress.userInfo[.fileOperationKindKey] as? Progress.FileOperationKind {
        case .downloading?, .receiving?: self = .download
        case .uploading?: self = .upload
        default: self = .process
        }
    }
}

/// Where a monitor reads an operation's Foundation `Progress`: its `ProgressReporting.progress`
/// or its `FoundationProgressProviding.foundationProgress`. An operation that adopts OpsKit's
/// `ProgressReportingOperation` publishes its own progress and has none (it may push a
/// `Progress` with `reportProgress(of:)`).
package struct FoundationProgressSource: Sendable {
    private let operation: Operation
    private let provides: Bool

    /// `operation`'s source, or nil (answered per class from a cache for classes that have none).
    package init?(_ operation: Operation) {
        guard ProgressReporterLookup.providesFoundationProgress(operation) else { return nil }
        self.operation = operation
        provides = operation is any FoundationProgressProviding
    }

    /// The `Progress` now, if any.
    package var progress: Progress? {
        provides
            ? (operation as? any FoundationProgressProviding)?.foundationProgress
            : (operation as? any ProgressReporting)?.progress
    }
}
