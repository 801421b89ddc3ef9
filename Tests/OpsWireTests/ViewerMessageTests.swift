import Testing

@testable import OpsWire

/// Every viewer message: its exact bytes (as docs/PROTOCOL.md shows them) and back; every way
/// a hostile viewer's line is refused.
struct ViewerMessageTests {
    /// Each message kind with the line a viewer sends for it.
    static let golden: [(ViewerMessage, String)] = [
        (.hello(.init(client: "doc")), #"{"cmd":"hello","min":1,"max":1,"client":"doc"}"#),
        (
            .hello(
                .init(
                    client: "opsdash", role: .observer, token: "t\"k",
                    resume: .init(epoch: "5f3a9c1e", seq: 12))),
            #"{"cmd":"hello","min":1,"max":1,"client":"opsdash","role":"observer","token":"t\"k","resume":{"epoch":"5f3a9c1e","seq":12}}"#
        ),
        (.control(.cancel(operationID: 9), request: .string("r2")), #"{"cmd":"cancel","id":"r2","op":9}"#),
        (
            .control(.cancelMany(operationIDs: [3, 4, 5]), request: .string("c4")),
            #"{"cmd":"cancel_many","id":"c4","ops":[3,4,5]}"#
        ),
        (.control(.cancelAll, request: .int(3)), #"{"cmd":"cancel_all","id":3,"confirm":true}"#),
        (.control(.suspend, request: nil), #"{"cmd":"suspend"}"#),
        (.control(.resume, request: .string("c1")), #"{"cmd":"resume","id":"c1"}"#),
        (.control(.setLimit(4), request: .string("r1")), #"{"cmd":"set_limit","id":"r1","limit":4}"#),
        (.resync(request: nil), #"{"cmd":"resync"}"#),
        (.sharedStream(snapshots: true, request: nil), #"{"cmd":"shm","snapshots":true}"#),
        (.sharedStream(snapshots: false, request: nil), #"{"cmd":"shm"}"#),
        (.ping(request: .int(7)), #"{"cmd":"ping","id":7}"#),
        (.status(request: .string("s1")), #"{"cmd":"status","id":"s1"}"#),
        (
            .hello(.init(client: "opsdash fleet", summary: true)),
            #"{"cmd":"hello","min":1,"max":1,"client":"opsdash fleet","summary":true}"#
        ),
    ]

    @Test func eachMessageEncodesToItsGoldenLine() {
        for (message, line) in Self.golden {
            #expect(message.text == line + "\n")
        }
    }

    @Test func eachMessageDecodesBackToItself() throws {
        for (message, _) in Self.golden {
            #expect(try ViewerMessage.decode(message.encoded.dropLast()) == message)
        }
    }

    @Test func everyCommandHasItsWireName() throws {
        let commands: [RemoteCommand] = [
            .cancel(operationID: 1), .cancelMany(operationIDs: [1]), .cancelAll, .suspend, .resume, .setLimit(2),
        ]
        #expect(commands.map(\.name) == RemoteCommand.names)
        for command in commands {
            #expect(
                try ViewerMessage.decode(ViewerMessage.control(command, request: nil).encoded.dropLast()).name
                    == command.name)
        }
    }

    @Test func aHelloTakesWhatItCanOfItsOptionalFields() throws {
        let line = #"{"cmd":"hello","id":true,"min":1,"max":3,"role":"boss","token":5,"resume":{"epoch":"e","seq":-1}}"#
        #expect(
            try ViewerMessage.decode(Array(line.utf8))
                == .hello(.init(minimum: 1, maximum: 3, client: nil, role: nil, token: nil, resume: nil)))
    }

    @Test(arguments: [
        (#"[1]"#, RemoteErrorCode.badLine, "line is not a JSON object", nil as String?),
        (#"{"cmd":"#, .badLine, "invalid JSON", nil),
        (#"{"id":"a"}"#, .badLine, #"line has no "cmd" string"#, nil),
        (#"{"cmd":"explode","id":"a"}"#, .unknownCommand, #"unknown command "explode""#, "explode"),
        (
            #"{"cmd":"hello","id":"a","min":"1","max":1}"#, .badArgument, #"hello needs integer "min" and "max""#,
            "hello"
        ),
        (#"{"cmd":"cancel","id":"a","op":"3"}"#, .badArgument, #"cancel needs "op""#, "cancel"),
        (#"{"cmd":"cancel","id":"a","op":1.5}"#, .badArgument, #"cancel needs "op""#, "cancel"),
        (
            #"{"cmd":"cancel_all","id":"a","confirm":1}"#, .badArgument, #"cancel_all needs "confirm": true"#,
            "cancel_all"
        ),
        (#"{"cmd":"set_limit","id":"a","limit":0}"#, .badArgument, #"set_limit needs "limit": 1…1024"#, "set_limit"),
        (#"{"cmd":"set_limit","id":"a","limit":1025}"#, .badArgument, #"set_limit needs "limit""#, "set_limit"),
        (#"{"cmd":"cancel_many","id":"a"}"#, .badArgument, #"cancel_many needs "ops": 1…10000"#, "cancel_many"),
        (#"{"cmd":"cancel_many","id":"a","ops":[]}"#, .badArgument, #"cancel_many needs "ops""#, "cancel_many"),
        (#"{"cmd":"cancel_many","id":"a","ops":[1,"2"]}"#, .badArgument, #"cancel_many needs "ops""#, "cancel_many"),
        (#"{"cmd":"cancel_many","id":"a","ops":[1,2.5]}"#, .badArgument, #"cancel_many needs "ops""#, "cancel_many"),
        (#"{"cmd":"cancel_many","id":"a","ops":{"0":1}}"#, .badArgument, #"cancel_many needs "ops""#, "cancel_many"),
    ])
    func malformedLinesAreRefusedWithTheirCode(line: String, code: RemoteErrorCode, message: String, command: String?) {
        #expect {
            _ = try ViewerMessage.decode(Array(line.utf8))
        } throws: { error in
            guard let error = error as? ViewerMessageError else { return false }
            let readable = command != nil || code == .badLine && line.hasPrefix("{\"id\"")
            return error.code == code && error.message.contains(message) && error.command == command
                && error.isUnreadable == !readable && (error.request == (readable ? .string("a") : nil))
        }
    }

    @Test func cancelManyTakesAtMostTenThousandIDs() throws {
        let most = Array(1...RemoteProtocol.maximumCancelMany)
        let fits = ViewerMessage.control(.cancelMany(operationIDs: most), request: nil)
        #expect(try ViewerMessage.decode(fits.encoded.dropLast()) == fits)
        let tooMany = ViewerMessage.control(.cancelMany(operationIDs: most + [1]), request: .int(1))
        #expect {
            _ = try ViewerMessage.decode(tooMany.encoded.dropLast())
        } throws: { error in
            (error as? ViewerMessageError)?.code == .badArgument && (error as? ViewerMessageError)?.request == .int(1)
        }
    }

    @Test func onlyBadArgumentsOfControlCommandsAreCounted() {
        #expect(ViewerMessageError(.badArgument, "m", command: "cancel_many").countedCommand == "cancel_many")
        #expect(ViewerMessageError(.badArgument, "m", command: "hello").countedCommand == nil)
        #expect(ViewerMessageError(.unknownCommand, "m", command: "explode").countedCommand == nil)
    }
}
