// Temporary demo for the terminal backend (branch `term`); replaced by the real app wiring.
#if canImport(Glibc)
    import Glibc
#endif
import OpsDashTerminal
import OpsDashUI
import OpsMonitor
import Foundation

let logPath = "/tmp/opsdash-\(getpid()).log"
do {
    let screen = try NcursesScreen(logPath: logPath)
    let size = screen.size
    let reason = runDashboard(
        screen: screen, fps: 10,
        initial: DashboardState(width: size.width, height: size.height, glyphs: screen.glyphs),
        snapshot: { nil },
        perform: { _ in })
    print("opsdash: \(reason) frames=\(screen.framesDrawn) cells=\(screen.cellsDrawn)")
    exit(reason.signalExitCode ?? 0)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
