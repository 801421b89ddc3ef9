import Foundation
import Testing
@testable import OpsDashApp

@Suite struct HostsFileTests {
    @Test func labelsAddressesCommentsAndBlankLinesParse() throws {
        let text = """
            # opsdash hosts
            db-3      ssh://ops@db-3.internal/images   # the image workers

            ssh://build-1:2222\r
            \tlocal ssh://[::1]/AppExample/images
            """
        let hosts = try HostsFile.parse(text, file: "hosts").get()
        #expect(hosts.map(\.label) == ["db-3", "build-1", "local"])
        #expect(hosts.map(\.line) == [2, 4, 5])
        #expect(hosts[0].address.description == "ssh://ops@db-3.internal/images")
        #expect(hosts[1].address.port == 2222)
        #expect(hosts[2].address.host == "::1" && hosts[2].address.name == "AppExample/images")
        #expect(try HostsFile.parse("", file: "hosts").get().isEmpty)
    }

    @Test func aBadLineIsRefusedNamingTheFileAndLine() {
        let cases: [(String, String)] = [
            ("db-3", "h:1: bad address db-3: expected ssh://[USER@]HOST[:PORT][/NAME]"),
            ("a ssh://x b", "h:1: expected [LABEL] ssh://[USER@]HOST[:PORT][/NAME]"),
            (
                "\nx ssh://-oProxyCommand=y",
                "h:2: bad address ssh://-oProxyCommand=y: expected ssh://[USER@]HOST[:PORT][/NAME]"
            ),
            ("a/b ssh://x", "h:1: bad label a/b: letters, digits, '.', '_' and '-' only"),
            ("ssh://x\nx ssh://y", "h:2: x is listed twice (line 1 too)"),
            ("tcp://x:1", "h:1: bad address tcp://x:1: expected ssh://[USER@]HOST[:PORT][/NAME]"),
        ]
        for (text, message) in cases {
            guard case .failure(let problem) = HostsFile.parse(text, file: "h") else {
                Issue.record("accepted \(text)")
                continue
            }
            #expect(problem.description == message)
        }
        let many = (0...HostsFile.hostLimit).map { "h\($0) ssh://x\($0)" }.joined(separator: "\n")
        guard case .failure(let problem) = HostsFile.parse(many, file: "h") else {
            Issue.record("accepted \(HostsFile.hostLimit + 1) hosts")
            return
        }
        #expect(problem.description == "h:\(HostsFile.hostLimit + 1): more than \(HostsFile.hostLimit) hosts")
    }

    @Test func theFileIsFoundUnderXDGConfigHomeOrHomeAndAMissingOneListsNone() throws {
        #expect(HostsFile.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/opsdash/hosts")
        #expect(HostsFile.path(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/opsdash/hosts")
        #expect(HostsFile.path(environment: ["HOME": "/h"]) == "/h/.config/opsdash/hosts")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-cfg-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: config) }
        let environment = ["XDG_CONFIG_HOME": config]
        #expect(try HostsFile.hosts(environment: environment).get().isEmpty)
        try FileManager.default.createDirectory(atPath: config + "/opsdash", withIntermediateDirectories: true)
        let path = config + "/opsdash/hosts"
        try Data("db-3 ssh://db-3/images\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
        #expect(try HostsFile.hosts(environment: environment).get().map(\.label) == ["db-3"])
        #expect(chmod(path, 0o666) == 0)
        #expect(
            HostsFile.hosts(environment: environment)
                == .failure(HostsFile.Problem(description: "refusing \(path): mode 666 lets others change it")))
    }
}
