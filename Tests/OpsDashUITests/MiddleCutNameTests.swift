import OpsMonitor
import Testing

@testable import OpsDashUI

/// Long names are cut in the middle, so rows that differ only at the end stay apart.
@Suite struct MiddleCutNameTests {
    @Test func cutKeepsTheStartAndTheDistinguishingEnd() {
        #expect(Format.fitMiddle("download image-3.jpg", 15) == "downloa…e-3.jpg")
        #expect(Format.fitMiddle("download image-3.jpg", 20) == "download image-3.jpg")
        #expect(Format.fitMiddle("short", 8) == "short   ")
        #expect(Format.fitMiddle("abcdef", 1) == "…")
        #expect(Format.fitMiddle("abcdef", 2) == "a…")
        #expect(Format.fitMiddle("abcdef", 0) == "")
        // What is left out holds no digit: the number that tells names apart stays.
        #expect(Format.fitMiddle("upload image-1-filtered.jpg", 18) == "upload image-1…jpg")
        #expect(Format.fitMiddle("photo-1-6.jpg", 10) == "ph…1-6.jpg")
        // Digits everywhere: the middle goes.
        #expect(Format.fitMiddle("1234567890", 5) == "12…90")
        #expect(Format.fitMiddle("download image-3.jpg", 15, ellipsis: "~") == "downloa~e-3.jpg")
    }

    @Test func cutCountsDisplayColumnsAndNeverSplitsAWideCharacter() {
        // 下载-ファイル-一覧.zip: each CJK character takes 2 columns.
        for width in 1...24 {
            let cut = Format.fitMiddle("下载-ファイル-一覧.zip", width)
            #expect(DisplayWidth.of(cut) == width, "width \(width): \(cut)")
        }
        // 13 columns out of 22 to leave out (with the ellipsis): 5 kept before, 4 after, a pad.
        #expect(Format.fitMiddle("下载-ファイル-一覧.zip", 11) == "下载-….zip ")
        #expect(Format.fitMiddle("下载-ファイル-一覧.zip", 14) == "下载-フ…覧.zip")
        #expect(Format.fitMiddle("下载一覧", 6) == "下…覧 ")
        #expect(DisplayWidth.suffix("ab一覧", columns: 3) == ("覧", 2))
        #expect(DisplayWidth.suffix("ab一覧", columns: 0).width == 0)
    }

    /// Eight downloads at 80 columns: every row shows which image it is.
    @Test func eightDownloadsAt80ColumnsStayDistinct() {
        let mb = Fixtures.mb
        let operations = (1...8).map { index in
            OperationSnapshot(
                id: index, name: "download image-\(index).jpg", kind: .download,
                lifecycle: index < 4 ? .finished : .executing, outcome: index < 4 ? .succeeded : nil,
                completedUnits: index < 4 ? 2 * mb : mb, totalUnits: 2 * mb,
                unitsPerSecond: index < 4 ? 0 : Double(mb), startedAt: .seconds(1),
                finishedAt: index < 4 ? .seconds(3) : nil)
        }
        let state = Fixtures.state(Fixtures.snapshot(operations, time: .seconds(4)), width: 80, height: 14)
        let buffer = render(state)
        expectFrame(buffer, named: "eight-downloads-80x14")
        let names = (4..<12).map { buffer.line($0) }
        #expect(Set(names.map { String($0.dropFirst(6).prefix(16)) }).count == 8, "\(names)")
    }
}
