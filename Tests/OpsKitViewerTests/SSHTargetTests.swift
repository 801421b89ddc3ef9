import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer

@Suite struct SSHTargetTests {
    private func parsed(_ text: String) -> SSHAddress? {
        guard case .ssh(let address)? = RemoteTarget(parsing: text) else { return nil }
        return address
    }

    @Test func everyPartOfAnSSHAddressParses() throws {
        let full = try #require(parsed("ssh://ops@db-3.internal:2222/AppExample/images"))
        #expect(full.user == "ops")
        #expect(full.host == "db-3.internal")
        #expect(full.port == 2222)
        #expect(full.name == "AppExample/images")
        #expect(full.description == "ssh://ops@db-3.internal:2222/AppExample/images")
        let bare = try #require(parsed("ssh://db-3"))
        #expect(bare.user == nil && bare.port == nil && bare.name == nil)
        #expect(parsed("ssh://db-3/")?.name == nil, "a trailing slash names nothing")
        let v6 = try #require(parsed("ssh://[::1]:22/images"))
        #expect(v6.host == "::1" && v6.port == 22 && v6.name == "images")
        #expect(v6.description == "ssh://[::1]:22/images")
    }

    @Test func partsThatCouldBecomeOptionsOrShellWordsAreRefused() {
        for bad in [
            "ssh://", "ssh://-oProxyCommand=x", "ssh://-p", "ssh://user@-host", "ssh://-l@host",
            "ssh://host:", "ssh://host:0", "ssh://host:65536", "ssh://host:+22", "ssh://host:22x",
            "ssh://host/-v", "ssh://host/.hidden", "ssh://host/a/b/c", "ssh://host/a/", "ssh://host/x'y",
            "ssh://host/x;rm", "ssh://host/$(id)", "ssh://host/a b", "ssh://ho st", "ssh://[::1", "ssh://[]",
            "ssh://[::1]x", "ssh://h@st@x", "ssh://hōst",
        ] {
            #expect(parsed(bad) == nil, "\(bad)")
        }
    }

    @Test func theSSHCommandPutsTheUsersOptionsFirstAndQuotesTheName() throws {
        let command = SSHCommand(environment: [
            "OPSDASH_SSH_COMMAND": "ssh -i /k  -o BatchMode=no", "OPSDASH_REMOTE_COMMAND": " /opt/opsdash ",
        ])
        let address = try #require(parsed("ssh://ops@db-3:2222/AppExample/images"))
        #expect(
            command.arguments(for: address) == [
                "ssh", "-i", "/k", "-o", "BatchMode=no", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                "-p", "2222", "-l", "ops", "--", "db-3", "/opt/opsdash relay 'AppExample/images'",
            ])
        let plain = SSHCommand(environment: [:])
        #expect(
            plain.arguments(for: try #require(parsed("ssh://db-3"))) == [
                "ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "--", "db-3", "opsdash relay",
            ])
        // The fleet list's relay lists every queue there: the address's name is not sent.
        #expect(
            command.arguments(for: address, listing: true).suffix(3) == ["--", "db-3", "/opt/opsdash relay --list"])
    }

    @Test func sshsLastStderrLineBecomesTheReason() {
        #expect(
            SSHChannel.line(Array("ssh: connect to host x port 22: Connection refused\r".utf8))
                == "ssh: connect to host x port 22: Connection refused")
        #expect(SSHChannel.line(Array("\u{1B}[31mred".utf8)) == "?[31mred", "no terminal escapes")
        #expect(SSHChannel.line(Array("  \r".utf8)) == nil)
        #expect(SSHChannel.line(Array(repeating: UInt8(ascii: "x"), count: 1_000))?.count == SSHChannel.lineLimit)
        #expect(
            SSHChannel.reason(.init(status: 2, lastLine: "opsdash: no published queue named x"))
                == "no published queue named x (ssh exit 2)")
        #expect(SSHChannel.reason(.init(status: 255, lastLine: nil)) == "ssh ended (ssh exit 255)")
        #expect(SSHChannel.reason(.init(status: 0, lastLine: nil)) == nil)
    }
}
