// The compatibility umbrella: `import OpsKitRemote` is `import OpsKitPublisher` (what an app
// links to publish its queue) and `import OpsKitViewer` (what `opsdash attach` and tools use to
// watch one) together, for apps written before the two were apart. New code imports the one it
// needs (docs/ARCHITECTURE.md).
@_exported import OpsKitPublisher
@_exported import OpsKitViewer
