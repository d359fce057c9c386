#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A type that defines methods for decoding.
///
/// `decode(type:decoder:)` turns each value of a publisher (the decoder's `Input`) into a
/// decoded value. Foundation's `JSONDecoder` and `PropertyListDecoder` conform, with
/// `Input == Data`.
///
/// ```swift
/// struct Point: Codable { let x: Int, y: Int }
/// let point = try JSONDecoder().decode(Point.self, from: Data(#"{"x":1,"y":2}"#.utf8))
/// ```
public protocol TopLevelDecoder {
  /// The type this decoder accepts.
  associatedtype Input

  /// Decodes an instance of the indicated type.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - from: The value to decode from.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONDecoder: TopLevelDecoder {}

extension PropertyListDecoder: TopLevelDecoder {}
