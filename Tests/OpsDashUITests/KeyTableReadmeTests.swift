import Foundation
import Testing

@testable import OpsDashUI

/// The README's key table and `KeyBinding.table` list the same keys: every bound key is in the
/// README, and the README lists no key that isn't bound.
@Suite struct KeyTableReadmeTests {
    /// The first column of each row of the README's table between `start` and `end` (by
    /// default the "## Keys" table).
    static func readmeKeyColumn(from start: String = "\n## Keys\n", to end: String = "\n## ") throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = readme.components(separatedBy: start).dropFirst().first ?? ""
        let body = section.components(separatedBy: end).first ?? ""
        return body.split(separator: "\n")
            .filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") && !$0.hasPrefix("| key ") }
            .compactMap { $0.split(separator: "|", omittingEmptySubsequences: true).first }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The keys a README key cell names: `x` is the literal key x; outside back-quotes, key
    /// names (↑, PgUp, Enter, space, Ctrl-L, …) separated by "/", ",", "or" and brackets.
    /// Throws on a word that names no key, so prose in the key column fails the test.
    static func keys(inCell cell: String) throws -> [Key] {
        var keys: [Key] = []
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if index % 2 == 1 {
                guard part.count == 1, let character = part.first else { throw CellError.unknown(String(part)) }
                keys.append(.character(character))
                continue
            }
            let words = part.split { " /,()".contains($0) }.map(String.init)
            for word in words where !["or", "also"].contains(word) {
                keys.append(try key(named: word))
            }
        }
        return keys
    }

    enum CellError: Error { case unknown(String) }

    static func key(named name: String) throws -> Key {
        let named: [String: Key] = [
            "↑": .up, "↓": .down, "PgUp": .pageUp, "PgDn": .pageDown, "Home": .home, "End": .end,
            "Enter": .enter, "Tab": .tab, "Esc": .escape, "space": .character(" "),
        ]
        if let key = named[name] { return key }
        if name.hasPrefix("Ctrl-"), name.count == 6, let letter = name.last {
            return .control(Character(letter.lowercased()))
        }
        throw CellError.unknown(name)
    }

    @Test func readmeKeyTableListsExactlyTheBoundKeys() throws {
        let cells = try Self.readmeKeyColumn()
        #expect(cells.count >= 10, "README key table not found")
        var listed = Set<Key>()
        for cell in cells {
            let keys = try Self.keys(inCell: cell)
            #expect(!keys.isEmpty, "row '\(cell)' names no key")
            listed.formUnion(keys)
        }
        let bound = Set(KeyBinding.table.flatMap(\.keys.keys))
        for key in bound.subtracting(listed) { Issue.record("README's key table misses \(key)") }
        for key in listed.subtracting(bound) { Issue.record("README's key table lists unbound \(key)") }
    }

    @Test func cellParserReadsNamesAndLiterals() throws {
        #expect(try Self.keys(inCell: "↑ / ↓, `k` / `j`") == [.up, .down, .character("k"), .character("j")])
        #expect(try Self.keys(inCell: "`p` or space") == [.character("p"), .character(" ")])
        #expect(try Self.keys(inCell: "`/`") == [.character("/")])
        #expect(try Self.keys(inCell: "Ctrl-L") == [.control("l")])
        #expect(throws: CellError.self) { try Self.keys(inCell: "move the selection") }
    }

    @Test func noKeyIsBoundTwice() {
        var seen = Set<Key>()
        for binding in KeyBinding.table {
            for key in binding.keys.keys {
                #expect(seen.insert(key).inserted, "\(key) bound twice")
            }
        }
    }

    @Test func everyIntentHasAKeyAndHintsAreRankedUniquely() {
        let intents = KeyBinding.table.flatMap(\.keys.values)
        let all: [KeyIntent] = [
            .moveUp, .moveDown, .pageUp, .pageDown, .first, .last, .cancelSelected, .cancelAll,
            .togglePause, .raiseLimit, .lowerLimit, .toggleDependencies, .toggleDetails, .switchFocus,
            .editFilter, .nextSort, .close, .repaint, .help, .quit,
        ]
        for intent in all { #expect(intents.contains(intent), "no key for \(intent)") }
        let ranks = KeyBinding.hints.map(\.rank)
        #expect(Set(ranks).count == ranks.count)
        #expect(KeyBinding.hints.first?.word(FooterHint.Context(DashboardState(width: 80, height: 24))) == "quit")
    }
}
