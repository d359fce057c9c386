import Synchronization

/// A unique identifier for identifying publisher streams.
///
/// ```swift
/// let first = CombineIdentifier()
/// let second = CombineIdentifier()
/// print(first == second)  // Prints: false
/// ```
@frozen
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  let rawValue: UInt64

  /// Creates a new identifier, distinct from every other identifier created this way.
  public init() {
    rawValue = nextCombineIdentifier.add(1, ordering: .relaxed).newValue
  }

  /// Creates an identifier from an object's identity.
  @inlinable
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
  }

  /// A textual representation of the identifier, in hexadecimal.
  public var description: String {
    "0x" + String(rawValue, radix: 16)
  }
}

// Counter identifiers start above the largest user-space address, so they never collide with
// an object-derived identifier.
private let nextCombineIdentifier = Atomic<UInt64>(1 << 63)
