import DemoSupport
import Foundation

/// AppExample's command line, checked before anything starts.
struct AppArguments {
    var rounds = 0
    var speed = 4.0
    var allowControl = false
    var tcpPort: Int?
    var metricsPort: Int?

    static let usage = """
        usage: AppExample [--rounds N] [--speed X] [--allow-control] [--tcp-port N] [--metrics-port N]

          --rounds N         rounds of work, then exit (0, the default: until Ctrl-C)
          --speed X          simulated time runs X times faster than real time, 0.01...10000 (default 4)
          --allow-control    viewers may cancel, pause, resume and change the limit
          --tcp-port N       also publish over TCP on 127.0.0.1:N, 0...65535 (0: any free port)
          --metrics-port N   serve Prometheus metrics at http://127.0.0.1:N/metrics, 0...65535 (0: any free port)
          --help             this text

        Exit status: 0 when done or stopped by Ctrl-C, SIGTERM or SIGHUP (a closed terminal; viewers
        get a bye and the socket is removed), 2 for a bad flag or a port that cannot be used.
        """

    /// What the command line asks for.
    enum Parsed {
        case run(AppArguments)
        case help
    }

    /// Parses `arguments` (without the program name). Throws the one line to print for a bad one.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var parsed = AppArguments()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--help", "-h":
                return .help
            case "--allow-control":
                parsed.allowControl = true
            case "--rounds":
                parsed.rounds = try integer(flag, rest.popFirst(), in: 0...Int.max, rule: "0 or more")
            case "--speed":
                let text = try value(flag, rest.popFirst())
                guard let speed = Double(text), speed.isFinite, (0.01...10_000).contains(speed) else {
                    throw UsageError("\(flag) must be a number between 0.01 and 10000 (got '\(text)')")
                }
                parsed.speed = speed
            case "--tcp-port":
                parsed.tcpPort = try integer(flag, rest.popFirst(), in: 0...65535, rule: "between 0 and 65535")
            case "--metrics-port":
                parsed.metricsPort = try integer(flag, rest.popFirst(), in: 0...65535, rule: "between 0 and 65535")
            default:
                throw UsageError("unknown argument '\(flag)' (see --help)")
            }
        }
        return .run(parsed)
    }

    private static func value(_ flag: String, _ text: String?) throws(UsageError) -> String {
        guard let text else { throw UsageError("\(flag) needs a value (see --help)") }
        return text
    }

    private static func integer(
        _ flag: String, _ text: String?, in range: ClosedRange<Int>, rule: String
    ) throws(UsageError) -> Int {
        let text = try value(flag, text)
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(flag) must be a whole number \(rule) (got '\(text)')")
        }
        return number
    }
}
