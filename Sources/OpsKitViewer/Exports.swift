// What publisher and viewer share (the runtime directory, sidecars, `RemoteError`) comes with
// `import OpsKitViewer`: a tool needs no second import to name them.
@_exported import OpsRemoteSupport
