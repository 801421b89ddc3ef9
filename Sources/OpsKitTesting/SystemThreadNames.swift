import Foundation

/// The names the system gives the threads of process `pid` (this one by default), as `top -H`
/// and `ps -L` show them: /proc/PID/task/*/comm, at most 15 bytes each. Empty where there is
/// no /proc.
package func systemThreadNames(ofProcess pid: Int32? = nil) -> [String] {
    let tasks = "/proc/\(pid.map(String.init) ?? "self")/task"
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return ids.compactMap { id in
        (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
