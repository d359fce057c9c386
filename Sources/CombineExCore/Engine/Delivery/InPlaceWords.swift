/// The accessors of a value kept in place in a few words of a non-generic slot (``ResultSlot``,
/// ``TypedSlot``), bound to the value's type while it holds one.
///
/// They take the words' address as an argument (`&words`), not through
/// `withUnsafeMutableBytes(of:)`: its closure, in the generic code that runs unspecialized
/// (CombineEx's `FutureWork`), was a partial application per access.
@usableFromInline
enum InPlaceWords {
  /// Initializes the in-place storage at `words` to `value`.
  @inlinable
  static func initialize<Value>(_ words: UnsafeMutableRawPointer, to value: Value) {
    words.initializeMemory(as: Value.self, to: value)
  }

  /// A copy of the value stored in place at `words`.
  @inlinable
  static func copy<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).pointee
  }

  /// Moves the value stored in place at `words` out, leaving the storage uninitialized.
  @inlinable
  static func move<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).move()
  }
}
