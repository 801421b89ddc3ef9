import Foundation

/// Which build of `opsdash` a test drives: the debug one `swift test` built, or a release build
/// (what users install: optimized across modules, where the debug build can hide defects).
enum OpsdashBuild: String, CaseIterable, CustomStringConvertible, Sendable {
    case debug, release

    var description: String { rawValue }

    /// The executable's path, building the release binary on first use; throws when it can't.
    func binary() throws -> String {
        switch self {
        case .debug:
            guard let path = opsdashBinaryPath() else { throw TmuxError(description: "opsdash binary not found") }
            return path
        case .release:
            return try releaseBinary.get()
        }
    }
}

/// The release `opsdash`: `$OPSDASH_RELEASE_BINARY`, else built once per test run with
/// `swift build -c release --product opsdash --scratch-path .build-release` in the package root
/// (its own scratch path, so it never waits on the lock of the build `swift test` holds).
private let releaseBinary: Result<String, TmuxError> = {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["OPSDASH_RELEASE_BINARY"] {
        return FileManager.default.isExecutableFile(atPath: override)
            ? .success(override)
            : .failure(TmuxError(description: "OPSDASH_RELEASE_BINARY=\(override) is not executable"))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let scratch = root + "/.build-release"
    guard let swift = executableOnPath("swift") else { return .failure(TmuxError(description: "swift is not on PATH")) }
    let started = ContinuousClock.now
    let result: (status: Int32, output: String)
    do {
        result = try spawnAndWait(
            swift,
            ["build", "--package-path", root, "-c", "release", "--product", "opsdash", "--scratch-path", scratch])
    } catch {
        return .failure(TmuxError(description: "release build could not start: \(error)"))
    }
    guard result.status == 0 else {
        return .failure(TmuxError(description: "release build failed (\(result.status)):\n\(result.output)"))
    }
    print("release opsdash built in \(ContinuousClock.now - started)")
    let path = scratch + "/release/opsdash"
    return FileManager.default.isExecutableFile(atPath: path)
        ? .success(path) : .failure(TmuxError(description: "release build left no \(path)"))
}()

/// The first executable named `name` on PATH.
func executableOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
