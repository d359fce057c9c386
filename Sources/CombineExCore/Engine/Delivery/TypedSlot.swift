/// A value of a generic type kept in storage that is not generic, for the non-generic classes
/// that hold a subscriber's value or the subscriber itself (``SingleValueSubscription``): a
/// generic class's deinitializer is never specialized, and a closure that captures a generic
/// value allocates a context for it.
///
/// Unlike ``ResultSlot``, which keeps a whole `Result`, a slot holds a value typed directly by
/// a generic parameter (`Downstream`, `Downstream.Input`): code that runs unspecialized (a
/// `Just` subscribed from generic code) has that type's metadata at hand, where the metadata of
/// a composite type (`Result<(Downstream, Value), Never>`) is looked up in the runtime's cache
/// at every access (`j2` 24% worse, Docs/Performance.md).
///
/// A value of at most four words, aligned to at most a word (a class reference, an `Int`, a
/// `String`, most values), is stored in place, in `words`; a larger one is boxed. The slot
/// knows the type of what it holds (its metadata, no allocation), so it destroys an in-place
/// value still there when it is cleared (which its owner also does in its deinitializer),
/// without a closure made where the type is known (which, in unspecialized code, would capture
/// the type and allocate). It lives in a stored property of its owner and is never moved (an
/// in-place value may not be bitwise movable); its owner guards it.
@usableFromInline
struct TypedSlot: ~Copyable {
  /// The storage of an in-place value: bound to the value's type while it holds one.
  @usableFromInline
  var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
  /// A value that does not fit in `words`, in a ``TypedSlotBox``.
  @usableFromInline
  var boxed: AnyObject?
  /// The type of the in-place value that needs destroying; `nil` when the slot is empty, holds
  /// a trivial value or a boxed one.
  @usableFromInline
  var destroyedType: Any.Type?

  @inlinable
  init() {}

  /// Whether a `Value` is stored in place.
  @inlinable
  static func storesInPlace<Value>(_: Value.Type) -> Bool {
    MemoryLayout<Value>.size <= MemoryLayout<(UInt, UInt, UInt, UInt)>.size
      && MemoryLayout<Value>.alignment <= MemoryLayout<UInt>.alignment
  }

  /// Keeps `value`; the slot must be empty.
  @inlinable
  mutating func store<Value>(_ value: Value) {
    guard Self.storesInPlace(Value.self) else {
      boxed = TypedSlotBox(value)
      return
    }
    InPlaceWords.initialize(&words, to: value)
    // Decided by the type: specialized, a trivial value records nothing.
    if !_isPOD(Value.self) { destroyedType = Value.self }
  }

  /// A copy of the value, which must be there and be a `Value`.
  @inlinable
  mutating func copy<Value>(_: Value.Type) -> Value {
    guard Self.storesInPlace(Value.self) else {
      return unsafeDowncast(boxed.unsafelyUnwrapped, to: TypedSlotBox<Value>.self).value
    }
    return InPlaceWords.copy(from: &words, as: Value.self)
  }

  /// Moves the value out, leaving the slot empty; it must be there and be a `Value`.
  @inlinable
  mutating func take<Value>(_: Value.Type) -> Value {
    guard Self.storesInPlace(Value.self) else {
      let box = unsafeDowncast(boxed.unsafelyUnwrapped, to: TypedSlotBox<Value>.self)
      boxed = nil
      return box.value
    }
    destroyedType = nil
    return InPlaceWords.move(from: &words, as: Value.self)
  }

  /// Destroys the value, if any, leaving the slot empty. It may run user code (a deinit):
  /// never under a lock.
  @inlinable
  mutating func clear() {
    boxed = nil
    if let type = destroyedType {
      destroyedType = nil
      Self.destroy(&words, as: type)
    }
  }

  // The in-place accessors are `InPlaceWords`', shared with the other slot.

  /// Destroys the value of type `type` stored in place at `words` (the type opened from its
  /// metadata: this runs its value witness, unspecialized).
  @usableFromInline
  static func destroy(_ words: UnsafeMutableRawPointer, as type: Any.Type) {
    func destroy<Value>(_: Value.Type) {
      words.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
    destroy(type)
  }
}

/// A value that a ``TypedSlot`` does not keep in place (too large, or aligned beyond a word).
@usableFromInline
final class TypedSlotBox<Value> {
  @usableFromInline
  let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}
