/// A protocol for uniquely identifying publisher streams.
///
/// Subscribers and subscriptions that are classes get an identifier derived from their object
/// identity for free; value types provide one (usually the identifier of the object they wrap).
public protocol CustomCombineIdentifierConvertible {
  /// A unique identifier for identifying publisher streams.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The identifier derived from this object's identity.
  @inlinable
  public var combineIdentifier: CombineIdentifier {
    CombineIdentifier(self)
  }
}
