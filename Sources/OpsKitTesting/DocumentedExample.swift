import Foundation

/// Compares an example in the project's docs with the lines a test compiles, so a document never
/// shows code that no longer builds (OpsDash's own tests; not for apps).
package enum DocumentedExample {
    /// What could not be found.
    package struct Missing: Error, CustomStringConvertible {
        package let description: String
    }

    /// The lines of the first ```swift block after `heading` in `document` (a path from the
    /// package root), with runs of spaces as one (documents align their comments).
    package static func shownLines(in document: String, after heading: String, testFile: String = #filePath)
        throws -> [String]
    {
        let text = try String(contentsOf: root(of: testFile).appendingPathComponent(document), encoding: .utf8)
        guard let section = text.range(of: heading) else { throw Missing(description: "\(document): no \(heading)") }
        guard let block = text[section.upperBound...].range(of: "```swift\n"),
            let end = text[block.upperBound...].range(of: "```")
        else { throw Missing(description: "\(document): no swift block after \(heading)") }
        return text[block.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map(normalized)
    }

    /// The lines of `testFile` between the `begin` and `end` markers, normalized as `shownLines`.
    package static func compiledLines(between begin: String, and end: String, testFile: String = #filePath)
        throws -> [String]
    {
        let source = try String(contentsOf: URL(fileURLWithPath: testFile), encoding: .utf8)
        guard let start = source.range(of: begin), let stop = source[start.upperBound...].range(of: end) else {
            throw Missing(description: "\(testFile): no \(begin) … \(end)")
        }
        return source[start.upperBound..<stop.lowerBound].split(separator: "\n").map(normalized)
    }

    /// `line` without indentation and with runs of spaces as one.
    static func normalized(_ line: Substring) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// The package root: the nearest directory above `file` that holds a Package.swift.
    static func root(of file: String) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: file).deletingLastPathComponent()
    }
}
