import ArgumentParser
import OpsMonitor
import OpsWire

/// `--until CONDITION` of the headless modes: the conditions that end a run with
/// `ExitStatus.untilFired`, and the `until` line written when one fires.
enum UntilOption {
    /// The option's help.
    static let help = ArgumentHelp(
        "With --headless: end the run (exit 4) once a condition holds, e.g. failed>0, waiting>1000, stalled>60s; repeat it or use a comma list for any of several.",
        valueName: "condition")

    /// Every `--until` value's conditions, any of which fires; a bad one is a one-line usage error.
    static func conditions(_ texts: [String], headless: Bool) throws -> [UntilCondition] {
        guard !texts.isEmpty else { return [] }
        guard headless else { throw ValidationError("--until needs --headless") }
        var conditions: [UntilCondition] = []
        for text in texts {
            do {
                conditions += try UntilCondition.parseList(text)
            } catch {
                throw ValidationError("--until: \(error.problem)")
            }
        }
        guard conditions.count <= UntilCondition.maxConditions else {
            throw ValidationError(
                "--until: too many conditions (\(conditions.count), at most \(UntilCondition.maxConditions))")
        }
        return conditions
    }

    /// `{"t":…,"event":"until","condition":"failed>0","value":1}`: which condition fired, when
    /// (the run's clock), and its value then (the count, or the seconds nothing finished).
    static func line(_ firing: UntilWatch.Firing) -> String {
        var line = "{\"t\":"
        JSONLinesEncoder.appendTime(firing.time, &line)
        line += ",\"event\":\"until\",\"condition\":"
        JSONLinesEncoder.appendString(firing.condition.description, &line)
        line += ",\"value\":"
        if let stalled = firing.stalledFor {
            JSONLinesEncoder.appendTime(stalled, &line)
        } else {
            line += String(firing.count ?? 0)
        }
        return line + "}\n"
    }
}
