// What `opsdash relay --list` sends from another host (RelayListReader): any bytes either read
// into rounds or end the reading with a one-line problem; no round lists more than the app
// limit, and reading the bytes in two pieces (split where the first byte says) gives the same
// rounds and the same problem as reading them whole.
import FuzzSupport
@_spi(OpsDashInternals) import OpsKitViewer

fuzz { input in
    var whole = RelayListReader()
    let wholeResult = whole.read(input)
    let split = input.isEmpty ? 0 : Int(input[0]) * input.count / 256
    var pieces = RelayListReader()
    var piecesRounds: [RelayListReader.Round] = []
    var piecesResult: Result<[RelayListReader.Round], RelayListReader.Problem> = .success([])
    for piece in [input[..<split], input[split...]] {
        switch pieces.read(piece) {
        case .success(let rounds): piecesRounds += rounds
        case .failure(let problem): piecesResult = .failure(problem)
        }
        if case .failure = piecesResult { break }
    }
    switch (wholeResult, piecesResult) {
    case (.success(let rounds), .success):
        check(rounds == piecesRounds, "whole and split reads differ")
        for round in rounds {
            check(round.entries.count <= RelayListReader.appLimit, "\(round.entries.count) apps in a round")
        }
    case (.failure(let problem), .failure(let again)):
        check(problem == again, "whole: \(problem); split: \(again)")
        check(!problem.description.isEmpty, "empty problem")
        check(
            !problem.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "problem is not one plain line: \(problem.description.debugDescription)")
    case (.success, .failure(let problem)):
        check(false, "only the split read failed: \(problem)")
    case (.failure(let problem), .success):
        check(false, "only the whole read failed: \(problem)")
    }
}
