import Foundation

/// A command-line problem of a demo app, in one line.
package struct UsageError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Prints `line` on stderr as "<program>: line" (the program's file name) and exits with status 2.
package func failUsage(_ line: String) -> Never {
    let program = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "demo"
    FileHandle.standardError.write(Data("\(program): \(line)\n".utf8))
    exit(2)
}

/// Writes `line` to stdout at once, also into a file or a pipe (where `print` would hold it in a
/// buffer until exit), so that a demo's lines can be read while it runs.
package func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}
