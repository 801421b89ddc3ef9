import OpsMonitor
import Testing

@testable import OpsDashUI

/// The layout: a rectangle for every region, tiling the screen when the dashboard fits.
@Suite struct LayoutTests {
    @Test func minimumSizeIsSixtyByTwelve() {
        #expect(Layout(width: 60, height: 12, showDetails: false).fits)
        #expect(!Layout(width: 59, height: 12, showDetails: false).fits)
        #expect(!Layout(width: 60, height: 11, showDetails: false).fits)
    }

    @Test func theLogShowsOnlyOnTallTerminals() {
        #expect(Layout(width: 80, height: 29, showDetails: false).log == nil)
        let tall = Layout(width: 80, height: 30, showDetails: false)
        #expect(tall.log == Rect(x: 0, y: 22, width: 80, height: 7))
        #expect(tall.main.y + tall.main.height == 22)
    }

    @Test func detailsTakeSpaceFromTheTableButLeaveRows() {
        let small = Layout(width: 60, height: 12, showDetails: true)
        #expect(small.visibleRows >= 3)
        #expect(small.details?.height == 4)
        let big = Layout(width: 120, height: 40, showDetails: true)
        #expect(big.details?.height == 12)
        #expect((big.details?.y ?? 0) + 12 == big.log?.y)
    }

    /// Sizes from the minimum up, with and without details, with and without a log that
    /// takes the height the table leaves.
    static let sizes: [(width: Int, height: Int)] = [
        (60, 12), (61, 13), (80, 24), (80, 29), (80, 30), (100, 31), (120, 40), (200, 60), (60, 100),
    ]

    static func layouts() -> [Layout] {
        var result: [Layout] = []
        for (width, height) in sizes {
            for showDetails in [false, true] {
                result.append(Layout(width: width, height: height, showDetails: showDetails))
                for (tableRows, logLines) in [(0, 3), (2, 40), (1, 1)] {
                    result.append(
                        Layout(
                            width: width, height: height, showDetails: showDetails, tableRows: tableRows,
                            logLines: logLines))
                }
            }
        }
        return result
    }

    @Test func regionsTileTheScreenTopToBottomWithoutOverlapping() {
        for layout in Self.layouts() {
            #expect(layout.fits)
            var next = 0
            for region in layout.regions {
                #expect(region.x == 0 && region.width == layout.screen.width, "\(region) in \(layout)")
                #expect(region.y == next, "gap or overlap at \(region) in \(layout)")
                #expect(!region.isEmpty, "empty region \(region) in \(layout)")
                next = region.maxY
            }
            #expect(next == layout.screen.height, "\(layout) leaves rows uncovered")
            #expect(layout.regions.reduce(0) { $0 + $1.area } == layout.screen.area)
            #expect(layout.header.height == 3 && layout.footer.height == 1 && layout.footer.maxY == layout.screen.maxY)
            #expect(layout.main.height >= 1)
        }
    }

    @Test func theHelpBoxIsCentredInsideTheScreen() {
        for (width, height) in Self.sizes {
            let layout = Layout(width: width, height: height, showDetails: false, helpLines: 50)
            guard let box = layout.help else {
                Issue.record("no help box at \(width)x\(height)")
                continue
            }
            #expect(box.intersection(layout.screen) == box)
            #expect(box.width == min(width, HelpOverlay.maximumWidth) && box.height == min(height, 53))
            #expect(box.x == (width - box.width) / 2 && box.y == (height - box.height) / 2)
        }
        #expect(Layout(width: 80, height: 24, showDetails: false).help == nil)
        var state = DashboardState(width: 80, height: 24)
        #expect(Layout(state).help == nil)
        state.showHelp = true
        #expect(Layout(state).help?.width == 80)
    }

    @Test func belowTheMinimumOnlyTheScreenIsDrawnAndEveryRectStaysOnIt() {
        for width in [0, 1, 2, 5, 20, 59, 60, 200] {
            for height in [0, 1, 2, 3, 4, 5, 11, 12] where width < 60 || height < 12 {
                for showDetails in [false, true] {
                    let layout = Layout(
                        width: width, height: height, showDetails: showDetails, tableRows: 0, logLines: 5,
                        helpLines: 40)
                    let screen = Rect(x: 0, y: 0, width: width, height: height)
                    #expect(!layout.fits)
                    #expect(layout.regions == [screen])
                    for rect in [layout.header, layout.main, layout.footer, layout.screen, layout.help]
                        + [layout.details, layout.log]
                    {
                        guard let rect, !rect.isEmpty else { continue }
                        #expect(rect.intersection(screen) == rect, "\(rect) off a \(width)x\(height) screen")
                    }
                    #expect(layout.visibleRows >= 0)
                }
            }
        }
    }

    @Test func aTinyTerminalShowsSomeOfTheEnlargeMessageAndNothingElse() {
        for (width, height) in [(1, 1), (3, 1), (59, 30), (20, 2), (0, 0), (5, 40)] {
            let frame = render(Fixtures.state(Fixtures.midRun(), width: width, height: height))
            #expect(frame.width == width && frame.height == height)
            let text = frame.lines.joined()
            #expect(width == 0 || height == 0 || text.contains { $0 != " " })
            #expect(!text.contains("opsdash"))
        }
    }
}
