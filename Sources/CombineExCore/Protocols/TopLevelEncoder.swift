#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A type that defines methods for encoding.
///
/// `encode(encoder:)` turns each value of a publisher into the encoder's `Output`.
/// Foundation's `JSONEncoder` and `PropertyListEncoder` conform, with `Output == Data`.
///
/// ```swift
/// struct Point: Codable { let x: Int, y: Int }
/// let data = try JSONEncoder().encode(Point(x: 1, y: 2))  // TopLevelEncoder's requirement
/// ```
public protocol TopLevelEncoder {
  /// The type this encoder produces.
  associatedtype Output

  /// Encodes an instance of the indicated type.
  ///
  /// - Parameter value: The instance to encode.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONEncoder: TopLevelEncoder {}

extension PropertyListEncoder: TopLevelEncoder {}
