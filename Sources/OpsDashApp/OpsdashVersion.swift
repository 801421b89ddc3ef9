/// The version `opsdash --version` prints.
public enum OpsdashVersion {
    /// The one version string.
    public static let current = "0.9.0"
}
