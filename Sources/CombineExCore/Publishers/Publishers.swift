/// A namespace for types that serve as publishers: the operators (`Publishers.Map`,
/// `Publishers.Filter`, ...) and `Publishers.Sequence`.
public enum Publishers {}
