/// apigen's version, as `apigen --version` prints it. The generated code does not carry it, so a
/// new version that renders the same files leaves a project's generated code unchanged.
public enum APIGenVersion {
    public static let current = "0.1.0"
}
