import DemoSupport
import Foundation

/// NetworkExample's command line, checked before anything starts.
struct NetworkArguments {
    var downloads = 3
    var uploads = 2
    var missing = 0
    var size: Int64 = 2_000_000
    var rate = 1_000_000
    var concurrent = 3
    var port = 0
    var maxUpload: Int64 = 64_000_000
    var publish = "transfers"
    var allowControl = false
    var waitForViewer = false
    var exitWhenDone = false

    static let usage = """
        usage: NetworkExample [--downloads N] [--uploads N] [--missing N] [--size BYTES] [--rate BYTES]
                              [--concurrent N] [--port N] [--max-upload BYTES] [--publish NAME]
                              [--allow-control] [--wait-for-viewer] [--exit-when-done]

          --downloads N       files to download, 0...20 (default 3); download i has i × --size bytes
          --uploads N         uploads, 0...20 (default 2); upload i sends i × --size bytes
          --missing N         downloads of files the server does not have (they fail: HTTP 404), 0...20 (default 0)
          --size BYTES        the size unit, 1...64000000 (default 2000000)
          --rate BYTES        bytes per second the server moves per transfer, 0...1000000000 (0: unpaced; default 1000000)
          --concurrent N      transfers at a time, 1...20 (default 3)
          --port N            the file server's port on 127.0.0.1, 0...65535 (default 0: any free port)
          --max-upload BYTES  the server refuses a larger upload (HTTP 413), 0...1000000000 (default 64000000)
          --publish NAME      the queue's name for `opsdash attach` (default transfers)
          --allow-control     viewers may cancel transfers, pause, resume and change the limit
          --wait-for-viewer   start the transfers once a viewer is attached
          --exit-when-done    exit once every transfer has finished (default: publish until Ctrl-C)
          --help              this text

        Exit status: 0 when done or stopped by Ctrl-C, SIGTERM or SIGHUP, 2 for a bad flag or a port
        that cannot be used.
        """

    /// What the command line asks for.
    enum Parsed {
        case run(NetworkArguments)
        case help
    }

    /// Parses `arguments` (without the program name). Throws the one line to print for a bad one.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var parsed = NetworkArguments()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--help", "-h": return .help
            case "--allow-control": parsed.allowControl = true
            case "--wait-for-viewer": parsed.waitForViewer = true
            case "--exit-when-done": parsed.exitWhenDone = true
            case "--downloads": parsed.downloads = try integer(flag, rest.popFirst(), in: 0...20)
            case "--uploads": parsed.uploads = try integer(flag, rest.popFirst(), in: 0...20)
            case "--missing": parsed.missing = try integer(flag, rest.popFirst(), in: 0...20)
            case "--size": parsed.size = Int64(try integer(flag, rest.popFirst(), in: 1...64_000_000))
            case "--rate": parsed.rate = try integer(flag, rest.popFirst(), in: 0...1_000_000_000)
            case "--concurrent": parsed.concurrent = try integer(flag, rest.popFirst(), in: 1...20)
            case "--port": parsed.port = try integer(flag, rest.popFirst(), in: 0...65535)
            case "--max-upload": parsed.maxUpload = Int64(try integer(flag, rest.popFirst(), in: 0...1_000_000_000))
            case "--publish":
                guard let name = rest.popFirst(), !name.isEmpty, !name.hasPrefix("--") else {
                    throw UsageError("--publish needs a name (see --help)")
                }
                parsed.publish = name
            default:
                throw UsageError("unknown argument '\(flag)' (see --help)")
            }
        }
        return .run(parsed)
    }

    private static func integer(_ flag: String, _ text: String?, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text else { throw UsageError("\(flag) needs a value (see --help)") }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(flag) must be a whole number between \(range.lowerBound) and \(range.upperBound) (got '\(text)')")
        }
        return number
    }
}
