/// The accessors of a value kept in place in a few words of a non-generic slot (``ResultSlot``,
/// ``TypedSlot``, and CombineEx's `ActionRunDownstream`), bound to the value's type while it
/// holds one.
///
/// They take the words' address as an argument (`&words`), not through
/// `withUnsafeMutableBytes(of:)`: its closure, in the generic code that runs unspecialized
/// (CombineEx's `FutureWork`), was a partial application per access.
@usableFromInline
package enum InPlaceWords {
  /// Initializes the in-place storage at `words` to `value`.
  @inlinable @inline(__always)
  package static func initialize<Value>(_ words: UnsafeMutableRawPointer, to value: Value) {
    words.initializeMemory(as: Value.self, to: value)
  }

  /// A copy of the value stored in place at `words`.
  @inlinable @inline(__always)
  package static func copy<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).pointee
  }

  /// Moves the value stored in place at `words` out, leaving the storage uninitialized.
  @inlinable @inline(__always)
  package static func move<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).move()
  }

  /// Initializes the in-place storage at `words` to a copy of the value stored in place at
  /// `source`. (One copy through the value's witness: in unspecialized code, a copy into a
  /// local first would be two.)
  @inlinable @inline(__always)
  package static func initialize<Value>(
    _ words: UnsafeMutableRawPointer, toCopyOf source: UnsafeMutableRawPointer, as _: Value.Type
  ) {
    words.initializeMemory(as: Value.self, to: source.assumingMemoryBound(to: Value.self).pointee)
  }

  /// Destroys the value stored in place at `words`, leaving the storage uninitialized.
  @inlinable @inline(__always)
  package static func destroy<Value>(_ words: UnsafeMutableRawPointer, as _: Value.Type) {
    words.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
  }
}
