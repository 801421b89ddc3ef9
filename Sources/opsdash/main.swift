import OpsDashApp
import Foundation

exit(Opsdash.main(Array(CommandLine.arguments.dropFirst())))
