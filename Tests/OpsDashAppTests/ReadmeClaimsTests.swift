import Foundation
@testable import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashApp

/// The user docs promise exact words and numbers: the exit codes, the flags, the WHY labels, the
/// concurrency range. These read README.md (and docs/OPERATING.md, where `attach` and `replay`
/// are documented) and the code that makes each promise, so one can't change without the other.
@Suite struct ReadmeClaimsTests {
    static func document(_ path: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let readme = document("README.md")
    static let operating = document("docs/OPERATING.md")

    /// The rows of the README's exit-code table ("| 130 / 131 / 143 | …").
    static var documentedExitCodes: Set<Int32> {
        var codes: Set<Int32> = []
        for line in readme.split(separator: "\n") where line.hasPrefix("| ") {
            let first = line.dropFirst(2).prefix { $0 != "|" }
            let numbers = first.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !numbers.isEmpty, numbers.allSatisfy({ Int32($0) != nil }) else { continue }
            codes.formUnion(numbers.compactMap { Int32($0) })
        }
        return codes
    }

    @Test func everyExitStatusIsInTheExitCodeTableAndNothingElse() {
        #expect(!Self.readme.isEmpty, "README.md not found")
        #expect(Self.documentedExitCodes == Set(ExitStatus.allCases.map(\.rawValue)))
    }

    @Test func everyFlagOfEveryModeIsDocumented() {
        let helps = [
            OpsdashCommand.helpMessage(columns: 200), AttachCommand.helpMessage(columns: 200),
            ReplayCommand.helpMessage(columns: 200),
        ]
        var flags: Set<String> = []
        for help in helps {
            for word in help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
            where word.hasPrefix("--") && word.count > 2 {
                flags.insert(String(word))
            }
        }
        #expect(flags.contains("--scenario") && flags.contains("--record"))
        #expect(!Self.operating.isEmpty, "docs/OPERATING.md not found")
        let userDocs = Self.readme + "\n" + Self.operating
        for flag in flags.sorted() {
            #expect(
                userDocs.contains("`\(flag)") || userDocs.contains(" \(flag) ") || userDocs.contains("\(flag) <"),
                "neither README.md nor docs/OPERATING.md mentions \(flag)")
        }
    }

    @Test func theWhyLabelsAreTheOnesTheTableShows() {
        var state = DashboardState(width: 120, height: 30)
        state.snapshot = QueueSnapshot(isSuspended: true, maxConcurrentOperationCount: 1)
        let paused = WaitReason(OperationSnapshot(id: 1, name: "a", lifecycle: .ready), in: state).cell.0
        #expect(Self.readme.contains("`\(paused)`"), "WHY \(paused)")
        state.snapshot = QueueSnapshot(
            maxConcurrentOperationCount: 1, counts: StateCounts(ready: 1, executing: 1))
        let busy = WaitReason(OperationSnapshot(id: 1, name: "a", lifecycle: .ready), in: state).cell.0
        #expect(Self.readme.contains("`\(busy)`"), "WHY \(busy)")
        #expect(Self.readme.contains("`needs #3,#7`"))
    }

    @Test func theConcurrencyRangeIsTheOneTheKeysAndTheFlagUse() {
        #expect(Self.readme.contains("\(concurrencyRange.lowerBound)…\(concurrencyRange.upperBound)"))
    }
}
